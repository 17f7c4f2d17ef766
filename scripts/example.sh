#!/usr/bin/env bash
# Installs obsim into ./.venv and runs the example scenario, writing results to
# out/dumbbell (Parquet tables, meta.json, timing.json).
# Usage: scripts/example.sh [SCENARIO] [extra `obsim run` options]
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/_env.sh

scenario="${1:-scenarios/dumbbell.toml}"
shift || true
if [ ! -f "$scenario" ]; then
    echo "error: scenario $scenario not found (give another: scripts/example.sh FILE)" >&2
    exit 2
fi
out="out/$(basename "${scenario%.*}")"
echo "==> obsim run $scenario --out $out $*"
obsim run "$scenario" --out "$out" "$@"
