"""Which differential cases check which obsim TCP key: flip one key on
obsim's side only, run the harness's cases against ns-2.35, and list the
cases that then diverge. A case "checks" a key when flipping the key makes
it diverge; docs/MODEL.md ("ns-2 behaviours, variables and the cases that
check them") is built from this script's output.

Usage (from the repository root, with ``ns`` installed and obsim's extension
built into ``python/obsim``)::

    PYTHONPATH=python python scripts/ns2diff_sensitivity.py [--out flips.json] [KEY ...]

The cases are those of ``tests/test_ns2_diff.py``: the matrix (profile
``ns2``), the tick cases (the matrix at 200/300 ms) and the era cases
(``ns2-2004``, ``ns2-2003`` against ns-2.35 set to those eras' defaults).
Each flip sets the key on the ``ns2`` cases to another value and, where the
eras differ from ``ns2``, sets it on the era cases to ``ns2``'s value.
``syn`` is flipped in defaults mode only (aligned mode turns the SYN off on
both sides). Cases that diverge without any flip (``KNOWN`` in the test) are
left out and listed under ``"baseline"``.
ns-2's runs are the same for every flip and run once.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Optional, Tuple

from obsim.ns2diff import Case, obsim_side
from obsim.ns2diff import run as harness_run
from obsim.ns2diff.matrix import era_cases, matrix_cases, run_matrix, tick_cases

Flip = Tuple[str, object, Optional[object]]

BOTH_ERAS = ("ns2-2004", "ns2-2003")

FLIPS: List[Flip] = [
    # (key, value on the ns2 cases, value on the era cases: one for both, a
    # dict per era, or None: the eras are not flipped)
    ("header", "0 B", None),
    ("rwnd", 10, None),
    ("initial_cwnd", 1, None),
    ("initial_ssthresh", "infinite", None),
    ("dupack_threshold", 4, None),
    ("ssthresh_basis", "flight_size", None),
    ("precision_reduce", False, True),
    ("recovery_exit", "deflate", None),
    ("limited_transmit", False, None),
    ("limited_transmit_any_state", False, None),
    ("recovery_max_burst", 0, None),
    ("reno_recover_check", False, None),
    ("recover_check", "reached", None),
    ("newreno_timer", "slow_but_steady", {"ns2-2004": "slow_but_steady", "ns2-2003": "impatient"}),
    ("partial_window_deflation", False, {"ns2-2004": False, "ns2-2003": True}),
    ("sack_recovery", "rfc6675", None),
    ("sack_blocks", 4, None),
    ("sack_blocks", 2, None),
    ("sack_option_size", "rfc2018", None),
    ("delack_timeout", "200 ms", None),
    ("delack_last_duplicate", False, None),
    ("abc", True, None),
    ("syn", False, None),
    ("bugfix_ss", False, True),
    ("rto.estimator", "rfc6298", None),
    ("rto.initial", "6 s", "3 s"),
    ("rto.min", "1 s", "200 ms"),
    ("rto.max", "100000 s", "60 s"),
    ("rto.granularity", "1 ms", None),
    ("rto.ns2_rfc2988", False, None),
    ("rto.max_backoff", 1, None),
]
"""The flips: each value differs from the profile's, so a case that does
not diverge under it does not depend on the key."""

_flip: Dict[str, Tuple[str, object]] = {}
_scenario = obsim_side.scenario


def _flipped_scenario(case: Case, drop_indices: Any) -> Dict[str, Any]:
    sc = _scenario(case, drop_indices)
    f = _flip.get(case.profile)
    if f is not None:
        key, value = f
        if key.startswith("rto."):
            sc["tcp"].setdefault("rto", {})[key[4:]] = value
        else:
            sc["tcp"][key] = value
    return sc


def _forget_obsim_runs() -> None:
    with harness_run._CACHE_LOCK:
        for k in [k for k in harness_run._CACHE if k[0] == "obsim"]:
            del harness_run._CACHE[k]


def sweep(flips: List[Flip]) -> Dict[str, Dict[str, Any]]:
    """Per flip (``key=ns2 value/ns2-2004 value/ns2-2003 value``, None: not
    flipped): the cases run and the labels
    and first divergences of those that diverge."""
    obsim_side.scenario = _flipped_scenario  # type: ignore[assignment]
    everything = matrix_cases() + era_cases() + tick_cases()
    base = [(c, d.kind) for c, d in zip(everything, run_matrix(everything)) if not d.agrees]
    cases = [c for c in everything if c not in {b for b, _ in base}]
    out: Dict[str, Dict[str, Any]] = {
        "baseline": {"cases": len(everything), "diverge": [(c.label, k) for c, k in base]}
    }
    print(f"baseline: {len(base)}/{len(everything)} diverge (left out)", flush=True)
    try:
        for key, v_ns2, v_era in flips:
            _flip.clear()
            _flip["ns2"] = (key, v_ns2)
            if isinstance(v_era, dict):
                _flip.update({era: (key, v) for era, v in v_era.items()})
            elif v_era is not None:
                _flip.update({era: (key, v_era) for era in BOTH_ERAS})
            run = [
                c
                for c in cases
                if c.profile in _flip and not (key == "syn" and c.mode == "aligned")
            ]
            _forget_obsim_runs()
            diffs = run_matrix(run)
            bad = [(c.label, d.kind) for c, d in zip(run, diffs) if not d.agrees]
            eras = v_era if isinstance(v_era, dict) else {e: v_era for e in BOTH_ERAS}
            name = f"{key}={v_ns2}/" + "/".join(str(eras[e]) for e in BOTH_ERAS)
            out[name] = {"cases": len(run), "diverge": bad}
            print(f"{name}: {len(bad)}/{len(run)} diverge", flush=True)
    finally:
        obsim_side.scenario = _scenario  # type: ignore[assignment]
        _flip.clear()
        _forget_obsim_runs()
    return out


def main(argv: Optional[List[str]] = None) -> int:
    """Runs the flips named (all by default) and writes the JSON report."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("keys", nargs="*", help="flip only these keys")
    p.add_argument("--out", default="ns2diff_sensitivity.json")
    a = p.parse_args(argv)
    flips = [f for f in FLIPS if not a.keys or f[0] in a.keys]
    if not flips:
        print(f"no flip for {a.keys}; keys: {sorted({f[0] for f in FLIPS})}", file=sys.stderr)
        return 2
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(sweep(flips), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
