"""Fixtures shared by the UI and server tests."""

from __future__ import annotations

import gc
import os
import secrets
import signal
import time
from pathlib import Path

import pytest
from textual.screen import Screen

RUN_MARK = "PIPELINE_TUI_TEST_RUN"  # in the environment of every process the suite starts
LEFT_WITHIN = 5.0  # seconds the suite's processes have to end once the last test is done


def marked_processes(mark: str) -> list[int]:
    """The live processes (not this one) whose environment holds ``RUN_MARK=mark``."""
    needle = f"{RUN_MARK}={mark}".encode()
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        if int(proc.name) == os.getpid():
            continue
        try:
            if needle in (proc / "environ").read_bytes().split(b"\0"):
                found.append(int(proc.name))
        except OSError:  # gone, a zombie, or not ours
            continue
    return sorted(found)


@pytest.fixture(scope="session", autouse=True)
def no_process_left_behind():
    """The suite leaves no process behind: everything it starts (servers, their sessions,
    browsers) inherits a mark, and once the last test is done nothing marked may be left.
    Any still there after LEFT_WITHIN seconds are killed and named in the error."""
    mark = secrets.token_hex(8)
    os.environ[RUN_MARK] = mark
    yield
    deadline = time.monotonic() + LEFT_WITHIN
    while (left := marked_processes(mark)) and time.monotonic() < deadline:
        time.sleep(0.1)
    described = []
    for pid in left:
        try:
            command = (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ")
            os.kill(pid, signal.SIGKILL)
        except OSError:
            continue
        described.append(f"{pid}: {command.decode(errors='replace').strip()}")
    assert not described, "processes left behind by the tests:\n" + "\n".join(described)


@pytest.fixture(scope="session", autouse=True)
def own_settings(tmp_path_factory):
    """No test reads or writes the settings of the person running the suite (the language
    remembered from the palette) nor their cache (the parsed stylesheet, ``ui.css_cache``):
    XDG_CONFIG_HOME and XDG_CACHE_HOME are folders of the suite's own, inherited by every
    process it starts."""
    old = {name: os.environ.get(name) for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME")}
    os.environ["XDG_CONFIG_HOME"] = str(tmp_path_factory.mktemp("config"))
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    for name, value in old.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture
def layouts(monkeypatch) -> list[Screen]:
    """Every layout of a screen from now on (Textual's Screen._refresh_layout)."""
    seen: list[Screen] = []
    real = Screen._refresh_layout

    def counted(screen, *args, **kwargs):
        seen.append(screen)
        return real(screen, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    return seen


@pytest.fixture
def russian():
    """Russian for one test, English again after it (the suite's language)."""
    from pipeline_tui import i18n

    i18n.set_language("ru")
    try:
        yield
    finally:
        i18n.set_language("en")


@pytest.fixture(autouse=True)
def heap_unfrozen():
    """Each test starts with nothing frozen for the garbage collector: ``cli.main`` freezes the
    heap it starts with (``_settle_heap``), which would otherwise carry into the next test run
    in the same process and change what a test of freezing sees."""
    gc.unfreeze()
    yield
    gc.unfreeze()
