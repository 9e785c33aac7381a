"""xo for Python: placement games solved exactly, one function call away.

The same engines, the same answers and the same reports as the ``xo`` command: every function
here builds the core's one request, the core answers it, and the report comes back as a result
object whose ``.to_dict()`` is exactly what ``xo ... --json`` prints.

>>> import xo
>>> xo.solve("tictactoe").value
'draw'
>>> r = xo.solve("tictactoe", "XX. OO. ...")
>>> r.value, r.remoteness, [m.move for m in r.moves if m.value == "win"]
('win', 1, ['3'])
>>> xo.count("tictactoe").games
255168
>>> xo.check("tictactoe", "XXXOOO...").reason
'both players have a line; the game stops at the first'
>>> [int(v) for v in xo.grundy("kayles", 12).values]
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]

Bad input raises :class:`BadInput` with the message the command prints; a job that runs out of
its budget raises :class:`OverBudget`, naming the budget and the keyword that raises it (here
a Connect Four position of 11 stones, one past the opening book xo ships, so it is searched):

>>> xo.solve("tictactoe", "XXXXX....")
Traceback (most recent call last):
    ...
xo.BadInput: 5 X's and 0 O's: X moves first, so X has as many marks as O or one more
>>> try:
...     xo.solve("connect4", moves="47744635572", max_nodes=1000)
... except xo.OverBudget as e:
...     print(e.stopped["limit"], e.result.value)
nodes unknown

Ctrl-C stops a running job (its budget is cancelled) and raises ``KeyboardInterrupt``.
"""

import json as _json
import operator as _operator
import os as _os

from . import _xo

__all__ = [
    "solve",
    "count",
    "check",
    "grundy",
    "solve_many",
    "best_move",
    "build_database",
    "build_book",
    "Game",
    "State",
    "TERMINAL",
    "Database",
    "Book",
    "Result",
    "SolveResult",
    "CountResult",
    "CheckResult",
    "GrundyResult",
    "MovesResult",
    "AfterResult",
    "BestResult",
    "Record",
    "Move",
    "BadInput",
    "OverBudget",
    "CORES",
]

#: The cores this process may use: the default number of threads.
CORES = _xo.CORES

#: What :meth:`State.current_player` returns once the game is over (OpenSpiel's number).
TERMINAL = -4

# The longest rules file read (the command's limit).
_MAX_RULES_FILE = 1 << 20


class BadInput(ValueError):
    """Bad input: an unknown game, a malformed or impossible position, arguments that do not go
    together. The message is the one the command prints (where it exits with status 2)."""


class OverBudget(RuntimeError):
    """A job stopped at its budget (``timeout``, ``max_nodes`` or ``memory_mib``) before it had
    its answer; the command exits with status 3 there.

    Attributes:
        stopped: which budget, and how far the engine got, as the report's ``stopped`` field
            (``limit``, ``budget``, ``nodes``, ``elapsed_ms``, ``reached``).
        result: the report the command prints, of unknown value (``None`` where there is none).
    """

    def __init__(self, message, result=None, stopped=None):
        super().__init__(message)
        self.result = result
        if stopped is None and result is not None:
            stopped = result.to_dict().get("stopped")
        self.stopped = stopped

    @property
    def limit(self):
        """The budget reached: ``"nodes"``, ``"time"`` or ``"memory"``."""
        return (self.stopped or {}).get("limit")


class Record(dict):
    """A part of a report (a move, a count by length, a stop), or a whole report: a read-only
    ``dict`` of the command's JSON, so ``json.dumps(record)``, ``dict(record)``, ``list(record)``
    (its fields) and ``pandas.DataFrame.from_records(records)`` work as on the JSON itself. Its
    fields read as attributes too; fields the report leaves out read as ``None``.

    >>> r = solve("tictactoe", "XX.OO....")
    >>> r.value, r["value"], list(r)[:3]
    ('win', 'win', ['game', 'position', 'to_move'])
    >>> import json; json.loads(json.dumps(r)) == r.to_dict()
    True
    """

    __slots__ = ()
    _fields = ()

    def __init__(self, data):
        dict.__init__(self, data)

    def __getattr__(self, name):
        if dict.__contains__(self, name):
            return _wrap(dict.__getitem__(self, name))
        if name in type(self)._fields:
            return None
        raise AttributeError(f"{type(self).__name__} has no field {name!r}")

    def __getitem__(self, name):
        return _wrap(dict.__getitem__(self, name))

    def get(self, name, default=None):
        """The field ``name`` (records for objects), or ``default`` when the report has none."""
        return self[name] if name in self else default

    def _read_only(self, *args, **kwargs):
        raise TypeError(f"a {type(self).__name__} is read-only: change a copy (to_dict())")

    __setitem__ = __delitem__ = __ior__ = _read_only
    update = pop = popitem = clear = setdefault = _read_only

    def to_dict(self):
        """The fields as plain data (a fresh copy): exactly the command's JSON."""
        return _json.loads(_json.dumps(self))

    def __eq__(self, other):
        if isinstance(other, Record):
            return type(self) is type(other) and dict.__eq__(self, other)
        return NotImplemented

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self):
        return hash(_json.dumps(self, sort_keys=True))

    def __reduce__(self):
        # Pickled as its JSON data, rebuilt read-only.
        return (type(self), (dict(self.items()),))

    def __repr__(self):
        shown = ", ".join(f"{k}={v!r}" for k, v in self.items() if not isinstance(v, list))
        return f"{type(self).__name__}({shown})"

    def __dir__(self):
        return sorted(set(self) | set(type(self)._fields) | {"to_dict", "keys"})


