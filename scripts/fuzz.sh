#!/usr/bin/env bash
# Coverage-guided fuzzing (cargo-fuzz, libFuzzer) of every decoder of xo's files and inputs: tier
# files, opening books, stored nim-sequences, book journals, MPI part files, rules files and
# positions.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# runs each target (default: all) for SECONDS (default 30), as many at a time as there are cores,
# starting from the seeds committed in fuzz/seeds/TARGET plus what earlier runs found
# (fuzz/corpus/TARGET, not committed). A crash stops the script (and the other targets running)
# with the failing input in fuzz/artifacts/TARGET/; keep it as a regression case
# (crates/xo-store/tests/decoders_never_panic.rs) once fixed.
#
# Installs cargo-fuzz (a pinned version) from crates.io when missing. Runs on the stable toolchain:
# cargo-fuzz's -Z flags are allowed by RUSTC_BOOTSTRAP=1 (no nightly needed). The decoders are safe
# Rust, so the targets are built without AddressSanitizer (faster, and no sanitizer runtime needed)
# but with debug assertions (overflow checks).
#
# XO_FUZZ_SEED fixes libFuzzer's random seed (CI sets 1, so a run there is repeatable up to its
# time limit); unset, every run draws a new one.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-30}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(tier book sequence journal part rules position batch request)

# A pinned version, built with its own lock file: the same cargo-fuzz every run, installed once
# (it stays in cargo's bin folder) and reinstalled only if another version is found there.
fuzz_version=0.13.2
if [ "$(cargo fuzz --version 2>/dev/null)" != "cargo-fuzz $fuzz_version" ]; then
  cargo install cargo-fuzz --version "$fuzz_version" --locked
fi
export RUSTC_BOOTSTRAP=1

flags=(--fuzz-dir fuzz --sanitizer none --debug-assertions)
if [ "$#" -eq 0 ]; then
  cargo fuzz build "${flags[@]}" # every target, in one build
else
  for t in "${targets[@]}"; do
    cargo fuzz build "${flags[@]}" "$t"
  done
fi
# One target's run; its log in fuzz/artifacts/TARGET/last-run.log.
run_one() {
  local t=$1
  cargo fuzz run "${flags[@]}" "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
    -max_total_time="$seconds" -seed="${XO_FUZZ_SEED:-0}" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="fuzz/artifacts/$t/" -print_final_stats=1 >"fuzz/artifacts/$t/last-run.log" 2>&1
}
# As many targets at a time as there are cores (libFuzzer runs one thread each), then each
# one's result in turn.
jobs=$(nproc 2>/dev/null || echo 1)
for ((at = 0; at < ${#targets[@]}; at += jobs)); do
  batch=("${targets[@]:at:jobs}")
  pids=()
  for t in "${batch[@]}"; do
    mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
    echo "fuzz: $t for ${seconds} s"
    run_one "$t" &
    pids+=("$!")
  done
  for i in "${!batch[@]}"; do
    t=${batch[$i]}
    log="fuzz/artifacts/$t/last-run.log"
    status=0
    wait "${pids[$i]}" || status=$?
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)" "$log" | sed "s/^/fuzz: $t: /" || true
    if [ "$status" != 0 ]; then
      grep -E "panicked|SUMMARY|Test unit written|ERROR" "$log" >&2 || tail -20 "$log" >&2
      echo "fuzz: $t failed (status $status); the input is in fuzz/artifacts/$t/, the log in $log" >&2
      kill "${pids[@]}" 2>/dev/null || true
      wait || true
      exit 1
    fi
  done
done
echo "fuzz: every target ran ${seconds} s without a failure"
