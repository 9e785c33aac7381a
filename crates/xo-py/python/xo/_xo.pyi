"""Type stubs of xo._xo, the native half of xo (use the package `xo`, not this module)."""

from os import PathLike
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Optional, Tuple, Union, final

__all__ = [
    "ask", "ask_many", "describe_game", "build_database", "build_book", "Database", "Book", "CORES",
]

CORES: int

_Outcome = Tuple[int, str, str]

def ask(fields: Mapping[str, Any], book: Optional[Book] = None) -> _Outcome: ...
def ask_many(
    fields: Mapping[str, Any],
    positions: Iterable[str],
    make: Callable[[str], Any],
    book: Optional[Book] = None,
    columns: bool = False,
) -> Tuple[int, Any, str, int]: ...
def describe_game(fields: Mapping[str, Any]) -> _Outcome: ...
def build_database(game: str, path: Union[str, PathLike[str]], fields: Mapping[str, Any]) -> _Outcome: ...
def build_book(
    game: str, path: Union[str, PathLike[str]], depth: int, fields: Mapping[str, Any]
) -> _Outcome: ...

@final
class Database:
    def __new__(cls, path: Union[str, PathLike[str]]) -> Database: ...
    @property
    def game(self) -> str: ...
    @property
    def path(self) -> Path: ...
    def query(self, position: Optional[str], winning: bool, fields: Mapping[str, Any]) -> _Outcome: ...

@final
class Book:
    def __new__(cls, path: Union[str, PathLike[str]]) -> Book: ...
    @property
    def game(self) -> str: ...
    @property
    def depth(self) -> int: ...
    def __len__(self) -> int: ...
