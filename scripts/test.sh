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

# The report test renders report.html in headless Chromium: install Debian's
# package if it is missing and we can (root with apt-get); otherwise that one
# test is skipped with a reason.
if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "==> installing chromium (for the report rendering test)"
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; } >/dev/null 2>&1 \
        || echo "    chromium could not be installed: the rendering test will be skipped"
fi

# The differential test against ns-2.35 (tests/test_ns2_diff.py, marker
# ns2) needs the `ns` command: install Debian's ns2 package if it is missing
# and we can (root with apt-get), as for Chromium; otherwise that group is
# skipped with a reason.
if ! command -v ns >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "==> installing ns2 (ns-2.35, for the differential test against ns-2)"
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ns2; } >/dev/null 2>&1 \
        || echo "    ns2 could not be installed: the ns-2 differential tests will be skipped"
fi

# obsim emulate's tests (tests/test_emulate.py) create network namespaces
# with iproute2's `ip`: install it if it is missing and we can; without
# root they are skipped with the command's own reason.
if ! command -v ip >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "==> installing iproute2 (for the obsim emulate tests)"
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q iproute2; } >/dev/null 2>&1 \
        || echo "    iproute2 could not be installed: the emulate tests will be skipped"
fi

echo "==> pytest (Python package, CLI, end to end)"
python -m pytest "$@" || status=1

if [ "$status" -ne 0 ]; then
    echo "==> FAILED" >&2
fi
exit "$status"
