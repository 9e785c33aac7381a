"""The three judge formats' samples (crates/xo-cli/samples), answered through the Python API:
ttt-count by `check` and `count`, lol by `solve`'s value, treblecross by `solve(winning=True)`.
The outputs must be the samples' expected outputs, line for line."""

import xo
from conftest import SAMPLES


def cases(name):
    lines = (SAMPLES / f"{name}.sample.in").read_text().splitlines()
    n = int(lines[0])
    return lines[1:1 + n], (SAMPLES / f"{name}.sample.out").read_text()


def test_ttt_count_sample():
    grids, expected = cases("ttt-count")
    out = []
    for grid in grids:
        if xo.check("tictactoe", grid).reachable:
            c = xo.count("tictactoe", grid)
            out.append(f"{c.first_player_wins} {c.second_player_wins}\n")
        else:
            out.append("-1 -1\n")
    assert "".join(out) == expected


def test_lol_sample():
    strips, expected = cases("lol")
    numbers = {"win": "1", "draw": "0", "loss": "-1"}
    out = "".join(numbers[xo.solve("lol", s, value_only=True).value] + "\n" for s in strips)
    assert out == expected


def test_treblecross_sample():
    strips, expected = cases("treblecross")
    out = []
    for strip in strips:
        r = xo.solve("treblecross", strip, winning=True)
        out.append("WINNING\n" if r.value == "win" else "LOSING\n")
        out.append(" ".join(m.move for m in r.moves) + "\n")
    assert "".join(out) == expected


def test_solve_many_answers_the_lol_sample_alike():
    strips, expected = cases("lol")
    numbers = {"win": "1", "draw": "0", "loss": "-1"}
    # lol strips of different lengths are different games: solve_many takes one game each.
    for strip, line in zip(strips, expected.splitlines()):
        (r,) = xo.solve_many(f"lol:{len(strip)}", [strip], value_only=True)
        assert numbers[r.value] == line
