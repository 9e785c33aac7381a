#!/usr/bin/env python3
"""The cost model of the distributed strong solve (docs/mpi.md).

Tier sizes are `Tier::len`: C(cells, t) * C(t, ceil(t/2)) positions for own marks (every
arrangement of t marks, X having the extra one). Rates and message volumes are the measured ones
of this machine, passed on the command line so the table can be redone with new measurements:

  scripts/mpi-cost-model.py --rate 2.6e6 --measured-children 4.2 --children-ratio 0.106
"""
import argparse
from math import comb

ROUND_BYTES = 96 << 20  # crates/xo-cli/src/distributed.rs


def tiers(cells):
    return [comb(cells, t) * comb(t, (t + 1) // 2) for t in range(cells + 1)]


def model(name, cells, ranks, threads, a):
    ts = tiers(cells)
    positions = sum(ts)
    # Children read per position: the empty cells, over the positions whose game goes on (about
    # all but the fullest tiers); scaled from the measured board.
    reads = sum(n * (cells - t) for t, n in enumerate(ts))
    fetched_share = a.children_ratio * 2 * (ranks - 1) / ranks if ranks > 1 else 0.0
    exchanged = 10 * reads * min(1.0, fetched_share)  # 8-byte index + 2-byte record each
    rounds = sum(-(-(-(-n // ranks)) // (ROUND_BYTES // (8 * (cells - t) + 4))) for t, n in enumerate(ts))
    messages = rounds * 3 * (ranks - 1)  # per rank: three all-to-alls a round
    rate = a.rate * a.measured_children / (reads / positions)  # per core, scaled by children
    compute = positions / (rate * ranks * threads)
    network = exchanged / ranks / a.bandwidth
    io = 2 * 2 * positions / a.io  # rank 0 reads every part and writes every tier file
    memory = max(ts[t] + ts[t + 1] for t in range(cells)) * 2 / ranks
    return positions, exchanged, messages, memory, compute + network + io, compute, network, io


def human(x, unit=""):
    for p, s in [(1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")]:
        if x >= p:
            return f"{x / p:.1f} {s}{unit}"
    return f"{x:.0f} {unit}"


def duration(s):
    for d, u in [(365 * 86400, "years"), (86400, "days"), (3600, "h"), (60, "min")]:
        if s >= d:
            return f"{s / d:.1f} {u}"
    return f"{s:.0f} s"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rate", type=float, default=2.6e6, help="positions/s per core, measured")
    ap.add_argument("--measured-children", type=float, default=4.2,
                    help="children read per position on the measured board")
    ap.add_argument("--children-ratio", type=float, default=0.106,
                    help="records fetched per child read at -np 2, measured")
    ap.add_argument("--bandwidth", type=float, default=5e9, help="bytes/s a rank exchanges")
    ap.add_argument("--io", type=float, default=2e9, help="bytes/s rank 0 reads and writes")
    ap.add_argument("--threads", type=int, default=32, help="threads (cores) per rank")
    a = ap.parse_args()
    print("| board | ranks x threads | positions | bytes on disk | memory per rank | bytes exchanged | messages per rank | compute | network | rank 0 I/O | expected |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, cells in [("5x5, k=4 (mnk:5,5,4)", 25), ("7x6 Connect Four", 42)]:
        for ranks in [1, 8, 64, 512]:
            pos, ex, msg, mem, total, c, n, io = model(name, cells, ranks, a.threads, a)
            print(f"| {name} | {ranks} x {a.threads} | {pos:.3g} | {human(2 * pos, 'B')} | {human(mem, 'B')} | "
                  f"{human(ex, 'B')} | {msg:,} | {duration(c)} | {duration(n)} | {duration(io)} | {duration(total)} |")


if __name__ == "__main__":
    main()
