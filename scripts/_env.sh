# Shared by scripts/*.sh: create (once) and activate the project venv `.venv`,
# then build obsim's Rust extension in release mode into it together with the
# Python dependencies. Usage: `. scripts/_env.sh [EXTRAS]` from the repo root.
# Override the interpreter with PYTHON=/path/to/python3.
set -euo pipefail
_extras="${1:-}"
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    echo "==> creating .venv with $($PYTHON --version)"
    "$PYTHON" -m venv .venv
fi
# shellcheck disable=SC1091
. .venv/bin/activate
export PIP_DISABLE_PIP_VERSION_CHECK=1
python -m pip install --quiet 'maturin>=1.5,<2'
echo "==> building obsim (release) into .venv"
if [ -n "$_extras" ]; then
    maturin develop --release --extras "$_extras"
else
    maturin develop --release
fi
# Plain cargo commands after this (scripts/test.sh's `cargo test`) must see
# the PyO3 configuration maturin used, or cargo rebuilds pyo3 and the
# extension, and the next `maturin develop` rebuilds them again (PyO3 issue
# 1708: the build scripts rerun when PYO3_CONFIG_FILE changes).
_pyo3_cfg="$(ls -t "${CARGO_TARGET_DIR:-target}"/maturin/pyo3-config-*.txt 2>/dev/null | head -n 1 || true)"
if [ -n "$_pyo3_cfg" ]; then
    PYO3_CONFIG_FILE="$(cd "$(dirname "$_pyo3_cfg")" && pwd)/$(basename "$_pyo3_cfg")"
    export PYO3_CONFIG_FILE
fi
