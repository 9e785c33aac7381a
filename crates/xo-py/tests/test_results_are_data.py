"""Results are plain data (issue #45): iterable, JSON-serialisable, DataFrame-friendly,
picklable and read-only; the command's refusals; a game's moves from its empty position."""

import json
import pickle

import pytest
import xo


def test_a_result_is_its_json_as_a_read_only_dict():
    r = xo.solve("tictactoe", "XX.OO....")
    assert list(r) == list(r.to_dict())
    assert json.loads(json.dumps(r)) == r.to_dict()
    assert dict(r) == r.to_dict()
    assert r["moves"][0].move == r.moves[0].move == "3"
    with pytest.raises(TypeError, match="read-only"):
        r["value"] = "loss"
    with pytest.raises(TypeError, match="read-only"):
        r.update(value="loss")
    assert r.value == "win"


def test_records_make_table_rows():
    moves = xo.solve("tictactoe", "XX.OO....").moves
    rows = [dict(m) for m in moves]
    assert [row["move"] for row in rows] == ["3", "6", "7", "8", "9"]
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame.from_records(moves)
    assert list(frame["move"]) == ["3", "6", "7", "8", "9"]


def test_results_pickle_to_equal_results():
    for r in [xo.solve("tictactoe", "XX.OO...."), xo.count("tictactoe", "XX..O...."),
              xo.grundy("kayles", 30), xo.check("tictactoe", "XXX......")]:
        back = pickle.loads(pickle.dumps(r))
        assert type(back) is type(r)
        assert back == r and back.to_dict() == r.to_dict()


def test_max_nodes_zero_is_refused_as_the_command_refuses_it():
    with pytest.raises(xo.BadInput, match="at least 1"):
        xo.solve("tictactoe", max_nodes=0)
    with pytest.raises(xo.BadInput, match="at least 1"):
        xo.solve("tictactoe", memory_mib=0)


def test_a_game_lists_moves_from_its_empty_position():
    kayles = xo.Game("kayles")
    assert kayles.legal_moves() == kayles.legal_moves(kayles.empty())
    assert len(kayles.legal_moves()) == 10
    ttt = xo.Game("tictactoe")
    assert ttt.legal_moves() == [str(i) for i in range(1, 10)]


def test_a_move_without_a_line_reads_none():
    assert xo.solve("tictactoe", "XX.OO....").moves[0].line is None
    assert xo.solve("tictactoe", "XX.OO....", line=True).moves[0].line == ["3"]


def test_solve_many_takes_columns_played():
    games = ["2252576253462244111563365343671351441", "4453", "44"]
    many = xo.solve_many("connect4", moves=games, no_moves=True)
    assert [r.to_dict() for r in many] == [
        xo.solve("connect4", moves=m, no_moves=True).to_dict() for m in games
    ]
    with pytest.raises(xo.BadInput, match=r"positions\[1\]"):
        xo.solve_many("connect4", moves=["44", "4444444"], no_moves=True)
    with pytest.raises(xo.BadInput, match="one of them"):
        xo.solve_many("connect4", ["." * 42], moves=["44"])
