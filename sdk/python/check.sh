#!/usr/bin/env bash
# The Python SDK's CI: pinned tools in the shared venv, a real (non-editable) install of the
# package, lint, format, strict typing, and the test suite against a live server
# (DECKMATE_SERVER_BIN, else <repo>/target/release/deckmate-server). Whether the generated code
# matches the protos is checked for every SDK at once by running sdk/regen.sh (see .ci/run).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
cd "$SDK_PY_DIR"
started=$SECONDS

echo "== install the package"
"$PY" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps .
"$PY" -m pip check --disable-pip-version-check >/dev/null
rm -rf build src/deckmate.egg-info
(cd / && "$PY" -c 'import deckmate, sys; assert "site-packages" in deckmate.__file__, deckmate.__file__')

echo "== ruff and mypy"
"$VENV/bin/ruff" check src tests examples
"$VENV/bin/ruff" format --check src tests examples
"$VENV/bin/mypy" --strict src tests examples

echo "== tests"
"$VENV/bin/pytest" -q -p no:cacheprovider tests
echo "check.sh passed in $((SECONDS - started)) s"
