#!/usr/bin/env bash
# Regenerates src/deckmate/_generated from proto/deckmate/v1/**/*.proto with the pinned
# grpcio-tools and mypy-protobuf, rewriting imports so the modules live inside
# deckmate._generated. Stale files are deleted first; the output is reproducible.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
OUT="$SDK_PY_DIR/src/deckmate/_generated"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

cd "$REPO_ROOT/proto"
mapfile -t PROTOS < <(find deckmate/v1 -name '*.proto' | LC_ALL=C sort)
# Runs protoc quietly (mypy-protobuf reports every file it writes), showing output on failure.
protoc() {
  local log
  if ! log="$(PATH="$VENV/bin:$PATH" "$PY" -m grpc_tools.protoc -I . "$@" 2>&1)"; then
    echo "$log" >&2
    exit 1
  fi
}
protoc --python_out="$TMP" --mypy_out="$TMP" "${PROTOS[@]}"
protoc --grpc_python_out="$TMP" --mypy_grpc_out="$TMP" deckmate/v1/game_service.proto
# Only game_service.proto has a service; the other services files would be empty.
find "$TMP" -name '*_grpc.py*' ! -name 'game_service_pb2_grpc.*' -delete

rm -rf "$OUT"
mkdir -p "$OUT"
cp -r "$TMP/deckmate/v1" "$OUT/v1"
# Imports and module names: deckmate.v1 -> deckmate._generated.v1 (descriptor bytes and RPC
# method paths keep the proto package name).
find "$OUT" -type f \( -name '*.py' -o -name '*.pyi' \) -print0 | xargs -0 sed -i -E \
  -e 's/^(from|import) deckmate\.v1/\1 deckmate._generated.v1/' \
  -e "s/^(_builder\.BuildTopDescriptorsAndMessages\(DESCRIPTOR, )'deckmate\.v1\./\1'deckmate._generated.v1./"
for dir in "$OUT" "$OUT/v1" "$OUT/v1/games"; do
  echo '"""Generated protobuf and gRPC modules (private; use deckmate.pb)."""' > "$dir/__init__.py"
done
# One module importing every generated message module, so that a new game's messages reach
# `deckmate.pb` without a hand edit.
{
  echo '"""Every generated message module, re-exported (written by regen.sh; do not edit)."""'
  echo
  (cd "$OUT" && find v1 -name '*_pb2.py' | LC_ALL=C sort) | while read -r file; do
    module="${file%.py}"
    echo "from deckmate._generated.${module//\//.} import *  # noqa: F403"
  done
} > "$OUT/messages.py"
echo "regenerated $OUT" >&2
