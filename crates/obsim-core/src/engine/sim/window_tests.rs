//! Window-based assembly in the engine under flow churn (issue 13, R5):
//! generated SACK flows with a SYN (profile `ns2`) through one edge pair
//! with random burst loss, the window read from the sender or estimated at
//! the edge. A test-only tap records every assembled packet with the window
//! it was classified by, and every burst launched.

#![allow(clippy::float_cmp)] // windows are whole segments, exact in f64

use crate::config::parse_toml;
use crate::engine::{run, RunOptions};
use crate::obs::assembly::window_class;
use crate::results::RunResults;

/// Test-only records of what the edges assembled (this thread only, and
/// only while [`tap::start`] is in force).
pub(super) mod tap {
    use std::cell::RefCell;

    use crate::ids::NodeId;
    use crate::net::{Packet, Payload};
    use crate::obs::assembly::Assembler;
    use crate::obs::Burst;

    /// A data transmission: (flow, seq, sent_at ns, syn).
    pub type Key = (u32, u64, u64, bool);
    /// A launched burst: its queue and its packets' keys.
    pub type Launched = (u32, Vec<Key>);

    /// One data packet into an assembler.
    #[derive(Clone, Copy, Debug)]
    pub struct Seen {
        /// (flow, seq, sent_at ns, syn): identifies the transmission.
        pub key: Key,
        /// The window it was classified by.
        pub used: f64,
        /// The sender's cwnd at that moment (None: flow not live).
        pub sender: Option<f64>,
        /// Estimator records at the edge after it (0 without estimator).
        pub records: usize,
        /// Estimator slots ever allocated at the edge.
        pub capacity: usize,
    }

    thread_local! {
        static ON: RefCell<bool> = const { RefCell::new(false) };
        static SEEN: RefCell<Vec<Seen>> = const { RefCell::new(Vec::new()) };
        static BURSTS: RefCell<Vec<Launched>> = const { RefCell::new(Vec::new()) };
    }

    fn key(p: &Packet) -> Option<Key> {
        match p.payload {
            Payload::Data(s) => Some((p.flow.0, s.seq, s.sent_at.0, s.syn)),
            _ => None,
        }
    }

    /// Starts recording (and clears earlier records).
    pub fn start() {
        ON.with(|o| *o.borrow_mut() = true);
        SEEN.with(|s| s.borrow_mut().clear());
        BURSTS.with(|s| s.borrow_mut().clear());
    }

    /// Stops recording; returns the packets and the bursts (queue, keys).
    pub fn take() -> (Vec<Seen>, Vec<Launched>) {
        ON.with(|o| *o.borrow_mut() = false);
        (
            SEEN.with(|s| std::mem::take(&mut *s.borrow_mut())),
            BURSTS.with(|s| std::mem::take(&mut *s.borrow_mut())),
        )
    }

    /// A packet entered `node`'s assembler classified by window `used`.
    pub fn packet(_node: NodeId, p: &Packet, used: f64, sender: Option<f64>, a: &Assembler) {
        if !ON.with(|o| *o.borrow()) {
            return;
        }
        let Some(key) = key(p) else { return };
        let (records, capacity) = a.estimator().map_or((0, 0), |e| (e.flows(), e.capacity()));
        SEEN.with(|s| {
            s.borrow_mut().push(Seen {
                key,
                used,
                sender,
                records,
                capacity,
            });
        });
    }

    /// A burst was launched.
    pub fn burst(b: &Burst) {
        if !ON.with(|o| *o.borrow()) {
            return;
        }
        let keys = b.packets.iter().filter_map(key).collect();
        BURSTS.with(|s| s.borrow_mut().push((b.queue, keys)));
    }
}

const B: f64 = 8.0;
const C: f64 = 32.0;

/// `a` -- E1 ==10 Gbit/s, 5 ms, burst loss p== E2 -- `b`; 100 Mbit/s, 1 ms
/// access; 15 flows/s of 300 KB from `a` to `b` for 20 s; window-based
/// assembly at E1 with B = 8, C = 32 and `source`.
fn scenario(source: &str) -> String {
    format!(
        r#"
[simulation]
duration = "20 s"
[tcp]
profile = "ns2"
variant = "sack"
mss = "1000 B"
max_window = 64
[[nodes]]
name = "a"
[[nodes]]
name = "E1"
kind = "edge"
[nodes.assembly]
selection = "window"
thresholds = [{B}, {C}]
window_source = "{source}"
[[nodes]]
name = "E2"
kind = "edge"
[nodes.assembly]
timeout = "1 ms"
[[nodes]]
name = "b"
[[links]]
from = "a"
to = "E1"
rate = "100 Mbit/s"
delay = "1 ms"
buffer = "1000 packets"
[[links]]
from = "E1"
to = "E2"
kind = "optical"
rate = "10 Gbit/s"
delay = "5 ms"
burst_loss = {{ p = 0.02, pattern = "random" }}
[[links]]
from = "E2"
to = "b"
rate = "100 Mbit/s"
delay = "1 ms"
buffer = "1000 packets"
[[flow_generators]]
name = "web"
from = "a"
to = "b"
rate = 15
size = "300 KB"
"#
    )
}

fn run_tapped(source: &str) -> (RunResults, Vec<tap::Seen>, Vec<tap::Launched>) {
    let sc = parse_toml(&scenario(source)).unwrap_or_else(|e| panic!("{e}"));
    tap::start();
    let r = run(&sc, &RunOptions::default()).unwrap();
    let (seen, bursts) = tap::take();
    (r, seen, bursts)
}

