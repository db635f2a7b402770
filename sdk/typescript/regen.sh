#!/usr/bin/env bash
# Regenerates src/gen from the API protos (proto/) and the google.rpc error protos (sdk/proto/)
# with the locally installed protoc-gen-es and `buf` from PATH (PyPI package `buf-bin`).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$here"
if [ ! -d node_modules ]; then
  npm ci --no-audit --no-fund
fi
if ! command -v buf >/dev/null; then
  echo "regen.sh: buf not found on PATH; install it with: pip install buf-bin" >&2
  exit 1
fi
rm -rf src/gen
buf generate "$repo/proto" --template buf.gen.yaml
buf generate "$repo/sdk/proto" --template buf.gen.yaml