class Move(Record):
    """A move of a report: its name ``move``, and where the report tells them its ``value`` and
    ``remoteness`` for the player making it, Pons' ``score`` (gravity games) or the
    ``position`` after it (legal moves)."""

    __slots__ = ()
    _fields = ("move", "value", "remoteness", "score", "position", "line")


def _record(data):
    return Move(data) if "move" in data else Record(data)


def _wrap(value):
    """Plain data as read from a report: dicts become records, lists of dicts lists of them."""
    if isinstance(value, dict):
        return _record(value)
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return [_record(v) for v in value]
    return value


class Result(Record):
    """A whole report; its subclasses name their fields (those the report leaves out read as
    ``None``). ``to_dict()`` equals the command's ``--json`` output."""

    __slots__ = ()


class SolveResult(Result):
    """What ``xo solve`` reports: ``to_move`` (one of :attr:`Game.players`, the one at index
    :meth:`Game.current_player`), ``value`` (``win``, ``draw``, ``loss`` for the player to move,
    ``unknown`` over budget), ``remoteness``, ``moves`` (each with ``move``, ``value``,
    ``remoteness``, and Pons' ``score`` under gravity), and for sums of heaps ``heap_values``,
    ``nim_sum``, ``winning_moves``, ``heap_moves``; ``threats`` when asked (gravity games)."""

    __slots__ = ()
    _fields = (
        "game", "position", "to_move", "value", "remoteness", "score", "moves", "heap_values",
        "nim_sum", "winning_moves", "heap_moves", "threats", "engine", "note", "reason", "stopped",
    )


class CountResult(Result):
    """What ``xo count`` reports: games by outcome (``first_player_wins``,
    ``second_player_wins``, ``draws``, ``games``), distinct ``positions``, and ``by_length``."""

    __slots__ = ()
    _fields = (
        "game", "position", "first_player_wins", "second_player_wins", "draws", "games",
        "positions", "by_length", "reason", "stopped",
    )


class CheckResult(Result):
    """What ``xo check`` reports: ``reachable`` (``True``/``False``) and the ``reason`` why not."""

    __slots__ = ()
    _fields = ("game", "position", "reachable", "reason", "stopped")

    def __bool__(self):
        return bool(self.reachable)


class GrundyResult(Result):
    """What ``xo grundy`` reports: the nim-sequence ``values`` of heaps ``0..=upto`` (a NumPy
    array when NumPy can be imported, else a list; ``to_dict()`` always holds a list), its proven
    ``period`` and ``preperiod`` (``None`` when none is proven), and the summary figures."""

    __slots__ = ()
    _fields = (
        "game", "upto", "values", "period", "preperiod", "largest", "largest_at", "mask",
        "mask_domain", "rare_heaps", "common_heaps", "rare_values", "reason", "stopped",
    )

    @property
    def values(self):
        """The nim-sequence (a NumPy array when NumPy can be imported, else a list); ``None``
        when it is unknown as a list (over budget: ``"unknown"``)."""
        values = dict.get(self, "values")
        if isinstance(values, list):
            try:
                import numpy
            except ImportError:
                return list(values)
            return numpy.asarray(values, dtype=numpy.uint32)
        return values


class MovesResult(Result):
    """What ``xo moves`` reports: ``moves`` (each ``move`` with the ``position`` after it) and
    whether the game is ``over``."""

    __slots__ = ()
    _fields = ("game", "position", "to_move", "over", "moves")


class AfterResult(Result):
    """What ``xo moves --play MOVE`` reports: the position ``after`` the move."""

    __slots__ = ()
    _fields = ("game", "position", "move", "after", "to_move", "over")


class BestResult(Result):
    """What ``xo moves --best`` reports: the ``best`` move (``move``, ``value``, ``remoteness``)
    by the one tie rule (best value, then the quickest win or the longest draw or loss, then
    board order), and whether it is ``proven``."""

    __slots__ = ()
    _fields = (
        "game", "position", "to_move", "best", "proven", "engine", "reason", "stopped",
    )


_KINDS = {
    "solve": SolveResult,
    "count": CountResult,
    "check": CheckResult,
    "grundy": GrundyResult,
    "moves": MovesResult,
    "after": AfterResult,
    "best": BestResult,
}


def _game_fields(game):
    """The request's game: an :class:`Game`, a built-in name, or a TOML rules file (a
    ``pathlib.Path``, or a string ending in ``.toml`` or holding a ``/``; the command also takes
    any existing file, which would cost a look at the disk on every call here)."""
    if isinstance(game, str):
        if game.endswith(".toml") or "/" in game:
            return {"rules": _read_rules(game)}
        return {"game": game}
    if isinstance(game, Game):
        return dict(game._fields)
    if isinstance(game, _os.PathLike):
        return {"rules": _read_rules(_os.fspath(game))}
    raise BadInput(f"game must be a name, a rules file or an xo.Game, not {game!r}")


def _read_rules(path):
    if not _os.path.isfile(path):
        raise BadInput(f"cannot read rules file {path}: not a regular file")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(_MAX_RULES_FILE + 1)
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"cannot read rules file {path}: {e}") from None
    if len(text) > _MAX_RULES_FILE:
        raise BadInput(f"rules file {path} is longer than 1 MiB")
    return text


def _path(path, what):
    """``path`` (a string or a ``PathLike``) as a string, or ``BadInput`` naming ``what``."""
    try:
        return _os.fspath(path)
    except TypeError:
        raise BadInput(f"{what} must be a path (a string or a pathlib.Path), not {path!r}") from None


