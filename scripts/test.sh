#!/usr/bin/env bash
# Installs everything obsim needs into ./.venv (Rust toolchain assumed), then
# runs the Rust tests (cargo test) and the Python tests (pytest).
# Extra arguments go to pytest, e.g. `scripts/test.sh -k cli`.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/_env.sh test

status=0
echo "==> cargo test (Rust core)"
# Release mode: the validation tests simulate hours of TCP; the release
# build is shared with the extension maturin just built.
cargo test --workspace --release || status=1

echo "==> pytest (Python package, CLI, end to end)"
python -m pytest "$@" || status=1

if [ "$status" -ne 0 ]; then
    echo "==> FAILED" >&2
fi
exit "$status"
