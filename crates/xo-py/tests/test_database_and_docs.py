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
    with pytest.raises(xo.BadInput, match="the database folder must be a path"):
        xo.Database(None)
    with pytest.raises(xo.BadInput, match="the book file must be a path"):
        xo.Book(3)
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
    try:
        import numpy  # noqa: F401
    except ImportError:
        # NumPy is optional: without it, only the observation tensor's example cannot run.
        needs_numpy = {"xo.State.observation_tensor"}
    else:
        needs_numpy = set()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(xo):
        if test.name not in needs_numpy:
            runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 60 and failed == 0


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


def _query_in_worker(args):
    db, position = args
    return db.query(position).to_dict()


def test_a_database_pickles_and_answers_the_same(ttt_db, monkeypatch, tmp_path):
    import concurrent.futures
    import multiprocessing
    import pickle

    db = xo.Database(ttt_db)
    back = pickle.loads(pickle.dumps(db))
    assert (back.game, str(back.path)) == (db.game, str(db.path))
    positions = [None, "XX.OO....", "XO.......", "XOXOOX..."]
    for position in positions:
        assert back.query(position).to_dict() == db.query(position).to_dict()
    # The use of pickling: a process pool's workers (spawned, so nothing is inherited) get the
    # database as an argument and answer as the command does.
    spawn = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=spawn) as pool:
        answers = list(pool.map(_query_in_worker, [(db, p) for p in positions]))
    for position, answer in zip(positions, answers):
        assert answer == xo_json("query", ttt_db, *([position] if position else []))
    # Pickled by absolute path: unpickling elsewhere still finds it.
    monkeypatch.chdir(tmp_path)
    relative = xo.Database(__import__("os").path.relpath(ttt_db))
    assert pickle.loads(pickle.dumps(relative)).query("XX.OO....") == db.query("XX.OO....")


def test_a_database_gone_or_changed_is_refused_on_unpickling(tmp_path):
    import pickle
    import shutil

    folder = tmp_path / "db"
    run_xo("solve", "tictactoe", "--strong", "--db", folder)
    data = pickle.dumps(xo.Database(folder))
    shutil.rmtree(folder)
    with pytest.raises(xo.BadInput):
        pickle.loads(data)
    run_xo("solve", "mnk:3,2,2", "--strong", "--db", folder)
    with pytest.raises(xo.BadInput, match="changed since it was pickled"):
        pickle.loads(data)


def test_a_book_pickles_and_answers_the_same(tmp_path):
    import pickle

    path = tmp_path / "c443.book"
    run_xo("book", "connect:4,4,3", "--depth", "3", "--out", path)
    book = xo.Book(path)
    back = pickle.loads(pickle.dumps(book))
    assert (back.game, back.depth, len(back), back.path) == (book.game, book.depth, len(book), str(path))
    for moves in [None, "2", "23", "231"]:
        expected = xo.solve("connect:4,4,3", moves=moves, book=book).to_dict()
        assert xo.solve("connect:4,4,3", moves=moves, book=back).to_dict() == expected
        assert expected == xo.solve("connect:4,4,3", moves=moves, no_book=True).to_dict()
    # A file holding another book by the time it is unpickled is refused.
    data = pickle.dumps(book)
    path.unlink()
    run_xo("book", "connect:4,4,3", "--depth", "2", "--out", path)
    with pytest.raises(xo.BadInput, match="changed since it was pickled"):
        pickle.loads(data)
