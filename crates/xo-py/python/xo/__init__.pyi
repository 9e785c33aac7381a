"""Type stubs of xo: placement games solved exactly (see the package's docstrings)."""

from os import PathLike
from pathlib import Path
from typing import Any, Dict, Iterable, KeysView, List, Optional, Sequence, Tuple, Union, overload

__all__ = [
    "solve", "count", "check", "grundy", "solve_many", "best_move", "build_database",
    "build_book", "Game", "State", "TERMINAL",
    "Database", "Book",
    "Result", "SolveResult", "CountResult", "CheckResult", "GrundyResult", "MovesResult",
    "AfterResult", "BestResult", "Record", "Move", "BadInput", "OverBudget", "CORES",
]

CORES: int
TERMINAL: int

_GameArg = Union[str, "PathLike[str]", "Game"]

class BadInput(ValueError): ...

class OverBudget(RuntimeError):
    result: Optional[Result]
    stopped: Optional[Dict[str, Any]]
    def __init__(
        self, message: str, result: Optional[Result] = ..., stopped: Optional[Dict[str, Any]] = ...
    ) -> None: ...
    @property
    def limit(self) -> Optional[str]: ...

class Record:
    def __init__(self, data: Dict[str, Any]) -> None: ...
    def __getattr__(self, name: str) -> Any: ...
    def __getitem__(self, name: str) -> Any: ...
    def __contains__(self, name: object) -> bool: ...
    def keys(self) -> KeysView[str]: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Move(Record):
    move: str
    value: Optional[str]
    remoteness: Optional[int]
    score: Optional[int]
    position: Optional[str]

class Result(Record): ...

class SolveResult(Result):
    game: str
    position: str
    to_move: str
    value: str
    remoteness: Optional[int]
    score: Optional[int]
    moves: Optional[List[Move]]
    heap_values: Optional[List[int]]
    nim_sum: Optional[int]
    winning_moves: Optional[List[Record]]
    heap_moves: Optional[List[Record]]
    threats: Optional[Record]
    engine: str
    note: Optional[str]
    reason: Optional[str]
    stopped: Optional[Record]

class CountResult(Result):
    game: str
    position: str
    first_player_wins: Union[int, str]
    second_player_wins: Union[int, str]
    draws: Union[int, str]
    games: Union[int, str]
    positions: Union[int, str]
    by_length: Optional[List[Record]]
    reason: Optional[str]
    stopped: Optional[Record]

class CheckResult(Result):
    game: str
    position: str
    reachable: Optional[bool]
    reason: Optional[str]
    stopped: Optional[Record]
    def __bool__(self) -> bool: ...

class GrundyResult(Result):
    game: str
    upto: int
    values: Any  # numpy.ndarray of uint32 when NumPy can be imported, else List[int]
    period: Optional[int]
    preperiod: Optional[int]
    largest: int
    largest_at: int
    mask: Optional[int]
    mask_domain: bool
    rare_heaps: int
    common_heaps: int
    rare_values: List[int]
    reason: Optional[str]
    stopped: Optional[Record]

class MovesResult(Result):
    game: str
    position: str
    to_move: str
    over: bool
    moves: List[Move]

class AfterResult(Result):
    game: str
    position: str
    move: str
    after: str
    to_move: str
    over: bool

class BestResult(Result):
    game: str
    position: str
    to_move: str
    best: Optional[Move]
    proven: bool
    engine: str
    reason: Optional[str]
    stopped: Optional[Record]

def solve(
    game: _GameArg,
    position: Optional[str] = None,
    *,
    moves: Optional[str] = None,
    winning: bool = False,
    value_only: bool = False,
    no_moves: bool = False,
    line: bool = False,
    threats: bool = False,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    memory_mib: Optional[int] = None,
    threads: Optional[int] = None,
    book: Optional[Book] = None,
    no_book: bool = False,
) -> SolveResult: ...
def count(
    game: _GameArg,
    position: Optional[str] = None,
    *,
    moves: Optional[str] = None,
    by_length: bool = False,
    dense: bool = False,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    memory_mib: Optional[int] = None,
) -> CountResult: ...
def check(
    game: _GameArg,
    position: Optional[str] = None,
    *,
    moves: Optional[str] = None,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    memory_mib: Optional[int] = None,
) -> CheckResult: ...
def grundy(
    game: _GameArg,
    upto: int,
    *,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    memory_mib: Optional[int] = None,
) -> GrundyResult: ...
def best_move(
    game: _GameArg,
    position: Optional[str] = None,
    *,
    moves: Optional[str] = None,
    depth: Optional[int] = None,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    memory_mib: Optional[int] = None,
    threads: Optional[int] = None,
    book: Optional[Book] = None,
    no_book: bool = False,
) -> BestResult: ...
def solve_many(
    game: _GameArg,
    positions: Optional[Iterable[str]] = None,
    *,
    moves: Optional[Iterable[str]] = None,
    winning: bool = False,
    value_only: bool = False,
    no_moves: bool = False,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    memory_mib: Optional[int] = None,
    threads: Optional[int] = None,
    book: Optional[Book] = None,
    no_book: bool = False,
) -> List[SolveResult]: ...

