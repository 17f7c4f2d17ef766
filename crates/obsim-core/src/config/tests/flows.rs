//! `[[flows]]`: bad endpoints, start times, counts and sizes.

use super::*;

/// Bad inputs of this topic, checked by
/// [`bad_inputs_name_path_and_reason`](super::bad_inputs_name_path_and_reason).
pub(super) const BAD: &[Row] = &[
    (
        "flow to itself",
        &[(
            "name = \"f\"\nfrom = \"a\"\nto = \"b\"",
            "name = \"f\"\nfrom = \"a\"\nto = \"a\"",
        )],
        "flows[0].to",
        "from node \"a\" to itself",
    ),
    (
        "flow from a missing node",
        &[(
            "name = \"f\"\nfrom = \"a\"",
            "name = \"f\"\nfrom = [\"a\", \"q\"]",
        )],
        "flows[0].from[1]",
        "no such node",
    ),
    (
        "flow without to",
        &[(
            "name = \"f\"\nfrom = \"a\"\nto = \"b\"",
            "name = \"f\"\nfrom = \"a\"",
        )],
        "flows[0].to",
        "required key is missing",
    ),
    (
        "from/to lengths differ",
        &[(
            "name = \"f\"\nfrom = \"a\"\nto = \"b\"",
            "name = \"f\"\nfrom = [\"a\", \"r\"]\nto = [\"b\", \"r\", \"a\"]",
        )],
        "flows[0].to",
        "as long as `from` (2 names), found a list of 3",
    ),
    (
        "start range reversed",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\nstart = [\"2 s\", \"1 s\"]\n\n[trace]",
        )],
        "flows[0].start",
        "must not exceed",
    ),
    (
        "start range of 3",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\nstart = [\"0 s\", \"1 s\", \"2 s\"]\n\n[trace]",
        )],
        "flows[0].start",
        "an array of 3 elements",
    ),
    (
        "start after the end",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\nstart = \"11 s\"\n\n[trace]",
        )],
        "flows[0].start",
        "earlier than simulation.duration (10 s)",
    ),
    (
        "count 0",
        &[("to = \"b\"\n\n[trace]", "to = \"b\"\ncount = 0\n\n[trace]")],
        "flows[0].count",
        "an integer in 1..=1000000",
    ),
    (
        "huge count",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\ncount = 9000000000000000000\n\n[trace]",
        )],
        "flows[0].count",
        "found integer 9000000000000000000",
    ),
    (
        "zero size",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\nsize = \"0 B\"\n\n[trace]",
        )],
        "flows[0].size",
        "greater than zero",
    ),
    (
        "size not whole bytes",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\nsize = \"1.0005 KB\"\n\n[trace]",
        )],
        "flows[0].size",
        "not a whole number of bytes",
    ),
    (
        "duplicate group name",
        &[(
            "[trace]",
            "[[flows]]\nname = \"f\"\nfrom = \"b\"\nto = \"a\"\n\n[trace]",
        )],
        "flows[1].name",
        "duplicate flow group name \"f\"",
    ),
    (
        "no route over a simplex link",
        &[("delay = \"1 ms\"", "delay = \"1 ms\"\nduplex = false")],
        "flows[0].to",
        "no route from node \"b\" to node \"a\"",
    ),
    (
        "too many flows in total",
        &[(
            "name = \"f\"\nfrom = \"a\"",
            "name = \"f\"\nfrom = [\"a\", \"r\"]\ncount = 1000000",
        )],
        "flows[0].count",
        "a scenario may have at most 1000000 flows in total",
    ),
];
