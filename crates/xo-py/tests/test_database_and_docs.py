"""A strong database made by the command and queried from Python (the same report as `xo
query`), an opening book, and the package's docstrings run as doctests."""

import doctest

import pytest
import xo
from conftest import run_xo, xo_json


@pytest.fixture(scope="module")
def ttt_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "ttt"
    run_xo("solve", "tictactoe", "--strong", "--db", db)
    return db


@pytest.mark.parametrize("position", [None, "XX.OO....", "XO.......", "XOXOOX..."])
def test_database_query_equals_xo_query(ttt_db, position):
    db = xo.Database(ttt_db)
    assert db.game == "tictactoe"
    args = [position] if position is not None else []
    assert db.query(position).to_dict() == xo_json("query", ttt_db, *args)
    assert db.query(position, winning=True).to_dict() == xo_json("query", ttt_db, *args, "--winning")
    # The database and the search agree.
    assert db.query(position).value == xo.solve("tictactoe", position).value


def test_database_bad_input(ttt_db, tmp_path):
    with pytest.raises(xo.BadInput):
        xo.Database(tmp_path / "nothing")
    with pytest.raises(xo.BadInput) as e:
        xo.Database(ttt_db).query("XXX......")
    assert "X" in str(e.value)


def test_book(tmp_path):
    path = tmp_path / "c544.book"
    run_xo("book", "connect:5,4,4", "--depth", "4", "--out", path)
    book = xo.Book(path)
    assert (book.game, book.depth) == ("connect:5,4,4", 4) and len(book) > 0
    for moves in ["", "3", "33", "312"]:
        with_book = xo.solve("connect:5,4,4", moves=moves or None, book=book)
        assert with_book.to_dict() == xo.solve("connect:5,4,4", moves=moves or None).to_dict()
    with pytest.raises(xo.BadInput, match="book is a book of connect:5,4,4"):
        xo.solve("connect4", book=book)
    with pytest.raises(xo.BadInput):
        xo.Book(tmp_path / "missing.book")


def test_docstring_examples_run():
    failed, attempted = doctest.testmod(xo, optionflags=doctest.ELLIPSIS)
    assert attempted > 20 and failed == 0


def test_the_readme_example_runs(monkeypatch, capsys):
    # The README's notebook-style example, with the human's moves taken as the first legal one.
    import ast
    import builtins

    from conftest import ROOT

    text = (ROOT / "README.md").read_text()
    section = text[text.index("### Python"):]
    code = section[section.index("```python\n") + len("```python\n"):]
    code = code[:code.index("```")]
    def first_legal(prompt):
        return ast.literal_eval(prompt[prompt.index("["):prompt.index("]") + 1])[0]

    monkeypatch.setattr(builtins, "input", first_legal)
    try:
        import matplotlib
        matplotlib.use("Agg")
    except ImportError:
        pass
    exec(compile(code, "README.md", "exec"), {})
    pos, value = capsys.readouterr().out.strip().splitlines()[-1].split()
    # Perfect play as X against any O never loses: the game ends with X's line (O to move, lost)
    # or a full board drawn.
    assert (value == "loss" and pos.count("X") > pos.count("O")) or (value == "draw" and "." not in pos)