def _outcome(kind, outcome):
    """A result, or the exception, from the native module's ``(code, report, message)``."""
    code, text, message = outcome
    if code == 0:
        return kind(_json.loads(text))
    if code == 2:
        raise BadInput(message)
    result = kind(_json.loads(text)) if text else None
    raise OverBudget(message, result)


def _ask(question, game, position, budgets, book=None, **fields):
    fields.update(_game_fields(game))
    fields["question"] = question
    fields["position"] = position
    fields.update(budgets)
    native = book._native if isinstance(book, Book) else None
    if book is not None and native is None:
        raise BadInput(f"book must be an xo.Book, not {book!r}")
    return _outcome(_KINDS[question], _xo.ask(fields, native))


def _budgets(timeout, max_nodes, memory_mib, threads=None):
    return {"timeout": timeout, "max_nodes": max_nodes, "memory_mib": memory_mib, "threads": threads}


def solve(game, position=None, *, moves=None, winning=False, value_only=False, no_moves=False,
          line=False, threats=False, timeout=None, max_nodes=None, memory_mib=None, threads=None,
          book=None, no_book=False):
    """Solves a position: its value for the player to move, remoteness (plies to the end under
    perfect play) and every move's value, as ``xo solve GAME POSITION --json`` reports it.

    ``position`` is the cells in reading order (``.`` or ``*`` empty, whitespace ignored), or
    heap sizes for an octal game; the empty board when ``None``. ``moves`` gives a gravity
    position as the columns played instead (``"4453"``). ``winning`` lists only the winning
    moves, ``value_only`` reports only the value (fastest), ``no_moves`` value and remoteness.
    ``line`` gives each move's principal variation (``move.line``: the move, then perfect play
    to the end, as many moves as its remoteness; boards that the search or the gravity engine
    answers). ``threats`` tells each side's threats (``threats.first.cells``: the empty cells
    where its stone completes a line, ``odd``/``even`` rows, ``playable``) and who holds the
    parity (``threats.parity``), for gravity games.
    Budgets: ``timeout`` (seconds, default 300), ``max_nodes`` (positions, default 10**11),
    ``memory_mib`` (default 2048); ``threads`` for the gravity engine (default: every core);
    ``book``: an :class:`Book` of the board (Connect Four's own book, which xo ships, is
    consulted unless ``no_book``).

    >>> r = solve("mnk:4,3,3")
    >>> r.value, r.remoteness, r.game
    ('win', 7, 'mnk:4,3,3')
    >>> r = solve("connect4", moves="2252576253462244111563365343671351441", no_moves=True)
    >>> r.value, r.remoteness, r.score
    ('loss', 4, -1)
    >>> solve("kayles", "3 4").winning_moves[0].to_dict()
    {'heap': 1, 'removed': 2, 'leaves': [1]}
    >>> solve("tictactoe", "XX.OO....", line=True).moves[0].line
    ['3']
    >>> solve("connect4", moves="445566", no_moves=True, threats=True).threats.first.playable
    ['c1', 'g1']
    """
    return _ask("solve", game, position, _budgets(timeout, max_nodes, memory_mib, threads), book,
                moves=moves, winning=winning, value_only=value_only, no_moves=no_moves,
                line=line, threats=threats, no_book=no_book)


def count(game, position=None, *, moves=None, by_length=False, dense=False, timeout=None,
          max_nodes=None, memory_mib=None):
    """Counts the games continuing from a position, by outcome, and the distinct positions on
    the way, as ``xo count --json`` reports them (``by_length``: also split by game length).

    >>> c = count("tictactoe", "XX..O....")
    >>> c.first_player_wins, c.second_player_wins, c.draws, c.positions
    (191, 194, 72, 210)
    >>> count("tictactoe", by_length=True).by_length[0].to_dict()
    {'moves': 5, 'first_player_wins': 1440, 'second_player_wins': 0, 'draws': 0, 'games': 1440}
    """
    return _ask("count", game, position, _budgets(timeout, max_nodes, memory_mib), moves=moves,
                by_length=by_length, dense=dense)


def check(game, position=None, *, moves=None, timeout=None, max_nodes=None, memory_mib=None):
    """Whether a position can occur in a legal game from the empty board, as ``xo check
    --json`` reports it (the result is true exactly when it can).

    >>> bool(check("tictactoe", "XXXOO...."))
    True
    >>> check("tictactoe", "OOOXXX...").reachable
    False
    """
    return _ask("check", game, position, _budgets(timeout, max_nodes, memory_mib), moves=moves)


def grundy(game, upto, *, timeout=None, max_nodes=None, memory_mib=None):
    """The nim-sequence of an octal game for heaps ``0..=upto`` with its proven period, as ``xo
    grundy GAME --upto N --json`` reports it. ``values`` is a NumPy array when NumPy is
    installed (a list otherwise).

    >>> g = grundy("dawson-kayles", 200)
    >>> g.period, g.preperiod, g.game
    (34, 53, 'octal:0.07')
    """
    return _ask("grundy", game, None, _budgets(timeout, max_nodes, memory_mib), upto=upto)


def best_move(game, position=None, *, moves=None, depth=None, timeout=None, max_nodes=None,
              memory_mib=None, threads=None, book=None, no_book=False):
    """The best move by the one tie rule every front end uses (best value, then the quickest
    win or the longest draw or loss, then board order), as ``xo moves --best --json``.
    ``depth``: a weaker player's move instead, the best of a look-ahead at most that many plies
    deep (1 to 64; ``proven`` is then ``False``), as ``xo moves --best --depth N``.

    >>> best_move("tictactoe", "XX.OO....").best.move
    '3'
    >>> best_move("tictactoe", "OO..X...X", depth=2).best.move
    '3'
    """
    return _ask("best", game, position, _budgets(timeout, max_nodes, memory_mib, threads), book,
                moves=moves, depth=depth, no_book=no_book)