def build_database(
    game: _GameArg,
    path: Union[str, "PathLike[str]"],
    *,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    memory_mib: Optional[int] = None,
    threads: Optional[int] = None,
) -> Database: ...
def build_book(
    game: _GameArg,
    path: Union[str, "PathLike[str]"],
    depth: int,
    *,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    memory_mib: Optional[int] = None,
) -> Book: ...

class Game:
    def __init__(self, name: _GameArg) -> None: ...
    @property
    def name(self) -> str: ...
    def describe(self) -> Dict[str, Any]: ...
    def empty(self) -> str: ...
    def moves(self, position: Optional[str] = None) -> MovesResult: ...
    @property
    def players(self) -> Tuple[str, str]: ...
    def to_move(self, position: Optional[str] = None) -> str: ...
    def current_player(self, position: Optional[str] = None) -> int: ...
    def legal_moves(self, position: Optional[str] = None) -> List[str]: ...
    def play(self, position: str, move: Union[str, int]) -> str: ...
    def is_over(self, position: str) -> bool: ...
    def solve(self, position: Optional[str] = None, **kwargs: Any) -> SolveResult: ...
    def best_move(self, position: Optional[str] = None, **kwargs: Any) -> Optional[str]: ...
    def new_initial_state(self, position: Optional[str] = None) -> State: ...
    def num_players(self) -> int: ...
    def num_distinct_actions(self) -> int: ...
    def action_to_string(self, action: int) -> str: ...
    def string_to_action(self, move: str) -> int: ...
    def observation_tensor_shape(self) -> Tuple[int, int, int]: ...

class State:
    def __init__(self, game: _GameArg, position: Optional[str] = None) -> None: ...
    @property
    def game(self) -> Game: ...
    @property
    def position(self) -> str: ...
    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def legal_actions(self, player: Optional[int] = None) -> List[int]: ...
    def legal_actions_mask(self, player: Optional[int] = None) -> List[int]: ...
    def apply_action(self, action: int) -> None: ...
    def undo(self) -> None: ...
    @overload
    def undo_action(self, action: int) -> None: ...
    @overload
    def undo_action(self, player: int, action: int) -> None: ...
    def clone(self) -> State: ...
    def history(self) -> List[int]: ...
    def move_number(self) -> int: ...
    def returns(self) -> List[float]: ...
    def rewards(self) -> List[float]: ...
    def value(self, **kwargs: Any) -> List[float]: ...
    def solve(self, **kwargs: Any) -> SolveResult: ...
    @overload
    def action_to_string(self, action: int) -> str: ...
    @overload
    def action_to_string(self, player: int, action: int) -> str: ...
    @overload
    def string_to_action(self, move: str) -> int: ...
    @overload
    def string_to_action(self, player: int, move: str) -> int: ...
    def observation_tensor(self, player: Optional[int] = None) -> Any: ...  # numpy.ndarray, float32
    def observation_string(self, player: Optional[int] = None) -> str: ...

class Database:
    def __init__(self, path: Union[str, "PathLike[str]"]) -> None: ...
    @property
    def game(self) -> str: ...
    @property
    def path(self) -> Path: ...
    def query(
        self,
        position: Optional[str] = None,
        *,
        winning: bool = False,
        timeout: Optional[float] = None,
        max_nodes: Optional[int] = None,
        memory_mib: Optional[int] = None,
    ) -> SolveResult: ...

class Book:
    def __init__(self, path: Union[str, "PathLike[str]"]) -> None: ...
    @property
    def path(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def depth(self) -> int: ...
    def __len__(self) -> int: ...
