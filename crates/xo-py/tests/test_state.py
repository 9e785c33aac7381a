"""The OpenSpiel-style state (#45): `Game.new_initial_state()` played by action numbers, checked
at every ply of seeded random games against the solver (legal moves, the end, the value) and the
command (the moves' names), with clones and undo."""

import random

import pytest
import xo
from conftest import xo_json

GAMES = ["tictactoe", "connect:5,4,4", "mnk:4,4,3", "lol:8", "treblecross:11", "sos:6"]
SCORES = {"win": 1.0, "draw": 0.0, "loss": -1.0}


def mover_values(value, mover):
    """Each player's return when the player `mover` has `value`."""
    values = [0.0, 0.0]
    values[mover] = SCORES[value]
    values[1 - mover] = -SCORES[value] if SCORES[value] else 0.0
    return values


def check_ply(state, g, plies):
    pos = state.position
    report = xo.solve(g, pos)
    names = [m.move for m in report.moves]
    # The legal actions are the solver's moves, numbered; the names are the command's.
    assert state.legal_actions() == sorted(state.string_to_action(n) for n in names)
    assert [state.action_to_string(a) for a in state.legal_actions()] == sorted(
        names, key=state.string_to_action)
    assert names == [m["move"] for m in xo_json("moves", g.name, pos)["moves"]]
    mask = state.legal_actions_mask()
    assert len(mask) == g.num_distinct_actions()
    assert [a for a, legal in enumerate(mask) if legal] == state.legal_actions()
    assert state.is_terminal() == (not names) == g.is_over(pos)
    mover = plies % 2
    assert g.players[mover] == report.to_move
    if state.is_terminal():
        assert state.current_player() == xo.TERMINAL
        assert state.returns() == state.rewards() == mover_values(report.value, mover)
        assert state.legal_actions(0) == state.legal_actions(1) == []
    else:
        assert state.current_player() == mover
        assert state.returns() == state.rewards() == [0.0, 0.0]
        assert state.legal_actions(1 - mover) == []
    assert state.value() == mover_values(report.value, mover)
    assert state.solve(no_moves=True).to_dict() == xo.solve(g, pos, no_moves=True).to_dict()
    assert state.history() == [] or len(state.history()) == plies
    return report


@pytest.mark.parametrize("game", GAMES)
def test_random_play_agrees_with_the_solver(game):
    g = xo.Game(game)
    rng = random.Random(f"state {game}")
    for _ in range(3):
        state = g.new_initial_state()
        plies = 0
        while True:
            check_ply(state, g, plies)
            if state.is_terminal():
                break
            action = rng.choice(state.legal_actions())
            before = (str(state), state.position, state.legal_actions(), state.current_player())
            # A clone is independent both ways.
            twin = state.clone()
            twin.apply_action(action)
            assert (str(state), state.position, state.legal_actions()) == before[:3]
            state.apply_action(action)
            assert state.position == twin.position == g.play(before[1], g.action_to_string(action))
            # Undo restores the state exactly; the twin is left as it was.
            state.undo()
            assert (str(state), state.position, state.legal_actions(), state.current_player()) == before
            assert twin.history()[-1] == action
            state.apply_action(action)
            plies += 1
        assert state.move_number() == plies
        # Undoing every action goes back to the empty board.
        while state.history():
            state.undo_action(state.history()[-1])
        assert state.position == g.empty() and state.current_player() == 0


@pytest.mark.parametrize("game", GAMES)
def test_observation_tensor_is_the_position(game):
    numpy = pytest.importorskip("numpy")
    g = xo.Game(game)
    info = g.describe()
    state = g.new_initial_state()
    rng = random.Random(game)
    while not state.is_terminal():
        cells = numpy.array(list(state.position)).reshape(info["height"], info["width"])
        for player in (0, 1):
            t = state.observation_tensor(player)
            assert t.shape == g.observation_tensor_shape() and t.dtype == numpy.float32
            # Every cell is on exactly one plane.
            assert (t.sum(axis=0) == 1).all()
            assert (t[-1] == (cells == ".")).all()
            if info["marks"] == "own":
                mine, theirs = info["alphabet"][player], info["alphabet"][1 - player]
                assert (t[0] == (cells == mine)).all() and (t[1] == (cells == theirs)).all()
            else:
                for i, letter in enumerate(info["alphabet"]):
                    assert (t[i] == (cells == letter)).all()
        assert (state.observation_tensor() == state.observation_tensor(state.current_player())).all()
        state.apply_action(rng.choice(state.legal_actions()))
    assert str(state).replace("\n", "") == state.position
    assert len(str(state).splitlines()) == info["height"]