def solve_many(game, positions=None, *, moves=None, winning=False, value_only=False, no_moves=False,
               timeout=None, max_nodes=None, memory_mib=None, threads=None, book=None,
               no_book=False):
    """Solves many positions of one game at once: the list of their :class:`SolveResult`, in
    order, each as :func:`solve` gives it. The work runs with the GIL released on ``threads``
    threads (default: every core), one position per thread at a time; the budget bounds the
    whole batch, and the same position text is answered once (its result is the same object).

    A position that is bad input raises :class:`BadInput` naming it (``positions[i]: ...``), and
    a batch that runs out of its budget raises :class:`OverBudget`.

    ``moves`` gives gravity positions as the columns played instead (``["4453", "44"]``).

    >>> [r.value for r in solve_many("tictactoe", ["XX.OO....", ".........", "XOXOXO..."])]
    ['win', 'draw', 'win']
    >>> [r.score for r in solve_many("connect4", moves=["2252576253462244111563365343671351441"])]
    [-1]
    """
    fields = _game_fields(game)
    fields.update(_budgets(timeout, max_nodes, memory_mib, threads))
    fields.update(question="solve", winning=winning, value_only=value_only, no_moves=no_moves,
                  no_book=no_book)
    if (positions is None) == (moves is None):
        raise BadInput("give the positions or the moves (columns played), one of them")
    columns = moves is not None
    positions = moves if columns else positions
    if isinstance(positions, (str, bytes)):
        what = "moves" if columns else "positions"
        raise BadInput(f"{what} must be a list of positions, not one string")
    native = book._native if isinstance(book, Book) else None
    if book is not None and native is None:
        raise BadInput(f"book must be an xo.Book, not {book!r}")
    code, answers, message, _ = _xo.ask_many(fields, positions, _make_solve, native, columns)
    if code == 0:
        return answers
    if code == 2:
        raise BadInput(message)
    raise OverBudget(message, SolveResult(_json.loads(answers)) if answers else None)


def _make_solve(text):
    return SolveResult(_json.loads(text))


