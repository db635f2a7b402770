#!/usr/bin/env bash
# Scaffolds a new game: everything a game needs, and nothing else (docs/ARCHITECTURE.md §8).
#
#   scripts/new-game.sh <id>             writes the new game into this checkout
#   scripts/new-game.sh <id> --dry-run   the same in a throw-away worktree of HEAD: builds it, runs
#                                        the generic suites over the new game (the registry and
#                                        codec suites over every game), prints the size of the
#                                        change, and removes the worktree
#
# <id> is the game id in snake_case (`demo`, `tile_chess`). The scaffold is a small complete game
# (a counting game, rules in docs/rules/<id>.md) for the real rules to replace. What it writes:
#   service/engine/src/games/<id>/mod.rs           the game (engine)
#   service/engine/tests/golden/<id>/              its golden playthroughs (generated)
#   proto/deckmate/v1/games/<id>.proto             its messages
#   service/server/src/codec/<id>.rs               its proto <-> engine mapping
#   docs/rules/<id>.md                             its rules
# and one line in each registry: the engine's games/mod.rs, the server's codec/mod.rs, and the
# import plus the four oneofs of proto/deckmate/v1/game_service.proto.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
templates="$here/new-game"

usage() { echo "usage: scripts/new-game.sh <id> [--dry-run]" >&2; exit 2; }
[ $# -ge 1 ] || usage
id="$1"
mode="${2:-write}"
case "$mode" in write | --dry-run) ;; *) usage ;; esac
[[ "$id" =~ ^[a-z][a-z0-9]*(_[a-z0-9]+)*$ ]] || { echo "the id must be snake_case: $id" >&2; exit 2; }

if [ "$mode" = "--dry-run" ]; then
  scratch="$(mktemp -d)"
  trap 'git -C "$root" worktree remove --force "$scratch/tree" >/dev/null 2>&1 || true; rm -rf "$scratch"' EXIT
  git -C "$root" worktree add --detach --quiet "$scratch/tree" HEAD
  # Reuse this checkout's build of the dependencies.
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
  "$scratch/tree/scripts/new-game.sh" "$id"
  cd "$scratch/tree"
  echo "==> generic suites with $id"
  DECKMATE_UPDATE_GOLDEN=1 cargo test --locked -q -p deckmate-engine --test golden
  # The other games' conformance is the test step's; here the new game's alone.
  DECKMATE_CONFORMANCE_GAMES="$id" cargo test --locked -q -p deckmate-engine --test conformance --test citations --test registry
  cargo test --locked -q -p deckmate-server --lib codec::
  cargo test --locked -q -p deckmate-server --test api games::
  cargo clippy --locked -q -p deckmate-engine -p deckmate-server --all-targets -- -D warnings
  (cd proto && buf lint && buf breaking --against baseline/deckmate-v1.binpb)
  echo "==> the SDKs' generated code with $id"
  # Reuse this checkout's tool installs (the SDK venv and the TypeScript node_modules).
  export DECKMATE_SDK_VENV="${DECKMATE_SDK_VENV:-$root/target/sdk-venv}"
  if [ -d "$root/sdk/typescript/node_modules" ]; then
    ln -s "$root/sdk/typescript/node_modules" sdk/typescript/node_modules
  fi
  sdk/regen.sh
  config="$(python3 -c 'import sys; print("".join(p.title() for p in sys.argv[1].split("_")) + "Config")' "$id")"
  (cd sdk/typescript && npx tsc -p tsconfig.json --noEmit)
  "$DECKMATE_SDK_VENV/bin/python" -c "import sys; sys.path.insert(0, 'sdk/python/src'); from deckmate import pb; pb.$config()"
  grep -q "${config}Schema" sdk/typescript/src/gen/deckmate/v1/games/"${id}"_pb.ts
  echo "==> the change a new game makes"
  git add --intent-to-add --all
  git diff --stat
  exit 0
fi

cd "$root"
[ ! -e "service/engine/src/games/$id" ] || { echo "a game $id exists already" >&2; exit 1; }
python3 "$templates/scaffold.py" "$root" "$id"
echo "scaffolded $id: implement its rules, then regenerate its golden playthroughs with"
echo "  DECKMATE_UPDATE_GOLDEN=1 cargo test -p deckmate-engine --test golden"
echo "and the SDKs' generated code with"
echo "  sdk/regen.sh"
