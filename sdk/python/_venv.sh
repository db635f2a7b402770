# Sourced by regen.sh and check.sh: makes sure the shared SDK venv exists and holds exactly
# the pinned tools of requirements-dev.txt, then sets VENV and PY.
SDK_PY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SDK_PY_DIR/../.." && pwd)"
VENV="${DECKMATE_SDK_VENV:-$REPO_ROOT/target/sdk-venv}"
PY="$VENV/bin/python"
PINS="$SDK_PY_DIR/requirements-dev.txt"
STAMP="$VENV/.deckmate-python-pins"
if [ ! -x "$PY" ] || ! cmp -s "$PINS" "$STAMP"; then
  echo "setting up $VENV" >&2
  python3 -m venv "$VENV"
  "$PY" -m pip install --quiet --disable-pip-version-check -r "$PINS"
  cp "$PINS" "$STAMP"
fi