def test_bad_actions_are_named():
    s = xo.Game("tictactoe").new_initial_state("XX.OO....")
    with pytest.raises(xo.BadInput, match=r"action 0 \(move 1\) is not legal in tictactoe position XX\.OO"):
        s.apply_action(0)
    with pytest.raises(xo.BadInput, match="action 9 is no action of tictactoe: its actions are 0 to 8"):
        s.apply_action(9)
    with pytest.raises(xo.BadInput, match="action must be a whole number, not '2'"):
        s.apply_action("2")
    with pytest.raises(xo.BadInput, match="not True"):
        s.apply_action(True)
    with pytest.raises(xo.BadInput, match="'3Q' names no move of lol:8"):
        xo.Game("lol:8").string_to_action("3Q")
    with pytest.raises(xo.BadInput, match="it has 7 columns"):
        xo.Game("connect4").string_to_action("8")
    s.apply_action(2)
    with pytest.raises(xo.BadInput, match="the game is over"):
        s.apply_action(5)
    with pytest.raises(xo.BadInput, match="not the last action played"):
        s.undo_action(0, 5)
    with pytest.raises(xo.BadInput, match="not played by player 1"):
        s.undo_action(1, 2)
    s.undo_action(0, 2)
    with pytest.raises(xo.BadInput, match="no action to undo"):
        s.undo()
    with pytest.raises(xo.BadInput, match="octal game"):
        xo.Game("kayles").new_initial_state()
    with pytest.raises(xo.BadInput, match="X moves first"):
        xo.Game("tictactoe").new_initial_state("XXX......")


def test_observation_tensor_takes_player_0_or_1_only():
    pytest.importorskip("numpy")
    for game in ["lol:5", "tictactoe"]:
        for player in [7, "a", True]:
            with pytest.raises(xo.BadInput, match="player must be 0 or 1"):
                xo.Game(game).new_initial_state().observation_tensor(player)


def test_numpy_integers_are_actions():
    numpy = pytest.importorskip("numpy")
    s = xo.Game("connect4").new_initial_state()
    s.apply_action(numpy.int64(3))
    assert s.history() == [3] and s.position == xo.Game("connect4").play("." * 42, "4")


def test_actions_number_the_move_names():
    # Gravity: the column; else the cell (times the letters where the mover chooses one).
    for game in ["connect4", "tictactoe", "lol:8", "sos:6", "treblecross:11", "mnk:5,4,4"]:
        g = xo.Game(game)
        names = [g.action_to_string(a) for a in range(g.num_distinct_actions())]
        assert len(set(names)) == len(names)
        assert [g.string_to_action(n) for n in names] == list(range(len(names)))
        # Every move of the empty position has a number.
        assert set(g.legal_moves()) <= set(names)


def test_a_state_pickles_and_plays_on():
    import copy
    import pickle

    g = xo.Game("connect:5,4,4")
    s = g.new_initial_state()
    for a in [2, 3, 2]:
        s.apply_action(a)
    for twin in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert (twin.position, twin.history(), twin.legal_actions()) == (
            s.position, s.history(), s.legal_actions())
        twin.undo()
        assert twin.position == g.play(g.play(g.empty(), "3"), "4") and s.history() == [2, 3, 2]


def test_observation_tensor_without_numpy_says_so(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_numpy(name, *args, **kwargs):
        if name == "numpy":
            raise ImportError("No module named 'numpy'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_numpy)
    with pytest.raises(ImportError, match="observation_tensor needs NumPy"):
        xo.Game("tictactoe").new_initial_state().observation_tensor()
