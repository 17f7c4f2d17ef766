"""Fingerprints every output obsim produces at fixed seeds, to prove that a
refactor changes no behaviour (DEVELOPERS.md: "record the outputs of every
scenario and every --quick reproduction at fixed seeds before you start, and
show them byte-identical after").

    python scripts/fingerprint.py OUT.json [--only scenarios|reproductions] [--ids ID ...] [--jobs N]
        [--scenario-dir DIR]
    python scripts/fingerprint.py --compare BEFORE.json AFTER.json
    python scripts/fingerprint.py OUT.json --only scenarios --drop-columns COL ...

It fingerprints the package of this tree (``python/``, with its built
extension) unless ``PYTHONPATH`` names another (e.g. an older revision's,
extracted with ``git archive``); the last line says which.

Each scenario in `scenarios/` runs at seeds 1 and 7 and is written with
`Results.write`; every file but `timing.json` is hashed byte for byte. Each
reproduction runs `obsim reproduce ID --quick`; its per-run files (less
`timing.json`) are hashed byte for byte, and its store-level tables, which
carry wall times, are hashed by content with the wall-time columns dropped.

``--drop-columns`` proves an additive change (new output columns, nothing
else): every scenario's Parquet table is then hashed by content without those
columns; fingerprint the revision before and the one after with the same
flag and compare.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
# The package under test is this tree's (python/, with its built extension), not
# whatever `obsim` the interpreter would import (an editable install of another
# checkout): unless PYTHONPATH names one, this tree's, for this process and the
# `obsim reproduce` subprocesses alike.
if not os.environ.get("PYTHONPATH"):
    os.environ["PYTHONPATH"] = str(ROOT / "python")
    sys.path.insert(0, str(ROOT / "python"))
SEEDS = (1, 7)
# Columns and keys that hold wall-clock facts, not simulation outputs.
WALL = ("wall_s", "wall", "timing", "elapsed", "created", "host", "started", "finished")
# Keys that are wall-clock or provenance facts when named exactly so ("date": the day and
# time a reproduction ran, in reproduction.json, where a substring test would also drop
# "candidates"; "commit": the source revision it ran at, "-dirty" in a work tree).
WALL_KEYS = ("date", "commit")


def _wall(key: str) -> bool:
    """True for a key or column that holds a wall-clock fact."""
    return key in WALL_KEYS or any(w in key for w in WALL)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _strip(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if not _wall(k)}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def _content_hash(path: Path, drop: Tuple[str, ...] = ()) -> str:
    """Hash of a store-level file with wall-time columns or keys, and the
    columns ``drop``, removed."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        t = pq.read_table(path)
        keep = [c for c in t.column_names if not _wall(c) and c not in drop]
        return _sha(json.dumps(t.select(keep).to_pylist(), sort_keys=True, default=str).encode())
    if path.suffix == ".json":
        return _sha(json.dumps(_strip(json.loads(path.read_text())), sort_keys=True).encode())
    if path.suffix == ".jsonl":
        rows = [_strip(json.loads(line)) for line in path.read_text().splitlines() if line]
        rows.sort(key=lambda r: json.dumps(r, sort_keys=True))
        return _sha(json.dumps(rows, sort_keys=True).encode())
    return _sha(path.read_bytes())


def scenarios(directory: Path, drop: Tuple[str, ...] = ()) -> Dict[str, str]:
    """Each scenario's files at each seed, hashed byte for byte; with
    ``drop``, Parquet tables by content without those columns."""
    import obsim

    out: Dict[str, str] = {}
    for path in sorted(directory.glob("*.toml")):
        for seed in SEEDS:
            with tempfile.TemporaryDirectory() as d:
                obsim.run(str(path), seed=seed).write(d)
                for f in sorted(Path(d).iterdir()):
                    if f.name == "timing.json":
                        continue
                    key = f"scenario/{path.stem}/seed{seed}/{f.name}"
                    if drop and f.suffix == ".parquet":
                        out[key] = _content_hash(f, drop)
                    else:
                        out[key] = _sha(f.read_bytes())
    return out


def _reproduction(rid: str) -> Dict[str, str]:
    out: Dict[str, str] = {}
    with tempfile.TemporaryDirectory() as d:
        cmd = [sys.executable, "-m", "obsim", "reproduce", rid, "--quick", "--jobs", "1", "--out", d]
        r = subprocess.run(cmd, capture_output=True, text=True)
        out[f"reproduction/{rid}/exit"] = str(r.returncode)
        for f in sorted(Path(d).rglob("*")):
            if not f.is_file() or f.name == "timing.json" or f.suffix in (".png", ".pdf", ".html"):
                continue
            rel = f.relative_to(d).as_posix()
            if rel.startswith(".tmp/"):
                continue
            if rel.startswith("runs/") and f.name != "run.json":
                out[f"reproduction/{rid}/{rel}"] = _sha(f.read_bytes())
            else:
                out[f"reproduction/{rid}/{rel}"] = _content_hash(f)
    return out


def reproductions(jobs: int, only: Optional[List[str]] = None) -> Dict[str, str]:
    r = subprocess.run(
        [sys.executable, "-m", "obsim", "reproduce", "--list"], capture_output=True, text=True, check=True
    )
    ids = [line.split()[0] for line in r.stdout.splitlines() if line and not line.startswith(" ")]
    if only:
        unknown = sorted(set(only) - set(ids))
        if unknown:
            raise SystemExit(
                f"--ids: unknown reproduction(s) {', '.join(unknown)}; allowed: {', '.join(ids)}"
            )
        ids = [i for i in ids if i in only]
    out: Dict[str, str] = {}
    with ThreadPoolExecutor(jobs) as pool:
        for part in pool.map(_reproduction, ids):
            out.update(part)
    return out


def compare(before: Path, after: Path) -> int:
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    differ = sorted(k for k in a.keys() & b.keys() if a[k] != b[k])
    only_a, only_b = sorted(a.keys() - b.keys()), sorted(b.keys() - a.keys())
    for k in differ:
        print(f"DIFFERS  {k}")
    for k in only_a:
        print(f"MISSING  {k}")
    for k in only_b:
        print(f"NEW      {k}")
    same = len(a.keys() & b.keys()) - len(differ)
    print(f"{same} identical, {len(differ)} differ, {len(only_a)} missing, {len(only_b)} new")
    return 1 if differ or only_a or only_b else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", type=Path)
    ap.add_argument("--only", choices=("scenarios", "reproductions"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument(
        "--scenario-dir",
        type=Path,
        default=ROOT / "scenarios",
        help="run the scenarios of this folder (e.g. an older revision's, extracted with git archive)",
    )
    ap.add_argument(
        "--ids", nargs="+", metavar="ID", help="only these reproductions (e.g. R1 S3), not every one"
    )
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    ap.add_argument(
        "--drop-columns",
        nargs="+",
        default=[],
        metavar="COL",
        help="hash the scenarios' Parquet tables by content without these columns (an additive change)",
    )
    args = ap.parse_args()
    if args.compare:
        return compare(*args.compare)
    if args.out is None:
        ap.error("OUT.json is required")
    result: Dict[str, str] = {}
    if args.only != "reproductions":
        result.update(scenarios(args.scenario_dir, tuple(args.drop_columns)))
    if args.only != "scenarios":
        result.update(reproductions(args.jobs, args.ids))
    args.out.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    import obsim

    print(f"{len(result)} fingerprints -> {args.out} (obsim from {Path(obsim.__file__).parent})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
