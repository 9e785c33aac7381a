"""One `to_move` convention for every game (#45): a report names the player to move as the
game names its players (`X`/`O` where they own marks, else `first player`/`second player`), and
`Game.current_player` is that player's index, 0 for the player who moved first, in every game."""

import random

import pytest
import xo
from conftest import xo_json

GAMES = ["tictactoe", "connect:5,4,4", "mnk:4,4,3", "lol:8", "sos:6", "treblecross:11"]


@pytest.mark.parametrize("game", GAMES)
def test_current_player_is_the_index_of_every_reports_to_move(game):
    g = xo.Game(game)
    rng = random.Random(game)
    pos, plies = g.empty(), 0
    while True:
        player = g.current_player(pos)
        # The plies from the empty board decide it, in every placement game.
        assert player == plies % 2
        name = g.players[player]
        assert g.to_move(pos) == name == xo.solve(g, pos, no_moves=True).to_move
        assert xo_json("moves", game, pos)["to_move"] == name
        if g.is_over(pos):
            break
        move = rng.choice(g.legal_moves(pos))
        after = xo_json("moves", game, pos, "--play", move)
        assert after["to_move"] == g.players[1 - player]
        pos, plies = g.play(pos, move), plies + 1
        assert g.current_player(pos) == 1 - player


def test_players_name_the_marks_or_the_turns():
    assert xo.Game("tictactoe").players == ("X", "O")
    assert xo.Game("connect4").players == ("X", "O")
    for game in ["lol:5", "sos:5", "treblecross:9", "kayles"]:
        assert xo.Game(game).players == ("first player", "second player")


def test_heaps_hold_no_history_so_their_player_to_move_is_the_first():
    g = xo.Game("kayles")
    for pos in ["10", "1 8", "3 4 5"]:
        assert g.current_player(pos) == 0
        assert g.players[0] == xo_json("solve", "kayles", pos)["to_move"]
