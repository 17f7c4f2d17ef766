//! Optical core: `[optical]`, `[nodes.switch]`, wavelengths and
//! `[[generators]]`.

use std::sync::LazyLock;

use super::*;
use crate::test_support::{links, nodes, optical_links};

pub(super) static CORE_BASE: LazyLock<String> = LazyLock::new(|| {
    [
        "\n[simulation]\nduration = \"10 s\"\n\n[optical]\nprocessing = \"50 us\"\n\n",
        &nodes("a:host E1:edge"),
        "[nodes.assembly]\ntimeout = \"1 ms\"\n",
        &nodes("C:core"),
        "[nodes.switch]\nconversion = \"full\"\n",
        &nodes("E2:edge b:host"),
        "\n",
        &links("a-E1", "100 Mbit/s", "1 ms"),
        &optical_links("E1-C C-E2", Some(2), "1 Gbit/s", "1 ms"),
        &links("E2-b", "100 Mbit/s", "1 ms"),
        "\n[[generators]]\nat = \"E1\"\ninterarrival = \"2 ms\"\nlength = \"200 us\"\n",
        "\n[[flows]]\nfrom = \"a\"\nto = \"b\"\n",
    ]
    .concat()
});

#[track_caller]
pub(super) fn core_edit(edits: &[(&str, &str)]) -> String {
    apply_edits(&CORE_BASE, edits)
}

pub(super) const CORE_BAD: &[Row] = &[
    (
        "optical link to a host",
        &[(
            "from = \"E2\"\nto = \"b\"",
            "from = \"E2\"\nto = \"b\"\nkind = \"optical\"",
        )],
        "links[3].to",
        "joins edge and core nodes only",
    ),
    (
        "core node with an electronic link",
        &[(
            "kind = \"optical\"\nwavelengths = 2\nrate = \"1 Gbit/s\"\ndelay = \"1 ms\"\n[[links]]\nfrom = \"E2\"",
            "wavelengths = 2\nrate = \"1 Gbit/s\"\ndelay = \"1 ms\"\n[[links]]\nfrom = \"E2\"",
        )],
        "links[2].wavelengths",
        "only optical links have wavelengths",
    ),
    (
        "core node on an electronic link",
        &[(
            "kind = \"optical\"\nwavelengths = 2\nrate = \"1 Gbit/s\"\ndelay = \"1 ms\"\n[[links]]\nfrom = \"E2\"",
            "rate = \"1 Gbit/s\"\ndelay = \"1 ms\"\n[[links]]\nfrom = \"E2\"",
        )],
        "links[2].kind",
        "core node, which has optical links only",
    ),
    (
        "partial conversion without converters",
        &[("conversion = \"full\"", "conversion = \"partial\"")],
        "nodes[2].switch.converters",
        "needs a pool of converters",
    ),
    (
        "converters without partial conversion",
        &[("conversion = \"full\"", "conversion = \"full\"\nconverters = 2")],
        "nodes[2].switch.converters",
        "only read by conversion = \"partial\"",
    ),
    (
        "unknown scheduler",
        &[("processing = \"50 us\"", "scheduler = \"lauc_vf\"")],
        "optical.scheduler",
        "\"lauc-vf\"",
    ),
    (
        "processing without unit",
        &[("processing = \"50 us\"", "processing = 50")],
        "optical.processing",
        "a bare number has no unit",
    ),
    (
        "unknown conversion",
        &[("conversion = \"full\"", "conversion = \"some\"")],
        "nodes[2].switch.conversion",
        "\"full\", \"none\", \"partial\"",
    ),
    (
        "unknown edge queue",
        &[("processing = \"50 us\"", "edge_queue = \"finite\"")],
        "optical.edge_queue",
        "or \"unlimited\" or \"none\"",
    ),
    (
        "zero wavelengths",
        &[("wavelengths = 2", "wavelengths = 0")],
        "links[1].wavelengths",
        "in 1..=65535, found integer 0",
    ),
    (
        "too many wavelengths",
        &[("wavelengths = 2", "wavelengths = 70000")],
        "links[1].wavelengths",
        "65535",
    ),
    (
        "wavelengths on an electronic link",
        &[(
            "to = \"E1\"\nrate = \"100 Mbit/s\"",
            "to = \"E1\"\nwavelengths = 4\nrate = \"100 Mbit/s\"",
        )],
        "links[0].wavelengths",
        "only optical links have wavelengths",
    ),
    (
        "switch on a host",
        &[(
            "name = \"b\"\nkind = \"host\"",
            "name = \"b\"\nkind = \"host\"\n[nodes.switch]\nprocessing = \"1 us\"",
        )],
        "nodes[4].switch",
        "only edge and core nodes",
    ),
    (
        "unknown switch key",
        &[("conversion = \"full\"", "convertion = \"full\"")],
        "nodes[2].switch.convertion",
        "did you mean \"conversion\"",
    ),
    (
        "generator at a host",
        &[("at = \"E1\"", "at = \"a\"")],
        "generators[0].at",
        "expected the name of an edge node, found \"a\", a host",
    ),
    (
        "generator at an unknown node",
        &[("at = \"E1\"", "at = \"E9\"")],
        "generators[0].at",
        "no such node",
    ),
    (
        "generator to itself",
        &[("at = \"E1\"", "at = \"E1\"\nto = [\"E1\"]")],
        "generators[0].to[0]",
        "its own edge node",
    ),
    (
        "generator to a core node",
        &[("at = \"E1\"", "at = \"E1\"\nto = [\"C\"]")],
        "generators[0].to[0]",
        "a core node",
    ),
    (
        "generator to an empty list",
        &[("at = \"E1\"", "at = \"E1\"\nto = []")],
        "generators[0].to",
        "non-empty list",
    ),
    (
        "generator without interarrival",
        &[("interarrival = \"2 ms\"\n", "")],
        "generators[0].interarrival",
        "required key is missing",
    ),
    (
        "generator zero interarrival",
        &[("interarrival = \"2 ms\"", "interarrival = \"0 ms\"")],
        "generators[0].interarrival",
        "greater than zero",
    ),
    (
        "generator zero length",
        &[("length = \"200 us\"", "length = \"0 us\"")],
        "generators[0].length",
        "greater than zero",
    ),
    (
        "generator length in packets",
        &[("length = \"200 us\"", "length = \"20 packets\"")],
        "generators[0].length",
        "expected a positive mean burst length",
    ),
    (
        "generator stop before start",
        &[(
            "length = \"200 us\"",
            "length = \"200 us\"\nstart = \"5 s\"\nstop = \"1 s\"",
        )],
        "generators[0].stop",
        "after start",
    ),
    (
        "generator unknown distribution",
        &[("length = \"200 us\"", "length = \"200 us\"\ndistribution = \"pareto\"")],
        "generators[0].distribution",
        "\"exponential\", \"fixed\"",
    ),
    (
        "generator unknown key",
        &[("interarrival = \"2 ms\"", "interarrival = \"2 ms\"\nrate = 500")],
        "generators[0].rate",
        "unknown key",
    ),
    (
        "zero burst length bin",
        &[("[[flows]]", "[metrics]\nburst_length_bin = 0\n\n[[flows]]")],
        "metrics.burst_length_bin",
        "found integer 0",
    ),
    (
        "extra offset without unit",
        &[("timeout = \"1 ms\"", "timeout = \"1 ms\"\nextra_offset = 5")],
        "nodes[1].assembly.extra_offset",
        "a bare number has no unit",
    ),
];

