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
