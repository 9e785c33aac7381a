"""Bad input raises xo.BadInput with the message the command prints (exit 2); a job over its
budget raises xo.OverBudget naming the budget, with the report the command prints (exit 3)."""

import pytest
import xo
from conftest import xo_error, xo_json, without_run_figures

BAD = [
    (("chess",), {}, ["solve", "chess"]),
    (("tictactoe", "XXXXX...."), {}, ["solve", "tictactoe", "XXXXX...."]),
    (("tictactoe", "XX"), {}, ["solve", "tictactoe", "XX"]),
    (("tictactoe", "b........"), {}, ["solve", "tictactoe", "b........"]),
    (("connect4",), {"moves": "48"}, ["solve", "connect4", "--moves", "48"]),
    (("mnk:9,9,5",), {}, ["solve", "mnk:9,9,5"]),
]


@pytest.mark.parametrize("args,kwargs,command", BAD)
def test_bad_input_is_the_commands_message(args, kwargs, command):
    with pytest.raises(xo.BadInput) as e:
        xo.solve(*args, **kwargs)
    assert str(e.value) == xo_error(*command)
    assert isinstance(e.value, ValueError)


def test_a_kernel_cap_naming_no_kernel_is_refused_as_by_the_command(monkeypatch):
    monkeypatch.setenv("XO_GRUNDY_KERNEL", "avx9")
    message = xo_error("grundy", "kayles", "--upto", "10")
    assert "XO_GRUNDY_KERNEL" in message
    with pytest.raises(xo.BadInput) as e:
        xo.grundy("kayles", upto=10)
    assert str(e.value) == message
    monkeypatch.setenv("XO_GRUNDY_KERNEL", "scalar")
    assert list(xo.grundy("kayles", upto=10)["values"][:4]) == [0, 1, 2, 3]


def test_bad_keywords_are_named():
    with pytest.raises(xo.BadInput, match="exclude each other"):
        xo.solve("tictactoe", winning=True, value_only=True)
    with pytest.raises(xo.BadInput, match="timeout must be a positive number"):
        xo.solve("tictactoe", timeout=-1)
    with pytest.raises(xo.BadInput, match="max_nodes must be a whole number"):
        xo.solve("tictactoe", max_nodes="many")
    with pytest.raises(xo.BadInput, match="position must be a string"):
        xo.solve("tictactoe", 12)
    with pytest.raises(xo.BadInput, match="check needs a POSITION"):
        xo.check("tictactoe")
    with pytest.raises(xo.BadInput, match="give the position or the moves, not both"):
        xo.solve("connect4", ".", moves="4")
    with pytest.raises(xo.BadInput):
        xo.grundy("tictactoe", 10)
    with pytest.raises(xo.BadInput, match="game must be a name"):
        xo.solve(42)
    with pytest.raises(xo.BadInput, match="cannot read rules file"):
        xo.solve("/no/such/rules.toml")


def test_bad_game_names_raise_in_game():
    with pytest.raises(xo.BadInput) as e:
        xo.Game("chess")
    assert str(e.value) == xo_error("solve", "chess")
    with pytest.raises(xo.BadInput):
        xo.Game("tictactoe").play("XX.OO....", "1")


@pytest.mark.parametrize("limit,kwargs,flag", [
    ("nodes", {"max_nodes": 1000}, ["--max-nodes", "1000"]),
    ("time", {"timeout": 0.05}, ["--timeout", "0.05"]),
])
def test_over_budget_names_the_budget_and_keeps_the_report(limit, kwargs, flag):
    with pytest.raises(xo.OverBudget) as e:
        xo.solve("connect:7,5,4", **kwargs)
    over = e.value
    assert over.limit == limit == over.stopped["limit"]
    keyword = next(iter(kwargs))
    assert f"raise it with {keyword}=" in str(over)
    assert over.result.value == "unknown"
    expected = xo_json("solve", "connect:7,5,4", *flag, expect=(3,))
    assert without_run_figures(over.result.to_dict()) == without_run_figures(expected)


def test_over_the_memory_budget():
    with pytest.raises(xo.OverBudget) as e:
        xo.count("mnk:4,4,4", memory_mib=1)
    assert e.value.limit == "memory" and "memory_mib=" in str(e.value)


def test_count_and_grundy_over_budget_keep_their_shape():
    with pytest.raises(xo.OverBudget) as e:
        xo.count("mnk:4,4,4", max_nodes=100)
    assert e.value.result.games == "unknown"
    expected = xo_json("count", "mnk:4,4,4", "--max-nodes", "100", expect=(3,))
    assert without_run_figures(e.value.result.to_dict()) == without_run_figures(expected)
    with pytest.raises(xo.OverBudget) as e:
        xo.grundy("octal:0.137", 10_000_000, max_nodes=10)
    assert e.value.limit == "nodes"


def test_solve_many_names_the_bad_position():
    with pytest.raises(xo.BadInput, match=r"^positions\[2\]: ") as e:
        xo.solve_many("tictactoe", ["XX.OO....", ".........", "XXX......"])
    assert str(e.value).endswith(xo_error("solve", "tictactoe", "XXX......"))
    with pytest.raises(xo.BadInput, match=r"positions\[1\] is not a string"):
        xo.solve_many("tictactoe", [".........", 7])
    with pytest.raises(xo.BadInput, match="not one string"):
        xo.solve_many("tictactoe", ".........")


def test_solve_many_over_its_budget():
    with pytest.raises(xo.OverBudget) as e:
        xo.solve_many("connect:7,5,4", ["." * 35, "." * 34 + "X"], max_nodes=1000)
    assert e.value.limit == "nodes"
