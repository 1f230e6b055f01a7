"""README.md's promises: CI runs its two commands as written, and its Layout names every package."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme() -> str:
    return (ROOT / "README.md").read_text()


def test_ci_runs_the_readme_commands_as_written():
    commands = re.findall(r"```sh\n(.*?)\n```", readme(), re.S)
    assert len(commands) == 2
    install, test = commands
    assert install.endswith("pip install -e . && .venv/bin/pipeline-tui")  # no test extra to play
    assert "[test]" in test and test.endswith("pytest -q -n auto")  # one worker per core
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert [line for line in ci if line.startswith(install)] == [
        install + " </dev/null >/dev/null"
    ]  # no terminal in CI: the plain-text game, no input
    assert test in ci


def test_the_layout_names_every_package():
    layout = readme().split("## Layout", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"^- `(pipeline_tui/\w+)`", layout, re.M))
    packages = {f"pipeline_tui/{p.parent.name}" for p in (ROOT / "pipeline_tui").glob("*/__init__.py")}
    assert packages and named == packages
