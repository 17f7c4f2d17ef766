"""Writes every shipped scenario file, scenarios/*.toml, from its builder in
obsim.topologies and its comments (obsim.scenario_files): one source of
truth per topology. tests/test_scenario_files.py checks that the committed
files are exactly what this writes; run it after changing a builder or a
comment, and check that `obsim.parse` of each changed file is unchanged
unless you meant to change the scenario:

    python scripts/core_scenarios.py            # write them
    python scripts/core_scenarios.py --check    # list the files that differ
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from obsim import scenario_files

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file differs")
    args = ap.parse_args()
    directory = ROOT / "scenarios"
    if args.check:
        stale = [
            f.file
            for f in scenario_files.SHIPPED
            if (directory / f.file).read_text(encoding="utf-8") != scenario_files.render(f)
        ]
        for name in stale:
            print(f"differs from its builder: scenarios/{name}")
        return 1 if stale else 0
    for path in scenario_files.write_all(directory):
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
