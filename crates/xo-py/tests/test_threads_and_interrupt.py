"""Many positions at once (solve_many: the GIL released, every core), Python threads asking at
once, and Ctrl-C stopping a long solve."""

import os
import random
import signal
import subprocess
import sys
import threading
import time

import xo
from conftest import ROOT


def random_positions(game, count, seed):
    """Positions of random games (every ply from the empty board to the end)."""
    rng = random.Random(seed)
    g = xo.Game(game)
    out = []
    while len(out) < count:
        pos = g.empty()
        while not g.is_over(pos) and len(out) < count:
            out.append(pos)
            pos = g.play(pos, rng.choice(g.legal_moves(pos)))
    return out


def test_solve_many_equals_solve_one_by_one():
    positions = random_positions("mnk:4,3,3", 200, 1)
    many = xo.solve_many("mnk:4,3,3", positions)
    assert [r.to_dict() for r in many] == [xo.solve("mnk:4,3,3", p).to_dict() for p in positions]
    one = xo.solve_many("mnk:4,3,3", positions, threads=1, winning=True)
    assert [r.to_dict() for r in one] == [
        xo.solve("mnk:4,3,3", p, winning=True).to_dict() for p in positions
    ]


def test_solve_many_answers_a_text_once():
    rs = xo.solve_many("tictactoe", ["XX.OO....", ".........", "XX.OO...."])
    assert rs[0] is rs[2] and rs[0].value == "win" and rs[1].value == "draw"
    assert xo.solve_many("tictactoe", []) == []


def test_solve_many_on_gravity_and_octal_games():
    positions = ["." * 16, "." * 12 + "X...", "." * 12 + "XO.."]
    many = xo.solve_many("connect:4,4,3", positions)
    assert [r.to_dict() for r in many] == [xo.solve("connect:4,4,3", p).to_dict() for p in positions]
    heaps = ["1 2 3", "10", "7 7", "30"]
    assert [r.nim_sum for r in xo.solve_many("kayles", heaps)] == [
        xo.solve("kayles", h).nim_sum for h in heaps
    ]


def test_the_gil_is_released_while_solving():
    # A Python thread keeps counting while a solve of a second or so runs.
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)  # a tick a millisecond: what is counted, not a wait

    t = threading.Thread(target=count)
    t.start()
    started = time.perf_counter()
    xo.solve("mnk:4,4,4", value_only=True)
    xo.solve_many("mnk:4,4,3", random_positions("mnk:4,4,3", 300, 2))
    elapsed = time.perf_counter() - started
    done.set()
    t.join()
    assert len(ticks) > elapsed * 100, (len(ticks), elapsed)


def test_python_threads_ask_at_once():
    from concurrent.futures import ThreadPoolExecutor

    positions = random_positions("tictactoe", 100, 3)
    expected = [xo.solve("tictactoe", p).to_dict() for p in positions]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda p: xo.solve("tictactoe", p).to_dict(), positions))
    assert got == expected


def as_at_a_terminal():
    """Gives the child the default SIGINT disposition, as an interpreter started at a terminal has:
    one started with SIGINT ignored (as a job started in the background by a shell without job
    control is, and all it starts) never installs its KeyboardInterrupt handler, whatever xo does."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt(code, after=1.0):
    """Runs `code` in a fresh interpreter, sends it SIGINT once it says it is solving, and
    returns (seconds from the signal to its end, exit status, standard error)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=env, cwd=ROOT, preexec_fn=as_at_a_terminal,
    )
    assert p.stdout.readline().strip() == "solving"
    # Readiness is the line above; this sleep, on purpose, lets the solve run a while (it runs
    # far longer) so that the signal lands inside the engine, not before it is entered.
    time.sleep(after)
    assert p.poll() is None, "the solve ended before the signal"
    sent = time.perf_counter()
    p.send_signal(signal.SIGINT)
    try:
        _, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        raise AssertionError("Ctrl-C did not stop the solve within 10 s")
    return time.perf_counter() - sent, p.returncode, err


def test_ctrl_c_stops_a_long_solve():
    code = "import xo\nprint('solving', flush=True)\nxo.solve('connect4', no_book=True)\n"
    took, status, err = interrupt(code)
    assert "KeyboardInterrupt" in err and status != 0
    assert took < 2.0, took


def test_ctrl_c_stops_solve_many_and_can_be_caught():
    code = (
        "import xo\nprint('solving', flush=True)\n"
        "try:\n    xo.solve_many('connect4', ['.' * 42, '.' * 41 + 'X'], no_book=True)\n"
        "except KeyboardInterrupt:\n    print('caught', flush=True)\n"
        "print(xo.solve('tictactoe').value)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env,
                         preexec_fn=as_at_a_terminal)
    assert p.stdout.readline().strip() == "solving"
    time.sleep(1.0)  # on purpose, as in `interrupt`: the signal lands inside the engine
    sent = time.perf_counter()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=10)
    assert out.split() == ["caught", "draw"], (out, err)
    assert p.returncode == 0 and time.perf_counter() - sent < 3.0
