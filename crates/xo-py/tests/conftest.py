"""What the tests share: the `xo` command to compare with, and its samples.

The command is `$XO_BIN` when set, else the workspace's release or debug build (`.ci/run` runs
`cargo test --workspace` first, which builds `target/debug/xo`). Every Python answer is compared
with what this command prints.
"""

import json
import os
import pathlib
import subprocess

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SAMPLES = ROOT / "crates" / "xo-cli" / "samples"


def _find_xo():
    if os.environ.get("XO_BIN"):
        return pathlib.Path(os.environ["XO_BIN"])
    for build in ("release", "debug"):
        path = ROOT / "target" / build / "xo"
        if path.is_file():
            return path
    return None


XO_BIN = _find_xo()


def run_xo(*args, stdin=None, expect=(0,)):
    """Runs the command; returns (exit status, stdout, stderr)."""
    if XO_BIN is None:
        pytest.fail("no xo binary: build it (cargo build -p xo-cli) or set XO_BIN")
    p = subprocess.run(
        [str(XO_BIN), *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode in expect, (args, p.returncode, p.stderr)
    return p.returncode, p.stdout, p.stderr


def xo_json(*args, expect=(0,)):
    """The command's --json report, parsed."""
    _, out, _ = run_xo(*args, "--json", expect=expect)
    return json.loads(out)


def xo_error(*args):
    """The command's message for bad input (exit 2), without its `xo: error: ` prefix."""
    _, _, err = run_xo(*args, expect=(2,))
    line = err.strip()
    assert line.startswith("xo: error: "), line
    return line[len("xo: error: "):]


def without_run_figures(report):
    """A report of a job stopped at its budget, without what differs from run to run (how many
    positions were visited past the budget's check, how long it took)."""
    report = json.loads(json.dumps(report))
    stopped = report.get("stopped") or {}
    for key in ("nodes", "elapsed_ms"):
        stopped.pop(key, None)
    report.pop("reason", None)
    return report
