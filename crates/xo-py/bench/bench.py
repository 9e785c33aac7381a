#!/usr/bin/env python3
"""xo from Python, measured (not run by CI; the README's Python section quotes its output).

1. 10^6 tic-tac-toe positions (every position of random games, seeded) answered through
   `xo.solve_many` against a plain pure-Python memoised solver of the same positions, written in
   the style of the seed's Python baseline (crates/xo-cli/benches/ttt_count.py: grids as strings,
   `functools.lru_cache`): value, remoteness and every move's value and remoteness, the report
   `xo.solve` gives. Every distinct answer of the two is asserted equal first.
2. The cost of one `xo.solve` call on a small position against one `xo solve --json` process
   (spawned, its JSON parsed), the way Python used xo before the package.

Medians of several runs; the machine is shared, so the ratios are what counts.

    python crates/xo-py/bench/bench.py [--positions N] [--runs R] [--xo target/release/xo]
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import time
from functools import lru_cache

import xo

LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)


def winner(grid):
    for a, b, c in LINES:
        if grid[a] != "." and grid[a] == grid[b] == grid[c]:
            return grid[a]
    return None


def to_move(grid):
    return "X" if grid.count("X") == grid.count("O") else "O"


NEGATE = {"win": "loss", "loss": "win", "draw": "draw"}
RANK = {"loss": 0, "draw": 1, "win": 2}


@lru_cache(maxsize=None)
def score(grid):
    """(value for the player to move, plies to the end under perfect play), memoised."""
    if winner(grid) is not None:
        return ("loss", 0)
    if "." not in grid:
        return ("draw", 0)
    best = None
    mark = to_move(grid)
    for i in range(9):
        if grid[i] == ".":
            v, r = score(grid[:i] + mark + grid[i + 1:])
            mine = (NEGATE[v], r + 1)
            if best is None or better(mine, best):
                best = mine
    return best


def better(a, b):
    """The best move's rule: the better value, then the quickest win, the longest draw or loss."""
    if RANK[a[0]] != RANK[b[0]]:
        return RANK[a[0]] > RANK[b[0]]
    return a[1] < b[1] if a[0] == "win" else a[1] > b[1]


def analyse(grid):
    """What `xo.solve` reports: value, remoteness, and every move's value and remoteness."""
    value, remoteness = score(grid)
    moves = []
    if winner(grid) is None:
        mark = to_move(grid)
        for i in range(9):
            if grid[i] == ".":
                v, r = score(grid[:i] + mark + grid[i + 1:])
                moves.append((str(i + 1), NEGATE[v], r + 1))
    return value, remoteness, moves


def random_positions(n, seed):
    """Every position of random games from the empty grid (the finished ones included)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        grid = "." * 9
        out.append(grid)
        while winner(grid) is None and "." in grid and len(out) < n:
            i = rng.choice([i for i in range(9) if grid[i] == "."])
            grid = grid[:i] + to_move(grid) + grid[i + 1:]
            out.append(grid)
    return out


def median_time(f, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times), times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=10**6)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--processes", type=int, default=200)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--xo", default=os.path.join(here, "..", "..", "..", "target", "release", "xo"))
    a = ap.parse_args()

    positions = random_positions(a.positions, 2026)
    distinct = sorted(set(positions))
    print(f"{len(positions)} tic-tac-toe positions ({len(distinct)} distinct), cores: {xo.CORES}")

    # The two agree on every distinct position.
    for r, grid in zip(xo.solve_many("tictactoe", distinct), distinct):
        value, remoteness, moves = analyse(grid)
        got = [(m.move, m.value, m.remoteness) for m in r.moves]
        assert (r.value, r.remoteness, got) == (value, remoteness, moves), grid
    print("answers equal on every distinct position")

    def python_run():
        score.cache_clear()
        return [analyse(g) for g in positions]

    def xo_run():
        return xo.solve_many("tictactoe", positions)

    def python_values():
        score.cache_clear()
        return [score(g)[0] for g in positions]

    def xo_values():
        return xo.solve_many("tictactoe", positions, value_only=True)

    py, py_all = median_time(python_run, a.runs)
    x, x_all = median_time(xo_run, a.runs)
    print(f"full report  python memoised {py:.3f} s  xo.solve_many {x:.3f} s  ratio {py / x:.1f}x"
          f"  (runs: {[round(t, 3) for t in py_all]} / {[round(t, 3) for t in x_all]})")
    pv, _ = median_time(python_values, a.runs)
    xv, _ = median_time(xo_values, a.runs)
    print(f"value only   python memoised {pv:.3f} s  xo.solve_many {xv:.3f} s  ratio {pv / xv:.1f}x")

    # One call on a small position, against a process and its JSON.
    small = "XX.OO...."
    xo.solve("tictactoe", small)
    per_call = []
    for _ in range(7):
        t = time.perf_counter()
        for _ in range(a.calls):
            xo.solve("tictactoe", small)
        per_call.append((time.perf_counter() - t) / a.calls)
    call = statistics.median(per_call)
    spawn = []
    for _ in range(a.processes):
        t = time.perf_counter()
        out = subprocess.run([a.xo, "solve", "tictactoe", small, "--json"],
                             capture_output=True, check=True).stdout
        json.loads(out)
        spawn.append(time.perf_counter() - t)
    process = statistics.median(spawn)
    assert json.loads(out) == xo.solve("tictactoe", small).to_dict()
    print(f"one solve of {small}: xo.solve {call * 1e6:.1f} us per call (everything: request, "
          f"engine, report, result object)  process + JSON {process * 1e3:.2f} ms  "
          f"ratio {process / call:.0f}x")


if __name__ == "__main__":
    main()
