#!/usr/bin/env bash
# Everything CI checks for the TypeScript SDK: a clean install from the lock file, the build,
# the type check of the tests, and the test suite against a live server (DECKMATE_SERVER_BIN,
# else target/release/deckmate-server). Whether src/gen matches the protos is checked for every
# SDK at once by running sdk/regen.sh (see .ci/run).
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
npm run build
npx tsc -p tsconfig.test.json --noEmit
npm test