class Game:
    """A game by its name (``tictactoe``, ``mnk:5,5,4``, ``connect4``, ``lol:8``,
    ``treblecross:20``, ``kayles``, ...) or its TOML rules file: its board and the positions and
    moves of play, for playing it from Python.

    >>> g = Game("tictactoe")
    >>> g.name, g.empty()
    ('tictactoe', '.........')
    >>> g.legal_moves("XX.OO....")
    ['3', '6', '7', '8', '9']
    >>> g.play("XX.OO....", "3")
    'XXXOO....'
    >>> g.is_over("XXXOO....")
    True
    >>> g.describe()["title"]
    'Tic-tac-toe'
    """

    def __init__(self, name):
        if isinstance(name, Game):
            self._fields = dict(name._fields)
        else:
            self._fields = _game_fields(name)
        code, text, message = _xo.describe_game(self._fields)
        if code != 0:
            raise BadInput(message)
        self._info = _json.loads(text)
        self._numbers = None
        self._named = {}

    @property
    def name(self):
        """The canonical name (the one every report echoes)."""
        return self._info["name"]

    def describe(self):
        """The game described for drawing it, as the server's ``/api/game`` returns it: title,
        kind (``board``, ``strip``, ``octal``), width, height, gravity, marks, alphabet, goal,
        misère, the empty position, and for octal games the code and its removals."""
        return _json.loads(_json.dumps(self._info))

    def empty(self):
        """The empty position's text (for octal games: a sample heap of 10)."""
        return self._info["empty"]

    def moves(self, position=None):
        """Every legal move with the position after it, as ``xo moves --json``; from
        :meth:`empty` when no position is given (an octal game's sample heap)."""
        return _ask("moves", self, self.empty() if position is None else position, {})

    @property
    def players(self):
        """The two players' names, the first player's first: ``("X", "O")`` where each player
        owns a mark, else ``("first player", "second player")`` (shared marks, one mark, heaps).
        A report's ``to_move`` is always one of them, and :meth:`current_player` its index.

        >>> Game("tictactoe").players, Game("lol:5").players
        (('X', 'O'), ('first player', 'second player'))
        """
        if self._info["marks"] == "own":
            return tuple(self._info["alphabet"][:2])
        return ("first player", "second player")

    def to_move(self, position=None):
        """The name of the player to move at ``position`` (from :meth:`empty` when ``None``),
        as every report's ``to_move`` gives it: one of :attr:`players`.

        >>> Game("tictactoe").to_move("X........"), Game("lol:5").to_move("L....")
        ('O', 'second player')
        """
        return self.moves(position).to_move

    def current_player(self, position=None):
        """The one convention for every game: the index of the player to move at ``position``,
        ``0`` for the player who moved first from the empty board (X where players own marks)
        and ``1`` for the other, so ``players[current_player(pos)] == to_move(pos)``. The text of
        an octal game's heaps holds no history: its player to move is ``0`` (as its reports
        name them, ``first player``); a :class:`State` counts the plies instead.

        >>> g = Game("treblecross:7")
        >>> g.current_player(g.empty()), g.current_player(g.play(g.empty(), "4"))
        (0, 1)
        """
        return self.players.index(self.to_move(position))

    def legal_moves(self, position=None):
        """The names of the legal moves in board order (``5``, ``3L``, a column under
        gravity); none once the game is over."""
        return [m.move for m in self.moves(position).moves]

    def play(self, position, move):
        """The position after ``move`` (its name as :meth:`legal_moves` lists it)."""
        return _ask("after", self, position, {}, move=str(move)).after

    def is_over(self, position):
        """Whether the game has ended at ``position`` (a line completed, or the board full)."""
        return self.moves(position).over

    def new_initial_state(self, position=None):
        """A :class:`State` at the empty board (or at ``position``, a placement position's
        text), for play by action numbers as in OpenSpiel. Octal games are refused: their moves
        have no fixed numbering (a heap can be any size).

        >>> s = Game("tictactoe").new_initial_state()
        >>> s.legal_actions()
        [0, 1, 2, 3, 4, 5, 6, 7, 8]
        """
        return State(self, position)

    def num_players(self):
        """Two: every game here is played by two players taking turns.

        >>> Game("connect4").num_players()
        2
        """
        return 2

    def _numbering(self):
        """``(letters, places)``: the letters a move's name ends with (a choice of the mover
        where marks are shared, else only ``""``) and the columns (under gravity) or cells."""
        if self._numbers is None:
            self._placement()
            info = self._info
            shared = info["marks"] == "shared" and len(info["alphabet"]) > 1
            letters = list(info["alphabet"]) if shared else [""]
            places = info["width"] * (1 if info["gravity"] else info["height"])
            self._numbers = (letters, places)
        return self._numbers

    def _placement(self):
        if self._info["kind"] == "octal":
            raise BadInput(f"{self.name} is an octal game: its moves have no fixed numbering "
                           f"(a heap can be any size); play it with Game.play")

    def num_distinct_actions(self):
        """How many action numbers there are: the columns under gravity, else the cells, times
        the letters a mover may choose from (one where each player owns a mark). Action ``a``
        is column or cell ``a // letters + 1`` with the letter ``alphabet[a % letters]`` (where
        the mover chooses one): the move names of :meth:`legal_moves`, numbered from 0.

        >>> [Game(g).num_distinct_actions() for g in ("tictactoe", "connect4", "lol:8")]
        [9, 7, 16]
        """
        letters, places = self._numbering()
        return places * len(letters)

    def action_to_string(self, action):
        """The move name of an action number (see :meth:`num_distinct_actions`).

        >>> Game("lol:8").action_to_string(5), Game("connect4").action_to_string(3)
        ('3O', '4')
        """
        action = self._action(action)
        letters, _ = self._numbering()
        return f"{action // len(letters) + 1}{letters[action % len(letters)]}"

    def string_to_action(self, move):
        """The action number of a move name (``"5"``, ``"3L"``, a column under gravity);
        ``BadInput`` for a name that is no move of the game.

        >>> Game("lol:8").string_to_action("3o"), Game("tictactoe").string_to_action("5")
        (5, 4)
        """
        letters, places = self._numbering()
        text = str(move).strip()
        digits = len(text) - len(text.lstrip("0123456789"))
        letter = text[digits:].strip().upper()
        if digits == 0 or letter not in letters:
            raise BadInput(f"{move!r} names no move of {self.name}")
        number = int(text[:digits]) - 1
        if not 0 <= number < places:
            raise BadInput(f"{move!r} names no move of {self.name}: it has {places} "
                           f"{'columns' if self._info['gravity'] else 'cells'}")
        return number * len(letters) + letters.index(letter)

    def _action_named(self, move):
        """:meth:`string_to_action` of a report's move name, remembered."""
        number = self._named.get(move)
        if number is None:
            number = self._named[move] = self.string_to_action(move)
        return number

    def _action(self, action):
        """``action`` as an action number of the game, or ``BadInput`` naming it."""
        if isinstance(action, bool):
            raise BadInput(f"action must be a whole number, not {action!r}")
        try:
            number = _operator.index(action)
        except TypeError:
            raise BadInput(f"action must be a whole number, not {action!r}") from None
        count = self.num_distinct_actions()
        if not 0 <= number < count:
            raise BadInput(f"action {number} is no action of {self.name}: its actions are 0 to "
                           f"{count - 1}")
        return number

    def observation_tensor_shape(self):
        """The shape of :meth:`State.observation_tensor`: ``(planes, height, width)``, the
        planes being the mover's marks, the opponent's marks and the empty cells where each
        player owns a mark, else one plane for each letter of the alphabet, then the empty
        cells.

        >>> Game("connect4").observation_tensor_shape(), Game("lol:8").observation_tensor_shape()
        ((3, 6, 7), (3, 1, 8))
        """
        self._placement()
        planes = 3 if self._info["marks"] == "own" else len(self._info["alphabet"]) + 1
        return (planes, self._info["height"], self._info["width"])

    def solve(self, position=None, **kwargs):
        """:func:`solve` for this game."""
        return solve(self, position, **kwargs)

    def best_move(self, position=None, **kwargs):
        """:func:`best_move` for this game: the best move's name."""
        best = best_move(self, position, **kwargs).best
        return None if best is None else best.move

    def __repr__(self):
        return f"xo.Game({self.name!r})"

    def __eq__(self, other):
        return isinstance(other, Game) and self._fields == other._fields

    def __hash__(self):
        return hash(tuple(sorted(self._fields.items())))


