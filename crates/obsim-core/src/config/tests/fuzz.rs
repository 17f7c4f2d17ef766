//! No input panics: random strings, TOML-like documents, JSON trees and
//! mutated example files.

use proptest::prelude::*;

use super::{parse_json, parse_toml, DUMBBELL, SINGLE_FLOW};

/// Every key of the schema, and one that is none.
fn keys() -> Vec<&'static str> {
    let mut keys: Vec<&str> = super::key_lists().concat();
    keys.sort_unstable();
    keys.dedup();
    keys.push("zz");
    keys
}
const HEADERS: &[&str] = &[
    "[simulation]",
    "[tcp]",
    "[tcp.rto]",
    "[tcp.cubic]",
    "[[nodes]]",
    "[[links]]",
    "[[flows]]",
    "[flows.tcp]",
    "[flows.tcp.rto]",
    "[flows.tcp.cubic]",
    "[trace]",
    "[links.loss]",
    "[nodes]",
    "[[traffic]]",
];
const ATOMS: &[&str] = &[
    "\"10 ms\"",
    "\"0 s\"",
    "\"-1 s\"",
    "\"1e400 s\"",
    "\"1 Gbit/s\"",
    "\"0 bit/s\"",
    "\"1040 B\"",
    "\"64 KiB\"",
    "\"100 packets\"",
    "\"unlimited\"",
    "\"infinite\"",
    "\"a\"",
    "\"b\"",
    "\"r\"",
    "\"reno\"",
    "\"sack\"",
    "\"ns2\"",
    "\"bernoulli\"",
    "\"segments\"",
    "\"packets\"",
    "\"none\"",
    "\"flows_done\"",
    "\"onoff\"",
    "\"cbr\"",
    "\"µs\"",
    "\"\"",
    "0",
    "1",
    "-1",
    "2",
    "9223372036854775807",
    "-9223372036854775808",
    "0.5",
    "1.5",
    "nan",
    "inf",
    "true",
    "false",
    "1979-05-27",
    "[]",
    "[0, 1]",
    "[\"0 s\", \"1 s\"]",
    "[\"a\", \"b\"]",
    "{}",
    "{ model = \"bernoulli\", p = 0.1 }",
    "{ model = \"segments\", flow = 99, seqs = [1] }",
    "{ model = \"packets\", indices = [-1] }",
];

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (prop::sample::select(keys()), prop::sample::select(ATOMS)).prop_map(|(k, v)| format!("{k} = {v}")),
        1 => prop::sample::select(HEADERS).prop_map(str::to_string),
        1 => (prop::sample::select(keys()), prop::sample::select(keys()), prop::sample::select(ATOMS))
            .prop_map(|(a, b, v)| format!("{a}.{b} = {v}")),
    ]
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value as J;
    let leaf = prop_oneof![
        Just(J::Null),
        any::<bool>().prop_map(J::Bool),
        any::<i64>().prop_map(J::from),
        any::<u64>().prop_map(J::from),
        any::<f64>().prop_map(J::from),
        prop::sample::select(ATOMS).prop_map(|s| J::String(s.trim_matches('"').to_string())),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(J::Array),
            prop::collection::vec((prop::sample::select(keys()), inner), 0..6).prop_map(|kv| {
                J::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
}

/// Deletes, duplicates or rewrites a few lines of `text`.
fn mutate(text: &str, ops: &[(usize, u8, String)]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for (at, op, new) in ops {
        if lines.is_empty() {
            break;
        }
        let i = at % lines.len();
        match op % 4 {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 => lines[i] = new.clone(),
            _ => {
                // Replace the value part of a `key = value` line.
                if let Some((k, _)) = lines[i].split_once('=') {
                    lines[i] = format!(
                        "{k}= {}",
                        new.split_once('=').map_or(new.as_str(), |(_, v)| v)
                    );
                }
            }
        }
    }
    lines.join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_strings_do_not_panic(s in ".{0,300}") {
        let _ = parse_toml(&s);
        let _ = parse_json(&s);
    }

    #[test]
    fn tomlish_documents_do_not_panic(lines in prop::collection::vec(line(), 0..40)) {
        let text = lines.join("\n");
        let r = parse_toml(&text);
        if let Ok(t) = toml::from_str::<toml::Table>(&text) {
            // The same tree through JSON must give the same verdict.
            let j = parse_json(&serde_json::to_string(&t).unwrap());
            prop_assert_eq!(r.is_ok(), j.is_ok());
        }
    }

    #[test]
    fn json_trees_do_not_panic(v in json_value()) {
        let _ = parse_json(&v.to_string());
        let wrapped = serde_json::json!({ "simulation": v.clone(), "links": [v.clone()], "flows": [v.clone()], "tcp": v });
        let _ = parse_json(&wrapped.to_string());
    }

    #[test]
    fn mutated_examples_do_not_panic(
        which in any::<bool>(),
        ops in prop::collection::vec((any::<usize>(), any::<u8>(), line()), 1..6),
    ) {
        let base = if which { DUMBBELL } else { SINGLE_FLOW };
        let _ = parse_toml(&mutate(base, &ops));
    }
}
