#!/usr/bin/env bash
# Regenerates every SDK's committed generated code from the protos in proto/ (and the
# google.rpc protos in sdk/proto/). The Rust SDK needs nothing here: its code is generated at
# build time. CI runs this and fails when it changes any file: a proto change regenerates every
# SDK in the same commit.
set -euo pipefail
cd "$(dirname "$0")/.."
sdk/python/regen.sh
sdk/typescript/regen.sh
