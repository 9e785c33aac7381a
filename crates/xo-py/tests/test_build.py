"""Strong databases and opening books built from Python (#45) with the code the command runs:
the same files as `xo solve --strong` and `xo book` write, answers equal to solve, the command's
refusals, budgets (a stopped build resumed by the next call) and Ctrl-C."""

import random

import pytest
import xo
from conftest import run_xo, xo_error, xo_json
from test_threads_and_interrupt import interrupt


def positions_of_play(game, count, seed):
    """Every position of seeded random games, from the empty board to the end."""
    g, rng, out = xo.Game(game), random.Random(seed), []
    while len(out) < count:
        pos = g.empty()
        while len(out) < count:
            out.append(pos)
            if g.is_over(pos):
                break
            pos = g.play(pos, rng.choice(g.legal_moves(pos)))
    return out


@pytest.mark.parametrize("game", ["tictactoe", "mnk:4,3,3", "lol:7"])
def test_a_database_built_from_python_is_the_commands(game, tmp_path):
    db = xo.build_database(game, tmp_path / "py")
    assert isinstance(db, xo.Database) and db.game == xo.Game(game).name
    run_xo("solve", game, "--strong", "--db", tmp_path / "cli")
    # The same files, byte for byte (the manifest and every tier), so the same summary.
    ours = {f.name: f.read_bytes() for f in (tmp_path / "py").iterdir()}
    assert ours and ours == {f.name: f.read_bytes() for f in (tmp_path / "cli").iterdir()}
    _, info, _ = run_xo("query", tmp_path / "py", "--info")
    assert info == run_xo("query", tmp_path / "cli", "--info")[1]
    for pos in positions_of_play(game, 60, game):
        assert db.query(pos).to_dict() == xo_json("query", tmp_path / "cli", pos)
        assert db.query(pos, winning=True).value == xo.solve(game, pos).value


def test_a_stopped_database_build_resumes(tmp_path):
    folder = tmp_path / "m433"
    with pytest.raises(xo.OverBudget) as e:
        xo.build_database("mnk:4,3,3", folder, max_nodes=100_000)
    assert e.value.limit == "nodes" and "max_nodes=" in str(e.value)
    assert e.value.stopped["reached"].startswith("tier ")
    # The tiers solved before the stop are kept, and the next call resumes from them (they are
    # not written again).
    kept = {f.name: f.stat().st_mtime_ns for f in folder.glob("tier-*")}
    assert kept
    db = xo.build_database("mnk:4,3,3", folder)
    assert {n: (folder / n).stat().st_mtime_ns for n in kept} == kept
    assert len(list(folder.glob("tier-*"))) == 13
    for pos in positions_of_play("mnk:4,3,3", 40, 1):
        # The whole report of the search, but for the engine that answered.
        answered = db.query(pos).to_dict()
        assert answered.pop("engine") == "database"
        searched = xo.solve("mnk:4,3,3", pos).to_dict()
        searched.pop("engine")
        assert answered == searched


def test_a_book_built_from_python_is_the_commands(tmp_path):
    book = xo.build_book("connect:5,4,4", tmp_path / "py.book", 5)
    assert (book.game, book.depth, book.path) == ("connect:5,4,4", 5, str(tmp_path / "py.book"))
    run_xo("book", "connect:5,4,4", "--depth", "5", "--out", tmp_path / "cli.book")
    assert (tmp_path / "py.book").read_bytes() == (tmp_path / "cli.book").read_bytes()
    for moves in [None, "3", "33", "312", "3121"]:
        with_book = xo.solve("connect:5,4,4", moves=moves, book=book)
        assert with_book.to_dict() == xo.solve("connect:5,4,4", moves=moves, no_book=True).to_dict()


def test_a_stopped_book_build_resumes(tmp_path):
    path = tmp_path / "c544.book"
    with pytest.raises(xo.OverBudget) as e:
        xo.build_book("connect:5,4,4", path, 7, max_nodes=200_000)
    assert e.value.limit == "nodes" and "max_nodes=" in str(e.value)
    book = xo.build_book("connect:5,4,4", path, 7)
    run_xo("book", "connect:5,4,4", "--depth", "7", "--out", tmp_path / "cli.book")
    assert path.read_bytes() == (tmp_path / "cli.book").read_bytes() and book.depth == 7


def test_builds_refuse_what_the_command_refuses(tmp_path):
    cases = [
        (lambda: xo.build_book("tictactoe", tmp_path / "t.book", 3),
         ["book", "tictactoe", "--depth", "3", "--out", tmp_path / "t.book"]),
        (lambda: xo.build_book("chess", tmp_path / "c.book", 3),
         ["book", "chess", "--depth", "3", "--out", tmp_path / "c.book"]),
        (lambda: xo.build_database("kayles", tmp_path / "k"),
         ["solve", "kayles", "--strong", "--db", tmp_path / "k"]),
        (lambda: xo.build_database("mnk:9,9,5", tmp_path / "big"),
         ["solve", "mnk:9,9,5", "--strong", "--db", tmp_path / "big"]),
    ]
    for build, args in cases:
        with pytest.raises(xo.BadInput) as e:
            build()
        assert str(e.value) == xo_error(*args)
    # A folder of another game, a book of another depth: refused, not overwritten.
    xo.build_database("tictactoe", tmp_path / "ttt")
    with pytest.raises(xo.BadInput) as e:
        xo.build_database("mnk:3,2,2", tmp_path / "ttt")
    assert str(e.value) == xo_error("solve", "mnk:3,2,2", "--strong", "--db", tmp_path / "ttt")
    xo.build_book("connect:4,4,3", tmp_path / "c.book", 3)
    with pytest.raises(xo.BadInput, match="is a book of connect:4,4,3 to depth 3"):
        xo.build_book("connect:4,4,3", tmp_path / "c.book", 4)
    with pytest.raises(xo.BadInput, match="depth must be"):
        xo.build_book("connect:4,4,3", tmp_path / "d.book", -1)
    with pytest.raises(xo.BadInput, match="depth must be 0 to 63"):
        xo.build_book("connect:4,4,3", tmp_path / "d.book", 64)
    with pytest.raises(xo.BadInput, match="max_nodes"):
        xo.build_database("tictactoe", tmp_path / "t0", max_nodes=0)
    with pytest.raises(xo.BadInput, match="game must be"):
        xo.build_database(3, tmp_path / "t1")
    with pytest.raises(xo.BadInput, match="the folder must be a path"):
        xo.build_database("tictactoe", None)
    with pytest.raises(xo.BadInput, match="the book file must be a path"):
        xo.build_book("connect4", 5, 2)
    rules = tmp_path / "sos.toml"
    rules.write_text('name = "sos strip"\nwidth = 5\nmarks = "shared"\nalphabet = "SO"\nword = "SOS"\n')
    with pytest.raises(xo.BadInput, match="give its path"):
        xo.build_database(xo.Game(rules), tmp_path / "t2")
    # From its path, a rules file is built as the command builds it.
    db = xo.build_database(rules, tmp_path / "sos")
    assert db.query().value == xo.solve(rules).value == xo_json("solve", rules)["value"]


def test_ctrl_c_stops_a_database_build(tmp_path):
    code = (
        "import xo\nprint('solving', flush=True)\n"
        f"xo.build_database('connect:4,4,3', {str(tmp_path / 'c443')!r})\n"
    )
    took, status, err = interrupt(code)
    assert "KeyboardInterrupt" in err and status != 0
    assert took < 2.0, took
