//! STUB (issue 12, branch i12-flowgen): the `size` key of a flow generator.
//! The real parser (inline tables `{ law = "pareto", ... }`) comes with
//! branch `i12-sizes`; this stub accepts only a constant size like
//! `"700 KB"` and has the agreed signature. Keep theirs on merge.

use super::fields::{quantity, Quantity};
use super::units::{self, SIZE_UNITS};
use super::walk::{Errors, Val};
use crate::traffic::size::SizeLaw;

const SIZE: Quantity = Quantity {
    expected: "a positive size like \"700 KB\"",
    units: SIZE_UNITS,
    unit: "B",
};

/// Parses the size law at `path` (reports errors there).
pub(crate) fn size_law(errs: &mut Errors, path: &str, v: &Val) -> Option<SizeLaw> {
    match quantity(v, &SIZE, units::parse_bytes, |n| {
        (n == 0).then(|| "it must be greater than zero".into())
    }) {
        Ok(bytes) => Some(SizeLaw::Constant { bytes }),
        Err(e) => {
            errs.push(path, e);
            None
        }
    }
}
