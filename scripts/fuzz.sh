#!/usr/bin/env bash
# Builds the fuzz crates and runs every fuzz target for SECONDS each (default 30), two at a
# time, from seed corpora made at run time (scripts/fuzz-seeds.py); prints each target's
# executions and fails when a target crashes (docs/RELIABILITY.md, "Fuzzing").
#
#   scripts/fuzz.sh [SECONDS]
#   scripts/fuzz.sh --build     # only install cargo-fuzz and build the fuzz crates
#
# Only a stable toolchain is needed: RUSTC_BOOTSTRAP=1 lets cargo-fuzz pass its unstable flags,
# and without a nightly there is no AddressSanitizer, so targets build with `--sanitizer none`
# (Rust code is memory-safe; the fuzzers look for panics, aborts and endless loops). Builds are
# optimised (`-O`). Crashing inputs are kept in service/*/fuzz/artifacts/<target>/ and
# reproduce with `cargo fuzz run -O --sanitizer none <target> <input>` in that crate.
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=false
if [ "${1:-}" = "--build" ]; then
  build_only=true
fi
seconds="${1:-30}"

if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
export RUSTC_BOOTSTRAP=1
# One target directory for both fuzz crates (they share the engine), apart from the workspace's.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/fuzz"
fuzz=(cargo fuzz)
flags=(-O --sanitizer none --codegen-units 16)
declare -A crate_of=(
  [apply_actions]=service/engine/fuzz
  [decode_request]=service/server/fuzz
  [decode_record]=service/server/fuzz
  [grpc_web_frame]=service/server/fuzz
)
targets=(apply_actions decode_request decode_record grpc_web_frame)

for crate in service/engine/fuzz service/server/fuzz; do
  (cd "$crate" && "${fuzz[@]}" build "${flags[@]}")
done
if [ "$build_only" = true ]; then
  exit 0
fi

corpus="$CARGO_TARGET_DIR/corpus"
logs="$CARGO_TARGET_DIR/logs"
mkdir -p "$logs"
python3 scripts/fuzz-seeds.py "$corpus"

# Runs one target; its libFuzzer output goes to its log.
run() {
  local target=$1
  (cd "${crate_of[$target]}" && "${fuzz[@]}" run "${flags[@]}" "$target" "$corpus/$target" -- \
    -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 -timeout=10) \
    >"$logs/$target.log" 2>&1
}

# Two at a time: the machines this runs on have two cores.
declare -A status
for pair in "apply_actions decode_record" "decode_request grpc_web_frame"; do
  read -r first second <<<"$pair"
  run "$first" & first_pid=$!
  run "$second" & second_pid=$!
  status[$first]=0; wait "$first_pid" || status[$first]=$?
  status[$second]=0; wait "$second_pid" || status[$second]=$?
done

failed=0
total=0
printf '%-16s %14s  %s\n' target executions result
for target in "${targets[@]}"; do
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$target.log" | tail -1)
  executions=${executions:-0}
  total=$((total + executions))
  if [ "${status[$target]}" -eq 0 ]; then
    result=ok
  else
    result="FAILED (exit ${status[$target]}; see $logs/$target.log)"
    failed=1
  fi
  printf '%-16s %14s  %s\n' "$target" "$executions" "$result"
done
printf '%-16s %14s\n' total "$total"
if [ "$failed" -ne 0 ]; then
  for target in "${targets[@]}"; do
    [ "${status[$target]}" -eq 0 ] || grep -m1 -A6 'panicked at\|ERROR: libFuzzer' "$logs/$target.log" || true
  done
  exit 1
fi
