//! The result tables of a run, named once.
//!
//! [`TABLES`] is the one list of the tables a run produces: their names (the
//! keys of the dict [`crate::run`] returns, the attributes of
//! `obsim.Results`, the Parquet file stems of `Results.write`), whether each
//! is written only when it has rows, and how each is turned into columns.
//! The module exports the names as `obsim._core.TABLES` and
//! `obsim._core.OPTIONAL_TABLES`; the Python package, its `.pyi` stub and
//! README's output-file table derive from (or are tested against) them. A
//! test checks the list against the fields of `obsim_core`'s
//! [`RunResults`], so a table added there without a line here fails.

use obsim_core::results::RunResults;

use crate::columns::{self, CellError, Columns};

/// One result table of a run.
pub struct Table {
    /// The table's name: key in `run`'s dict, `obsim.Results` attribute,
    /// Parquet file stem. Equals its field name in [`RunResults`].
    pub name: &'static str,
    /// Written by `Results.write` only when it has rows (a table that only
    /// some scenarios fill: traces, OBS, optical core, UDP traffic).
    pub optional: bool,
    /// The table's columns, from the run's results.
    pub columns: fn(&RunResults) -> Result<Columns, CellError>,
}

/// Every result table, in the order Python lists and writes them (the field
/// order of [`RunResults`], less `meta`).
pub const TABLES: [Table; 13] = [
    Table {
        name: "flows",
        optional: false,
        columns: |r| columns::rows_to_columns(&r.flows),
    },
    Table {
        name: "links",
        optional: false,
        columns: |r| columns::rows_to_columns(&r.links),
    },
    // The trace, burst histograms and series are already column-oriented
    // (structs of vectors).
    Table {
        name: "trace",
        optional: true,
        columns: |r| columns::struct_to_columns(&r.trace),
    },
    Table {
        name: "packets",
        optional: true,
        columns: |r| columns::struct_to_columns(&r.packets),
    },
    Table {
        name: "bursts",
        optional: true,
        columns: |r| columns::struct_to_columns(&r.bursts),
    },
    Table {
        name: "series",
        optional: true,
        columns: |r| columns::struct_to_columns(&r.series),
    },
    Table {
        name: "nodes",
        optional: true,
        columns: |r| columns::rows_to_columns(&r.nodes),
    },
    Table {
        name: "paths",
        optional: true,
        columns: |r| columns::rows_to_columns(&r.paths),
    },
    Table {
        name: "burst_lengths",
        optional: true,
        columns: |r| columns::rows_to_columns(&r.burst_lengths),
    },
    Table {
        name: "wavelengths",
        optional: true,
        columns: |r| columns::rows_to_columns(&r.wavelengths),
    },
    Table {
        name: "traffic",
        optional: true,
        columns: |r| columns::rows_to_columns(&r.traffic),
    },
    Table {
        name: "flow_records",
        optional: true,
        columns: |r| columns::rows_to_columns(&r.flow_records),
    },
    Table {
        name: "pair_bins",
        optional: true,
        columns: |r| columns::rows_to_columns(&r.pair_bins),
    },
];

/// Names of every table, in [`TABLES`] order.
pub fn names() -> Vec<&'static str> {
    TABLES.iter().map(|t| t.name).collect()
}

/// Names of the tables written only when they have rows.
pub fn optional_names() -> Vec<&'static str> {
    TABLES
        .iter()
        .filter(|t| t.optional)
        .map(|t| t.name)
        .collect()
}

/// Every table of `results` as named columns, in [`TABLES`] order.
pub fn to_columns(results: &RunResults) -> Result<Vec<(&'static str, Columns)>, CellError> {
    TABLES
        .iter()
        .map(|t| Ok((t.name, (t.columns)(results)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::Cell;

    #[test]
    fn tables_are_the_fields_of_run_results_less_meta() {
        let Ok(Cell::Struct(fields)) = columns::to_cell(&RunResults::default()) else {
            panic!("RunResults must serialize as a struct");
        };
        let fields: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(fields[0], "meta");
        assert_eq!(fields[1..], names()[..]);
    }

    #[test]
    fn every_table_converts_and_names_are_unique() {
        let converted = to_columns(&RunResults::default()).unwrap();
        assert_eq!(converted.len(), TABLES.len());
        let mut names = names();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TABLES.len());
        // flows and links are always written; the rest only with rows.
        assert_eq!(optional_names().len(), TABLES.len() - 2);
    }
}
