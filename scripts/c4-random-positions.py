#!/usr/bin/env python3
"""Times the one-second promise of issue #19 on random Connect Four positions.

Draws N random 7x6 positions of 0-12 stones (random legal moves from the empty board, never a
finished game; a fixed seed, so every run times the same positions), runs the whole command
`xo solve connect4 --moves M --json` on each (every move's score included, with the book xo
ships) and prints each wall time, how many finished within a second, the median and the
slowest. Every answer is checked to hold a score for each playable column.

    scripts/c4-random-positions.py target/release/xo [N=30] [SEED=19]
"""

import json
import random
import statistics
import subprocess
import sys
import time

WIDTH, HEIGHT = 7, 6


def wins(grid, col, row, player):
    """Whether the stone of `player` at (col, row) completes four in a row."""
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while 0 <= c < WIDTH and 0 <= r < HEIGHT and grid[c][r] == player:
                count += 1
                c, r = c + sign * dc, r + sign * dr
        if count >= 4:
            return True
    return False


def random_position(rng, stones):
    """Columns (1-based digits) of a random game of `stones` stones that nobody has won yet."""
    while True:
        grid = [[] for _ in range(WIDTH)]
        moves = []
        for ply in range(stones):
            col = rng.choice([c for c in range(WIDTH) if len(grid[c]) < HEIGHT])
            grid[col].append(ply % 2)
            padded = [g + [None] * (HEIGHT - len(g)) for g in grid]
            if wins(padded, col, len(grid[col]) - 1, ply % 2):
                break
            moves.append(str(col + 1))
        if len(moves) == stones:
            return "".join(moves)


def main():
    xo = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 19)
    times = []
    for _ in range(n):
        moves = random_position(rng, rng.randint(0, 12))
        args = [xo, "solve", "connect4", "--json"] + (["--moves", moves] if moves else [])
        start = time.monotonic()
        out = subprocess.run(args, capture_output=True, text=True)
        took = time.monotonic() - start
        if out.returncode != 0:
            sys.exit(f"{moves or '(empty)'}: exit {out.returncode}: {out.stderr.strip()}")
        report = json.loads(out.stdout)
        playable = sum(1 for c in range(WIDTH) if moves.count(str(c + 1)) < HEIGHT)
        scored = [m for m in report.get("moves", []) if m.get("value") is not None]
        if len(scored) != playable:
            sys.exit(f"{moves or '(empty)'}: {len(scored)} moves scored of {playable}")
        times.append(took)
        print(f"{len(moves):2} stones  {moves or '(empty)':<12}  {took:7.3f} s  {report['value']}")
    within = sum(1 for t in times if t <= 1.0)
    print(
        f"{within} of {n} within 1 s; median {statistics.median(times):.3f} s, "
        f"slowest {max(times):.3f} s"
    )


if __name__ == "__main__":
    main()