#[test]
fn core_scenario_resolves() {
    use crate::config::scenario::{BurstLength, Conversion, EdgeQueue, LengthDistribution};
    use crate::obs::scheduler::SchedulerKind;
    let s = ok(&CORE_BASE);
    assert_eq!(s.nodes[2].kind, NodeKind::Core);
    // [optical] sets every node's default; [nodes.switch] overrides it.
    assert_eq!(s.optical.processing, SimDuration::from_micros(50));
    for n in &s.nodes {
        assert_eq!(n.switch.processing, SimDuration::from_micros(50));
        assert_eq!(n.switch.scheduler, SchedulerKind::LaucVf);
        assert_eq!(n.switch.edge_queue, EdgeQueue::Unlimited);
    }
    assert_eq!(s.nodes[2].switch.conversion, Conversion::Full);
    assert!(
        s.nodes[3].edge.is_none(),
        "a generator-only edge needs no assembly"
    );
    assert_eq!(s.links[1].optical.as_ref().unwrap().wavelengths, 2);
    let g = &s.generators[0];
    assert_eq!(g.at, NodeId(1));
    assert_eq!(g.to, vec![NodeId(3)], "default: every other edge node");
    assert_eq!(g.length, BurstLength::Time(SimDuration::from_micros(200)));
    assert_eq!(g.distribution, LengthDistribution::Exponential);
    assert_eq!(s.metrics.burst_length_bin, 6);
    let p = ok(&core_edit(&[(
        "conversion = \"full\"",
        "conversion = \"partial\"\nconverters = 3\nconverter_sharing = \"port\"\nscheduler = \"horizon\"\nprocessing = \"10 us\"",
    )]));
    let sw = p.nodes[2].switch;
    assert_eq!(sw.conversion, Conversion::Partial);
    assert_eq!(sw.converters, 3);
    assert_eq!(sw.scheduler, SchedulerKind::Horizon);
    assert_eq!(sw.processing, SimDuration::from_micros(10));
    assert_eq!(p.nodes[1].switch.processing, SimDuration::from_micros(50));
    let b = ok(&core_edit(&[("length = \"200 us\"", "length = \"25 KB\"")]));
    assert_eq!(b.generators[0].length, BurstLength::Bytes(25_000));
}
