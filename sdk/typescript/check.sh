#!/usr/bin/env bash
# Everything CI checks for the TypeScript SDK: a clean install from the lock file, the build,
# the type check of the tests, generated code matching the protos (when `buf` is on PATH), and
# the test suite against a live server (DECKMATE_SERVER_BIN, else target/release/deckmate-server).
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
npm run build
npx tsc -p tsconfig.test.json --noEmit
if command -v buf >/dev/null; then
  ./regen.sh
  if ! git diff --quiet -- src/gen || [ -n "$(git ls-files --others --exclude-standard -- src/gen)" ]; then
    echo "check.sh: src/gen is stale; run ./regen.sh and commit the result" >&2
    git status --short -- src/gen >&2
    exit 1
  fi
else
  echo "check.sh: buf not on PATH (pip install buf-bin); skipping the generated-code check" >&2
fi
npm test
