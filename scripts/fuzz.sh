#!/usr/bin/env bash
# Builds the fuzz crates and runs every fuzz target for SECONDS each (default 30), two at a
# time, from seed corpora made at run time (scripts/fuzz-seeds.py); prints each target's
# executions and fails when a target crashes (docs/RELIABILITY.md, "Fuzzing").
#
#   scripts/fuzz.sh [SECONDS]
#   scripts/fuzz.sh --build     # only build the fuzz crates
#
# The targets are libFuzzer programs (libfuzzer-sys) built by plain cargo with the coverage
# instrumentation libFuzzer reads, so only a stable toolchain and a C++ compiler are needed: no
# cargo subcommand to install, no nightly. Without a nightly there is no AddressSanitizer either
# (Rust code is memory-safe; the fuzzers look for panics, aborts and endless loops). Crashing
# inputs are kept in service/*/fuzz/artifacts/<target>/; the target's program, run with the
# input as its argument, reproduces the crash.
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=false
if [ "${1:-}" = "--build" ]; then
  build_only=true
fi
seconds="${1:-30}"

# One target directory for both fuzz crates (they share the engine), apart from the workspace's.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/fuzz"
# An explicit --target keeps the flags below off build scripts and procedural macros, which
# run in the compiler rather than under libFuzzer.
triple=$(rustc -vV | sed -n 's/^host: //p')
# What libFuzzer needs from the code it runs: edge counters and their table, comparison
# tracing (to solve the magic values of a protocol), the stack depth, and `cfg(fuzzing)`.
# Branch folding stays off so that each branch keeps an edge of its own. The release profile of
# each fuzz crate sets the optimisation levels (service/*/fuzz/Cargo.toml).
export RUSTFLAGS="-Cpasses=sancov-module \
  -Cllvm-args=-sanitizer-coverage-level=4 \
  -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
  -Cllvm-args=-sanitizer-coverage-pc-table \
  -Cllvm-args=-sanitizer-coverage-trace-compares \
  -Cllvm-args=-sanitizer-coverage-stack-depth \
  -Cllvm-args=-simplifycfg-branch-fold-threshold=0 \
  --cfg fuzzing ${RUSTFLAGS:-}"
declare -A crate_of=(
  [apply_actions]=service/engine/fuzz
  [decode_request]=service/server/fuzz
  [decode_record]=service/server/fuzz
  [grpc_web_frame]=service/server/fuzz
)
targets=(apply_actions decode_request decode_record grpc_web_frame)

for crate in service/engine/fuzz service/server/fuzz; do
  cargo build --locked --release --bins --target "$triple" --manifest-path "$crate/Cargo.toml"
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
  local artifacts="${crate_of[$target]}/artifacts/$target/"
  mkdir -p "$artifacts"
  "$CARGO_TARGET_DIR/$triple/release/$target" "$corpus/$target" -artifact_prefix="$artifacts" \
    -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 -timeout=10 \
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