/// Every burst's packets were classified into that burst's queue, under
/// both window sources; all three queues carry bursts; flows finish.
#[track_caller]
fn check_queues(seen: &[tap::Seen], bursts: &[tap::Launched]) -> [usize; 3] {
    use std::collections::HashMap;
    let class: HashMap<_, _> = seen
        .iter()
        .map(|s| (s.key, window_class(s.used, B, C) as u32))
        .collect();
    let mut per_queue = [0usize; 3];
    for (q, keys) in bursts {
        assert!(*q < 3, "one egress group: queues 0..3, found {q}");
        for k in keys {
            assert_eq!(class[k], *q, "packet {k:?} in a burst of queue {q}");
        }
        per_queue[*q as usize] += 1;
    }
    per_queue
}

#[test]
fn sender_window_classifies_by_the_senders_cwnd_under_churn() {
    let (r, seen, bursts) = run_tapped("sender");
    let finished = r.flow_records.iter().filter(|x| x.finished).count();
    assert!(finished > 200, "{finished} flows finished");
    for s in &seen {
        assert_eq!(Some(s.used), s.sender, "{:?}", s.key);
        assert_eq!(s.records, 0, "no estimator");
    }
    let per_queue = check_queues(&seen, &bursts);
    assert!(
        per_queue.iter().all(|&n| n > 100),
        "bursts per queue {per_queue:?}"
    );
}

#[test]
fn estimated_window_keeps_bounded_state_and_follows_the_senders_class() {
    let (r, seen, bursts) = run_tapped("estimated");
    let finished = r.flow_records.iter().filter(|x| x.finished).count();
    assert!(finished > 200, "{finished} flows finished");
    let per_queue = check_queues(&seen, &bursts);
    assert!(
        per_queue.iter().all(|&n| n > 100),
        "bursts per queue {per_queue:?}"
    );
    // Records follow the flows live at once, not the flows created.
    let peak = r.flowgen.peak_active as usize;
    let cap = seen.iter().map(|s| s.capacity).max().unwrap();
    let live = seen.iter().map(|s| s.records).max().unwrap();
    assert!(
        live <= peak && cap <= peak,
        "records {live}, slots {cap}, peak flows {peak}"
    );
    assert!(
        (r.flowgen.created as usize) > 3 * cap,
        "{} flows in {cap} slots",
        r.flowgen.created
    );
    // The SYN carries no data: window 0; every data segment at least 1.
    assert!(seen.iter().filter(|s| s.key.3).all(|s| s.used == 0.0));
    assert!(seen.iter().filter(|s| !s.key.3).all(|s| s.used >= 1.0));
    // How often the estimate picks the sender's class (reported, and a
    // loose floor: the estimate is a per-round flight count).
    let data: Vec<_> = seen
        .iter()
        .filter(|s| !s.key.3 && s.sender.is_some())
        .collect();
    let agree = data
        .iter()
        .filter(|s| window_class(s.used, B, C) == window_class(s.sender.unwrap(), B, C))
        .count();
    let share = agree as f64 / data.len() as f64;
    eprintln!(
        "estimated class = sender's class for {:.1}% of {} data packets",
        100.0 * share,
        data.len()
    );
    assert!(share > 0.5, "{share}");
}

/// Acceptance with real TCP: one SACK flow (profile `ns2`, SYN first, W_M =
/// 64) through E1 with B = 8, C = 32 and the window from the sender. Its
/// slow start climbs from the 1 ms to the 5 ms and then the 10 ms queue;
/// the 10th burst (a whole flight in the 10 ms queue) is lost, the flow
/// times out (cwnd 1) and its segments return to the 1 ms queue; bursts
/// never mix queues.
#[test]
fn a_real_flow_climbs_the_queues_and_falls_back_after_a_lost_burst() {
    let text = scenario("sender")
        .replace("burst_loss = { p = 0.02, pattern = \"random\" }", "burst_loss = { pattern = \"single\", index = 9 }")
        .replace(
            "[[flow_generators]]\nname = \"web\"\nfrom = \"a\"\nto = \"b\"\nrate = 15\nsize = \"300 KB\"\n",
            "[[flows]]\nfrom = \"a\"\nto = \"b\"\n",
        )
        .replace("duration = \"20 s\"", "duration = \"3 s\"");
    let sc = parse_toml(&text).unwrap_or_else(|e| panic!("{e}"));
    tap::start();
    let r = run(&sc, &RunOptions::default()).unwrap();
    let (seen, bursts) = tap::take();
    check_queues(&seen, &bursts);
    assert_eq!(
        r.flows[0].to_events + r.flows[0].td_events,
        1,
        "one loss event"
    );
    // The class of each data segment in send order, runs collapsed.
    let mut runs: Vec<usize> = Vec::new();
    for s in seen.iter().filter(|s| !s.key.3) {
        let c = window_class(s.used, B, C);
        if runs.last() != Some(&c) {
            runs.push(c);
        }
    }
    // Slow start climbs 1 -> 5 -> 10 ms; the lost burst (a whole flight)
    // ends in a timeout, cwnd 1: back to the 1 ms queue, then up again.
    assert_eq!(r.flows[0].to_events, 1);
    assert_eq!(runs, [0, 1, 2, 0, 1, 2]);
}
