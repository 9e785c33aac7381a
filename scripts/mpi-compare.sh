#!/usr/bin/env bash
# The distributed strong solve against the single-process one on one machine: wall times (whole
# commands, mpirun's start-up included) and a byte-for-byte comparison of every tier file.
#
#   scripts/mpi-compare.sh GAME [RUNS]        e.g. scripts/mpi-compare.sh connect:5,4,4 1
#
# Builds xo with --features mpi; runs the single-process solve, then `mpirun -np 1` (not bound
# to a core, so its threads use every core) and `mpirun -np 2`, RUNS times each in turn (default
# 3), into folders under ${XO_MPI_SCRATCH:-/tmp}; prints each time, the medians, the ratio of
# -np 2 to the single process, and rank 0's bytes exchanged per tier.
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?usage: scripts/mpi-compare.sh GAME [RUNS]}
runs=${2:-3}
scratch=${XO_MPI_SCRATCH:-/tmp}/xo-mpi-compare-$$
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}
cargo build --release -q -p xo-cli --features mpi
xo=$CARGO_TARGET_DIR/release/xo
mpi=(mpirun --allow-run-as-root --oversubscribe)
mkdir -p "$scratch"
trap 'rm -rf "$scratch"' EXIT
declare -A times
timed() { # label, command...
  local label=$1 start end
  shift
  rm -rf "$scratch/$label"
  start=$(date +%s.%N)
  "$@" --strong --db "$scratch/$label" --timeout 100000 --memory-mib 16384 \
    >"$scratch/$label.out" 2>"$scratch/$label.err"
  end=$(date +%s.%N)
  local t
  t=$(echo "$end - $start" | bc)
  times[$label]="${times[$label]:-} $t"
  echo "$label: $t s"
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for run in $(seq "$runs"); do
  timed single "$xo" solve "$game"
  timed np1 "${mpi[@]}" --bind-to none -np 1 "$xo" solve "$game" --distributed
  timed np2 "${mpi[@]}" -np 2 "$xo" solve "$game" --distributed
  for label in np1 np2; do
    for f in "$scratch"/single/tier-*.xot; do
      cmp -s "$f" "$scratch/$label/$(basename "$f")" || { echo "DIFFERENT: $label $(basename "$f")"; exit 1; }
    done
    [ "$(ls "$scratch/$label" | wc -l)" = "$(ls "$scratch/single" | wc -l)" ] || { echo "DIFFERENT: $label file count"; exit 1; }
  done
  echo "run $run: every tier file identical"
done
s=$(echo "${times[single]}" | median); one=$(echo "${times[np1]}" | median); two=$(echo "${times[np2]}" | median)
echo "$game medians of $runs: single $s s, -np 1 $one s ($(echo "scale=2; $one / $s" | bc)x), -np 2 $two s ($(echo "scale=2; $two / $s" | bc)x)"
cat "$scratch/single.out"
echo "-np 2, rank 0:"
cat "$scratch/np2.out"
grep '^xo: tier' "$scratch/np2.err"
