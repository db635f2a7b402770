"""The random_game example, run as a program for every game and with bad input."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import free_port
from games import VARIANTS

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "random_game.py"
RESULT = re.compile(
    r"^result: (?P<variant>\w+) (?P<game_id>\S+) version=(?P<version>\d+) "
    r"winners=\[(?P<winners>(\d+(,\d+)*)?)\] draw=(?P<draw>true|false) "
    r"reason=(?P<reason>END_REASON_[A-Z_]+)$"
)


def run_example(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_plays_every_variant_to_the_end(server_addr: str, variant: str) -> None:
    done = run_example("--addr", server_addr, "--variant", variant, "--seed", "5", "--api-key", "k")
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    match = RESULT.match(last)
    assert match, last
    assert match["variant"] == variant
    assert int(match["version"]) > 0
    assert (match["draw"] == "true") == (match["winners"] == "")
    assert match["reason"] != "END_REASON_UNSPECIFIED"


def test_more_seats(server_addr: str) -> None:
    done = run_example("--addr", server_addr, "--variant", "pile_chess", "--seats", "3")
    assert done.returncode == 0, done.stderr
    assert RESULT.match(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    "args",
    [
        ("--addr", f"127.0.0.1:{free_port()}", "--variant", "chuno"),
        ("--addr", "not an address", "--variant", "chuno"),
        ("--variant", "no_such_game"),
    ],
    ids=["unreachable", "malformed", "unknown-variant"],
)
def test_bad_input_exits_2_with_one_error_line(server_addr: str, args: tuple[str, ...]) -> None:
    if "--addr" not in args:
        args = ("--addr", server_addr, *args)
    done = run_example(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: ")
