//! `[[links]]`: bad values, loss models and buffers.

use super::*;

/// Bad inputs of this topic, checked by
/// [`bad_inputs_name_path_and_reason`](super::bad_inputs_name_path_and_reason).
pub(super) const BAD: &[Row] = &[
    ("unknown key in a link", &[("delay = \"1 ms\"", "dealy = \"1 ms\"")], "links[0].dealy", "did you mean \"delay\"?"),
    (
        "unknown key lists allowed",
        &[("delay = \"1 ms\"", "delay = \"1 ms\"\nqq = 1")],
        "links[0].qq",
        "allowed keys: from, to, rate",
    ),
    (
        "negative delay",
        &[("delay = \"1 ms\"", "delay = \"-1 ms\"")],
        "links[0].delay",
        "negative values are not allowed",
    ),
    ("unknown duration unit", &[("delay = \"1 ms\"", "delay = \"1 sec\"")], "links[0].delay", "unknown unit \"sec\""),
    (
        "fractional nanoseconds",
        &[("delay = \"1 ms\"", "delay = \"0.5 ns\"")],
        "links[0].delay",
        "not a whole number of nanoseconds",
    ),
    ("missing delay", &[("delay = \"1 ms\"", "")], "links[0].delay", "required key is missing"),
    (
        "negative rate",
        &[("rate = \"100 Mbit/s\"", "rate = \"-5 Mbit/s\"")],
        "links[0].rate",
        "expected a positive bit rate like \"1 Gbit/s\" (units bit/s, kbit/s, Mbit/s, Gbit/s",
    ),
    (
        "negative rate found",
        &[("rate = \"100 Mbit/s\"", "rate = \"-5 Mbit/s\"")],
        "links[0].rate",
        "found \"-5 Mbit/s\"",
    ),
    ("zero rate", &[("rate = \"100 Mbit/s\"", "rate = \"0 Gbit/s\"")], "links[0].rate", "greater than zero"),
    ("rate in bytes", &[("rate = \"100 Mbit/s\"", "rate = \"100 MB/s\"")], "links[0].rate", "unknown unit \"MB/s\""),
    ("p = 1.5", &[("p = 0.01", "p = 1.5")], "links[1].loss.p", "a number in [0, 1], found float 1.5"),
    ("p negative", &[("p = 0.01", "p = -0.1")], "links[1].loss.p", "[0, 1]"),
    ("p as string", &[("p = 0.01", "p = \"0.01\"")], "links[1].loss.p", "found \"0.01\""),
    ("missing p", &[("p = 0.01", "data_only = true")], "links[1].loss.p", "required key is missing"),
    (
        "unknown loss model",
        &[("model = \"bernoulli\"", "model = \"gilbert\"")],
        "links[1].loss.model",
        "expected one of \"none\", \"bernoulli\"",
    ),
    (
        "key foreign to the loss model",
        &[("model = \"bernoulli\"", "model = \"none\"")],
        "links[1].loss.p",
        "unknown key \"p\"",
    ),
    (
        "loss not a table",
        &[("loss = { model = \"bernoulli\", p = 0.01 }", "loss = 0.01")],
        "links[1].loss",
        "expected a loss table",
    ),
    (
        "segments loss names a missing flow",
        &[("loss = { model = \"bernoulli\", p = 0.01 }", "loss = { model = \"segments\", flow = 3, seqs = [4, 2] }")],
        "links[1].loss.flow",
        "expected a flow id in 0..=0",
    ),
    (
        "segments with negative seq",
        &[("loss = { model = \"bernoulli\", p = 0.01 }", "loss = { model = \"segments\", flow = 0, seqs = [4, -2] }")],
        "links[1].loss.seqs[1]",
        "expected an integer >= 0",
    ),
    (
        "reverse loss on a simplex link",
        &[("p = 0.01 }", "p = 0.01 }\nduplex = false\nreverse_loss = { model = \"bernoulli\", p = 0.1 }")],
        "links[1].reverse_loss",
        "simplex",
    ),
    ("link to a missing node", &[("to = \"r\"", "to = \"x\"")], "links[0].to", "found \"x\"; no such node"),
    ("missing node suggests", &[("from = \"r\"", "from = \"rr\"")], "links[1].from", "did you mean \"r\"?"),
    ("link to itself", &[("to = \"r\"", "to = \"a\"")], "links[0].to", "cannot connect a node to itself"),
    (
        "duplicate link",
        &[("[[flows]]", "[[links]]\nfrom = \"r\"\nto = \"a\"\nrate = \"1 Gbit/s\"\ndelay = \"1 ms\"\n\n[[flows]]")],
        "links[2]",
        "links[0] already connects these nodes",
    ),
    (
        "bad buffer",
        &[("delay = \"1 ms\"", "delay = \"1 ms\"\nbuffer = 100")],
        "links[0].buffer",
        "write a string such as \"100 packets\"",
    ),
    (
        "bad buffer unit",
        &[("delay = \"1 ms\"", "delay = \"1 ms\"\nbuffer = \"100 pkts\"")],
        "links[0].buffer",
        "unknown unit \"pkts\"",
    ),
];

#[test]
fn loss_models_and_trace_resolve() {
    let text = edit(&[
        ("loss = { model = \"bernoulli\", p = 0.01 }", "loss = { model = \"segments\", flow = 0, seqs = [9, 3, 3] }\nreverse_loss = { model = \"packets\", indices = [2, 1] }"),
        ("cwnd = true", "cwnd = true\nseq = true\ninterval = \"10 ms\"\nflows = [0]"),
    ]);
    let s = ok(&text);
    assert_eq!(
        s.links[1].loss,
        LossSpec::Segments {
            flow: FlowId(0),
            seqs: vec![3, 9],
            retransmissions: false
        }
    );
    assert_eq!(
        s.links[1].reverse_loss,
        LossSpec::Packets {
            indices: vec![1, 2]
        }
    );
    assert!(s.trace.cwnd && s.trace.seq);
    assert_eq!(s.trace.interval, Some(SimDuration::from_millis(10)));
    assert_eq!(s.trace.flows, [FlowId(0)]);
}

#[test]
fn zero_packet_buffer_is_allowed() {
    let s = ok(&edit(&[(
        "delay = \"1 ms\"",
        "delay = \"1 ms\"\nbuffer = \"0 packets\"",
    )]));
    assert_eq!(s.links[0].buffer, Buffer::Packets(0));
    let s = ok(&edit(&[(
        "delay = \"1 ms\"",
        "delay = \"1 ms\"\nbuffer = \"unlimited\"",
    )]));
    assert_eq!(s.links[0].buffer, Buffer::Unlimited);
}
