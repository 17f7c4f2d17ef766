//! `[[nodes]]`: bad names and kinds.

use super::*;

/// Bad inputs of this topic, checked by
/// [`bad_inputs_name_path_and_reason`](super::bad_inputs_name_path_and_reason).
pub(super) const BAD: &[Row] = &[
    (
        "duplicate node name",
        &[(
            "name = \"b\"\nkind = \"host\"",
            "name = \"a\"\nkind = \"host\"",
        )],
        "nodes[2].name",
        "duplicate node name \"a\" (also nodes[0].name)",
    ),
    (
        "bad node kind",
        &[(
            "name = \"b\"\nkind = \"host\"",
            "name = \"b\"\nkind = \"switch\"",
        )],
        "nodes[2].kind",
        "\"host\", \"router\"",
    ),
    (
        "node without name",
        &[("name = \"r\"", "kind = \"router\"")],
        "nodes[1].name",
        "required key is missing",
    ),
    (
        "empty node name",
        &[("name = \"r\"", "name = \"\"")],
        "nodes[1].name",
        "non-empty name",
    ),
];