class State:
    """A position in play, driven by action numbers as an OpenSpiel state is: made by
    :meth:`Game.new_initial_state`, it keeps the actions played (for :meth:`undo`) and asks the
    core for everything else (legal moves, the end, the value), so its answers are the
    command's. Actions are numbered by :meth:`Game.num_distinct_actions`; players are ``0``
    (the first to move from the empty board, X where players own marks) and ``1``.

    >>> s = Game("tictactoe").new_initial_state()
    >>> for a in [4, 0, 8, 2, 1, 7, 6, 3, 5]:
    ...     s.apply_action(a)
    >>> print(s)
    OXO
    OXX
    XOX
    >>> s.is_terminal(), s.current_player() == TERMINAL, s.returns()
    (True, True, [0.0, 0.0])
    >>> s.undo(); s.legal_actions(), s.current_player(), s.value()
    ([5], 0, [0.0, 0.0])
    """

    def __init__(self, game, position=None):
        self._game = game if isinstance(game, Game) else Game(game)
        self._game._placement()
        start = self._game.empty() if position is None else position
        # What is known of the position (its moves report, its legal actions with the position
        # after each, its end's returns), each read once; the moves report checks the position
        # and gives its canonical text.
        report = self._game.moves(start)
        self._position, self._here = report.position, {"report": report}
        self._history = []
        self._before = []

    @property
    def game(self):
        """The :class:`Game` played.

        >>> Game("lol:8").new_initial_state().game
        xo.Game('lol:8')
        """
        return self._game

    @property
    def position(self):
        """The position's text, as every report gives it.

        >>> s = Game("connect:4,4,3").new_initial_state(); s.apply_action(1); s.position
        '.............X..'
        """
        return self._position

    def _moves(self):
        if "report" not in self._here:
            self._here["report"] = self._game.moves(self._position)
        return self._here["report"]

    def _mover(self):
        """The index of the player to move, also once the game is over."""
        return self._game.players.index(self._moves().to_move)

    def current_player(self):
        """The player to move, ``0`` or ``1``; :data:`TERMINAL` (-4) once the game is over.

        >>> s = Game("lol:8").new_initial_state(); s.apply_action(0); s.current_player()
        1
        """
        return TERMINAL if self.is_terminal() else self._mover()

    def is_terminal(self):
        """Whether the game is over (a pattern completed, or no empty cell left).

        >>> Game("tictactoe").new_initial_state("XXXOO....").is_terminal()
        True
        """
        return bool(self._moves().over)

    def legal_actions(self, player=None):
        """The legal actions, ascending (none once the game is over, or for the player not to
        move when ``player`` is given).

        >>> Game("connect:4,4,3").new_initial_state("X...O...X...O...").legal_actions()
        [1, 2, 3]
        """
        if player is not None and player != self.current_player():
            return []
        return list(self._legal())

    def _legal(self):
        """The legal actions, ascending, with the position after each: from the position's
        moves report, read once."""
        if "after" not in self._here:
            number = self._game._action_named
            moves = dict.__getitem__(self._moves(), "moves")  # the report's plain data
            self._here["after"] = dict(sorted((number(m["move"]), m["position"]) for m in moves))
        return self._here["after"]

    def legal_actions_mask(self, player=None):
        """A list of ``num_distinct_actions`` numbers: 1 where the action is legal, else 0.

        >>> Game("tictactoe").new_initial_state("XO.......").legal_actions_mask()
        [0, 0, 1, 1, 1, 1, 1, 1, 1]
        """
        mask = [0] * self._game.num_distinct_actions()
        for a in self.legal_actions(player):
            mask[a] = 1
        return mask

    def apply_action(self, action):
        """Plays ``action``; ``BadInput`` naming it when it is not legal here.

        >>> s = Game("tictactoe").new_initial_state(); s.apply_action(4); s.position
        '....X....'
        >>> s.apply_action(4)
        Traceback (most recent call last):
            ...
        xo.BadInput: action 4 (move 5) is not legal in tictactoe position ....X....: legal actions are [0, 1, 2, 3, 5, 6, 7, 8]
        """
        number = self._game._action(action)
        after = self._legal().get(number)
        if after is None:
            why = "the game is over" if self.is_terminal() else (
                f"legal actions are {self.legal_actions()}")
            raise BadInput(f"action {number} (move {self._game.action_to_string(number)}) is "
                           f"not legal in {self._game.name} position {self._position}: {why}")
        self._before.append((self._position, self._here))
        self._history.append(number)
        self._position, self._here = after, {}

    def undo(self):
        """Takes back the last action (``BadInput`` when none was played).

        >>> s = Game("tictactoe").new_initial_state(); s.apply_action(4); s.undo(); s.history()
        []
        """
        if not self._history:
            raise BadInput("no action to undo: none was played from this state's start")
        self._history.pop()
        self._position, self._here = self._before.pop()

    def undo_action(self, player, action=None):
        """OpenSpiel's ``undo_action(player, action)`` (also ``undo_action(action)``): takes
        back the last action, which must be ``action`` played by ``player``.

        >>> s = Game("tictactoe").new_initial_state(); s.apply_action(4); s.undo_action(0, 4)
        >>> s.history()
        []
        """
        if action is None:
            player, action = None, player
        last = self._history[-1] if self._history else None
        if last is None or last != action:
            raise BadInput(f"action {action!r} is not the last action played (that is "
                           f"{last!r})")
        position, _ = self._before[-1]
        if player is not None and player != self._game.current_player(position):
            raise BadInput(f"the last action was not played by player {player!r}")
        self.undo()

    def clone(self):
        """An independent copy: actions played on one do not change the other.

        >>> s = Game("tictactoe").new_initial_state(); t = s.clone(); t.apply_action(0)
        >>> s.history(), t.history()
        ([], [0])
        """
        twin = State.__new__(State)
        twin._game = self._game
        # What is known of a position is the same for both (and never changed once known).
        twin._position, twin._here = self._position, dict(self._here)
        twin._history = list(self._history)
        twin._before = list(self._before)
        return twin

    def history(self):
        """The actions played from this state's start, in order.

        >>> s = Game("connect4").new_initial_state(); s.apply_action(3); s.apply_action(3)
        >>> s.history()
        [3, 3]
        """
        return list(self._history)

    def move_number(self):
        """How many actions were played from this state's start.

        >>> s = Game("tictactoe").new_initial_state(); s.apply_action(0); s.move_number()
        1
        """
        return len(self._history)

    def returns(self):
        """Each player's return: ``[1.0, -1.0]`` when player 0 won, ``[-1.0, 1.0]`` when
        player 1 won, ``[0.0, 0.0]`` for a draw or a game not over. The end's value is the
        solver's (the rules live in the core alone).

        >>> s = Game("tictactoe").new_initial_state("XX.OO....")
        >>> s.apply_action(2); s.returns()
        [1.0, -1.0]
        """
        if not self.is_terminal():
            return [0.0, 0.0]
        if "end" not in self._here:
            self._here["end"] = self._values(solve(self._game, self._position, no_moves=True))
        return list(self._here["end"])

    def rewards(self):
        """The rewards of the last action: the returns at the end, else ``[0.0, 0.0]`` (the
        games pay only at their end).

        >>> s = Game("tictactoe").new_initial_state("XX.OO...."); s.rewards()
        [0.0, 0.0]
        """
        return self.returns()

    def _values(self, report):
        mover = self._mover()
        score = {"win": 1.0, "draw": 0.0, "loss": -1.0}[report.value]
        values = [0.0, 0.0]
        values[mover] = score
        values[1 - mover] = -score if score else 0.0
        return values

    def value(self, **kwargs):
        """Each player's return under perfect play from here, as :meth:`returns` gives them at
        the end (``kwargs``: :func:`solve`'s budgets).

        >>> Game("mnk:4,3,3").new_initial_state().value()
        [1.0, -1.0]
        """
        return self._values(solve(self._game, self._position, value_only=True, **kwargs))

    def solve(self, **kwargs):
        """:func:`solve` of the position: its value, remoteness and every move's value.

        >>> Game("tictactoe").new_initial_state("XX.OO....").solve(winning=True).moves[0].move
        '3'
        """
        return solve(self._game, self._position, **kwargs)

    def action_to_string(self, player, action=None):
        """The move name of an action (OpenSpiel's ``action_to_string(player, action)``; also
        ``action_to_string(action)``).

        >>> Game("connect4").new_initial_state().action_to_string(0, 3)
        '4'
        """
        return self._game.action_to_string(player if action is None else action)

    def string_to_action(self, player, move=None):
        """The action number of a move name (OpenSpiel's ``string_to_action(player, move)``;
        also ``string_to_action(move)``).

        >>> Game("lol:8").new_initial_state().string_to_action("2O")
        3
        """
        return self._game.string_to_action(player if move is None else move)

    def observation_tensor(self, player=None):
        """The position as a NumPy ``float32`` array of :meth:`Game.observation_tensor_shape`:
        where each player owns a mark, the planes of ``player``'s marks (default: the player
        to move), the opponent's and the empty cells; else one plane for each letter of the
        alphabet, then the empty cells. Needs NumPy (``pip install xo[numpy]``).

        >>> t = Game("tictactoe").new_initial_state("X...O....").observation_tensor()
        >>> t.shape, float(t[0, 0, 0]), float(t[1, 1, 1]), float(t[2].sum())
        ((3, 3, 3), 1.0, 1.0, 7.0)
        """
        try:
            import numpy
        except ImportError:
            raise ImportError("observation_tensor needs NumPy: pip install numpy") from None
        if player is not None and (isinstance(player, bool) or player not in (0, 1)):
            raise BadInput(f"player must be 0 or 1, not {player!r}")
        planes, height, width = self._game.observation_tensor_shape()
        info = self._game._info
        cells = numpy.array(list("".join(self._position.split()))).reshape(height, width)
        tensor = numpy.zeros((planes, height, width), dtype=numpy.float32)
        if info["marks"] == "own":
            me = self._mover() if player is None else player
            marks = info["alphabet"][:2]
            tensor[0] = cells == marks[me]
            tensor[1] = cells == marks[1 - me]
        else:
            for i, letter in enumerate(info["alphabet"]):
                tensor[i] = cells == letter
        tensor[-1] = cells == "."
        return tensor

    def observation_string(self, player=None):
        """The position's text in rows (what ``str(state)`` gives).

        >>> Game("tictactoe").new_initial_state("X...O....").observation_string().split()
        ['X..', '.O.', '...']
        """
        return str(self)

    def __str__(self):
        text = "".join(self._position.split())
        width = self._game._info["width"]
        return "\n".join(text[i:i + width] for i in range(0, len(text), width))

    def __repr__(self):
        return f"xo.State({self._game.name!r}, {self._position!r})"


