"""The PettingZoo AEC environment (#45): PettingZoo's own API test on several games, and
seeded random play checked at every step against the solver."""

import random

import pytest
import xo

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import xo.pettingzoo as xpz  # noqa: E402

GAMES = ["tictactoe", "connect:5,4,4", "mnk:4,4,3", "lol:8", "treblecross:11"]


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoos_api_test_passes(game):
    api_test(xpz.env(game), num_cycles=200)


@pytest.mark.parametrize("game", GAMES)
def test_random_play_agrees_with_the_solver(game):
    g = xo.Game(game)
    rng = random.Random(f"pettingzoo {game}")
    env = xpz.env(game)
    for _ in range(3):
        env.reset()
        pos, plies = g.empty(), 0
        for agent in env.agent_iter(max_iter=10_000):
            observation, reward, termination, truncation, _ = env.last()
            assert not truncation
            report = xo.solve(g, pos)
            if termination:
                # The end: each agent's reward is the solver's value of the final position for
                # it (the player to move there has `report.value`).
                mover = plies % 2
                score = {"win": 1.0, "draw": 0.0, "loss": -1.0}[report.value]
                player = env.possible_agents.index(agent)
                assert reward == (score if player == mover else -score or 0.0)
                env.step(None)
                continue
            assert agent == f"player_{plies % 2}"
            legal = [i for i, m in enumerate(observation["action_mask"]) if m]
            assert legal == sorted(g.string_to_action(m.move) for m in report.moves)
            assert reward == 0.0
            action = rng.choice(legal)
            env.step(action)
            pos, plies = g.play(pos, g.action_to_string(action)), plies + 1
            assert env.unwrapped.state.position == pos
        assert g.is_over(pos) and env.agents == []


def test_an_illegal_action_is_named():
    env = xpz.env("tictactoe")
    env.reset()
    env.step(4)
    with pytest.raises(xo.BadInput, match=r"action 4 \(move 5\) is not legal"):
        env.step(4)
    with pytest.raises(xo.BadInput, match="octal game"):
        xpz.env("kayles")


def test_render_and_a_start_position():
    env = xpz.raw_env("tictactoe", render_mode="ansi")
    env.reset(options={"position": "XX.OO...."})
    assert env.agent_selection == "player_0"
    env.step(2)
    assert env.render() == "XXX\nOO.\n..." and env.rewards == {"player_0": 1.0, "player_1": -1.0}


def test_docstring_examples_run():
    import doctest

    failed, attempted = doctest.testmod(xpz)
    assert attempted >= 6 and failed == 0