class Database:
    """A strong database folder written by ``xo solve GAME --strong --db DIR``: every position
    of its game, answered by lookup in the two tiers a position needs.

    ``query`` gives the report ``xo query DIR POSITION --json`` prints (the same as
    :func:`solve` gives, from the files). A database pickles as its folder (for a process
    pool's workers): unpickling opens the folder again, which must hold the same game.

    >>> import pickle, subprocess, tempfile                       # doctest: +SKIP
    >>> folder = tempfile.mkdtemp() + "/ttt"                      # doctest: +SKIP
    >>> _ = subprocess.run(["xo", "solve", "tictactoe", "--strong", "--db", folder])  # doctest: +SKIP
    >>> pickle.loads(pickle.dumps(Database(folder))).query("XX.OO....").value  # doctest: +SKIP
    'win'
    """

    def __init__(self, path):
        try:
            self._native = _xo.Database(_path(path, "the database folder"))
        except ValueError as e:
            raise BadInput(str(e)) from None

    @property
    def game(self):
        """The canonical name of the database's game."""
        return self._native.game

    @property
    def path(self):
        """The folder."""
        return self._native.path

    def query(self, position=None, *, winning=False, timeout=None, max_nodes=None,
              memory_mib=None):
        """The position's value, remoteness and every move's value (``winning``: only the
        winning moves), read from the database."""
        fields = _budgets(timeout, max_nodes, memory_mib)
        return _outcome(SolveResult, self._native.query(position, bool(winning), fields))

    def __reduce__(self):
        # Pickled as its folder's absolute path: unpickling opens it again (another process of
        # this machine, a pool's worker), and refuses a folder that holds another game by then.
        return (_reopen, (Database, _os.path.abspath(self.path), self._identity()))

    def _identity(self):
        return (self.game,)

    def __repr__(self):
        return f"xo.Database({str(self.path)!r})"


class Book:
    """An opening book of a gravity game (``xo book GAME --depth D`` writes one): the exact
    score of every position of its first moves, for ``solve(..., book=...)`` to consult. A book
    pickles as its file's path: unpickling reads the file again, which must hold the same book.

    >>> import pickle                                             # doctest: +SKIP
    >>> book = Book("connect-5-4-4.book")   # xo book connect:5,4,4 --depth 4  # doctest: +SKIP
    >>> solve("connect:5,4,4", book=pickle.loads(pickle.dumps(book))).value  # doctest: +SKIP
    'draw'
    """

    def __init__(self, path):
        self._path = _path(path, "the book file")
        try:
            self._native = _xo.Book(self._path)
        except ValueError as e:
            raise BadInput(str(e)) from None

    @property
    def path(self):
        """The book file it was read from.

        >>> Book("c.book").path    # doctest: +SKIP
        'c.book'
        """
        return self._path

    @property
    def game(self):
        """The board's canonical name."""
        return self._native.game

    @property
    def depth(self):
        """Moves from the empty board the book covers."""
        return self._native.depth

    def __len__(self):
        return len(self._native)

    def __reduce__(self):
        # Pickled as its file's absolute path: unpickling reads it again, and refuses a file
        # that holds another book by then (another board, depth or size).
        return (_reopen, (Book, _os.path.abspath(self._path), self._identity()))

    def _identity(self):
        return (self.game, self.depth, len(self))

    def __repr__(self):
        return f"xo.Book(game={self.game!r}, depth={self.depth}, positions={len(self)})"


def _build_game(game):
    """The game of a build as the command takes it: a name or a rules file's path."""
    if isinstance(game, Game):
        if "game" not in game._fields:
            raise BadInput("a game read from a rules file is built from the file: give its path")
        return game._fields["game"]
    if isinstance(game, (str, _os.PathLike)):
        return _os.fspath(game)
    raise BadInput(f"game must be a name, a rules file or an xo.Game, not {game!r}")


def _built(outcome):
    """The summary of a build, or the exception."""
    code, text, message = outcome
    if code == 0:
        return text
    if code == 2:
        raise BadInput(message)
    raise OverBudget(message, None, _json.loads(text) if text else None)


def build_database(game, path, *, timeout=None, max_nodes=None, memory_mib=None, threads=None):
    """Strong-solves ``game`` from the empty board into the folder ``path`` and opens it: the
    :class:`Database` of every position, as ``xo solve GAME --strong --db DIR`` writes it (the
    same code: tier by tier, each file checked and committed atomically, a folder of another game
    refused, a stopped build resumed by the next call). ``game`` is a name, a rules file's path
    or an :class:`Game` of a name. Budgets as for :func:`solve` (the whole build within them;
    ``threads``: every core by default); over one it raises :class:`OverBudget` with the tiers
    done kept, and Ctrl-C stops it.

    >>> import tempfile
    >>> db = build_database("tictactoe", tempfile.mkdtemp() + "/ttt")
    >>> db.query("XX.OO....").value == solve("tictactoe", "XX.OO....").value
    True
    """
    fields = _budgets(timeout, max_nodes, memory_mib, threads)
    _built(_xo.build_database(_build_game(game), _path(path, "the folder"), fields))
    return Database(path)


def build_book(game, path, depth, *, timeout=None, max_nodes=None, memory_mib=None):
    """Builds the opening book of a gravity game to ``depth`` moves into the file ``path`` and
    reads it: the :class:`Book` of the exact score of every position of its first ``depth``
    moves, as ``xo book GAME --depth D --out FILE`` writes it (the same code: a journal beside the
    file while it runs, so a stopped or killed build resumes; a book of another board or depth
    at ``path`` refused). Budgets as for :func:`solve`; over one it raises :class:`OverBudget`
    (the positions solved kept for the next call), and Ctrl-C stops it.

    >>> import tempfile
    >>> book = build_book("connect:4,4,3", tempfile.mkdtemp() + "/c443.book", 3)
    >>> book.depth, solve("connect:4,4,3", book=book).value
    (3, 'win')
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise BadInput(f"depth must be a whole number of moves (0 to 63), not {depth!r}")
    fields = _budgets(timeout, max_nodes, memory_mib)
    _built(_xo.build_book(_build_game(game), _path(path, "the book file"), min(depth, 64), fields))
    return Book(path)


def _reopen(kind, path, identity):
    """A pickled :class:`Database` or :class:`Book`, opened again from its path and checked to
    be the same one."""
    opened = kind(path)
    if opened._identity() != identity:
        raise BadInput(f"{path} changed since it was pickled: it was {identity}, it is "
                       f"{opened._identity()}")
    return opened
