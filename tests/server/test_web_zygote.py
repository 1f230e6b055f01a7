"""Browser tabs of ``pipeline-tui web`` forked from the web zygote (issue 38, point 4): each tab's
app is a child of one process that has the app and Textual's web driver loaded; a crash of a
tab or of the zygote takes nothing else down, the zygote comes back, no process outlives the
server (even killed with SIGKILL), and without fork tabs are spawned as before.

The fork replaces a private method of textual-serve (``AppService._open_app_process``); the
first test fails if textual-serve no longer starts a tab's process that way.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import os
import signal
import sys
from pathlib import Path

import aiohttp
import pytest
from textual_serve.app_service import AppService

from pipeline_tui.serve.web import overridable
from pipeline_tui.serve.zygote import SPAWN_ENV, Zygote, forking_available

from tests.server.sshterm import is_running, processes, until, zygotes
from tests.server.test_web_limits import GONE_WITHIN, alive, collected, first_output, make_web  # noqa: F401
from tests.test_web import Server

forking = pytest.mark.skipif(not forking_available({}), reason="tabs are forked on Linux only")


def parent(pid: int) -> int:
    return processes()[pid][0]


def command(pid: int) -> list[bytes]:
    return (Path("/proc") / str(pid) / "cmdline").read_bytes().split(b"\0")[:-1]


async def redraws(ws) -> None:
    """The tab's app is alive: it draws again at a new size."""
    size = 90 + os.getpid() % 7
    await ws.send_str(json.dumps(["resize", {"width": size, "height": 30}]))
    async with asyncio.timeout(30):
        while (await ws.receive()).type != aiohttp.WSMsgType.BINARY:
            pass


def test_textual_serve_starts_a_tab_as_tab_service_overrides_it():
    """textual-serve 1.1.3 (pinned) starts a tab's process in ``_open_app_process(width,
    height)``, keeps it in ``_process`` and writes to ``_stdin``, builds its environment in
    ``_build_environment(width, height)`` and reads the process's stdout and stderr in
    ``run()``. A textual-serve that does otherwise fails here (and its tabs are spawned)."""
    assert overridable(AppService)
    assert list(inspect.signature(AppService._open_app_process).parameters) == ["self", "width", "height"]
    assert list(inspect.signature(AppService._build_environment).parameters) == ["self", "width", "height"]
    run = inspect.getsource(AppService.run)
    assert "process.stdout" in run and "process.stderr" in run
    assert "await self._open_app_process(width, height)" in inspect.getsource(AppService.start)
    environment = inspect.getsource(AppService._build_environment)
    for name in ("TEXTUAL_DRIVER", "TEXTUAL_FPS", "TEXTUAL_COLOR_SYSTEM", "COLUMNS", "ROWS"):
        assert f'environment["{name}"]' in environment

    class Renamed(AppService):
        _open_app_process = None  # type: ignore[assignment]

    class Other(AppService):
        async def _open_app_process(self, size):  # type: ignore[override]
            return None

    assert not overridable(Renamed) and not overridable(Other)


@forking
async def test_a_crashed_tab_or_zygote_takes_nothing_else_down(make_web, monkeypatch):  # noqa: F811
    """Tabs are children of one zygote; SIGKILL of a tab's app ends it alone; SIGKILL of the
    zygote leaves the tabs playing and a new zygote forks the next one; once the server stops
    no process of any of them is left."""
    monkeypatch.delenv(SPAWN_ENV, raising=False)
    web = await make_web()
    async with web.connect() as one, web.connect() as two:
        await first_output(one)
        await first_output(two)
        (zygote,) = zygotes(os.getpid())
        first, second = web.pids()
        assert parent(first) == parent(second) == zygote
        assert command(zygote)[-2:] == [b"web", b"pipeline_tui.cli"]

        os.kill(second, signal.SIGKILL)  # one tab's app crashes
        await until(lambda: not is_running(second), "the killed app to end")
        await redraws(one)

        os.kill(zygote, signal.SIGKILL)  # the zygote dies: the tab plays on, a new one comes
        (again,) = await until(lambda: [z for z in zygotes(os.getpid()) if z != zygote], "a new zygote")
        await redraws(one)
        async with web.connect() as three:
            await first_output(three)
            (third,) = set(web.pids()) - {first, second}
            assert parent(third) == again
            async with asyncio.timeout(30):
                await web.server.stop()
    assert [pid for pid in (first, second, third, zygote, again) if alive(pid)] == []
    assert zygotes(os.getpid()) == []


@pytest.mark.parametrize("why", ["--spawn", SPAWN_ENV, "no pidfd", "no zygote"])
async def test_without_fork_tabs_are_spawned(make_web, monkeypatch, caplog, why):  # noqa: F811
    """``web --spawn``, ``PIPELINE_TUI_SPAWN=1``, a system without pidfds (as one without
    Linux's), or a zygote that cannot start: each tab's app is spawned by textual-serve, a
    child of the server running ``python -m pipeline_tui title ... --served web``."""
    caplog.set_level(logging.INFO, "pipeline_tui.web")
    monkeypatch.delenv(SPAWN_ENV, raising=False)
    fork = None
    if why == "--spawn":
        fork = False
    elif why == SPAWN_ENV:
        monkeypatch.setenv(SPAWN_ENV, "1")
    elif why == "no pidfd":
        monkeypatch.delattr(os, "pidfd_open", raising=False)
    else:

        async def cannot(self):
            raise OSError("no fork here")

        monkeypatch.setattr(Zygote, "start", cannot)
    web = await make_web(fork=fork)
    async with web.connect() as ws:
        await first_output(ws)
        (pid,) = web.pids()
        assert parent(pid) == os.getpid() and zygotes(os.getpid()) == []
        argv = command(pid)
        assert argv[:4] == [sys.executable.encode(), b"-m", b"pipeline_tui", b"title"]
        assert argv[-2:] == [b"--served", b"web"]
        await redraws(ws)
    assert any(r.getMessage() == "web: tabs spawned" for r in caplog.records)


@pytest.mark.parametrize("spawn", [False, True], ids=["forked", "spawned"])
async def test_killing_the_server_leaves_no_tab_behind(tmp_path, spawn):
    """SIGKILL of ``pipeline-tui web`` with two tabs open: the zygote and every tab's app end
    within 5 seconds (a tab's app hears its input pipe hang up)."""
    if not spawn and not forking_available({}):
        pytest.skip("tabs are forked on Linux only")
    served = Server(tmp_path / "saves", *(["--spawn"] if spawn else []))
    try:
        served.wait_for("in a browser")
        async with aiohttp.ClientSession() as session:
            url = f"http://127.0.0.1:{served.port}/ws"
            async with session.ws_connect(url) as one, session.ws_connect(url) as two:
                await first_output(one)
                await first_output(two)
                table = processes()
                children = [pid for pid, row in table.items() if row[0] == served.proc.pid]
                tree = children + [pid for pid, row in table.items() if row[0] in children]
                assert len(served.app_processes()) == 2
                assert len(tree) == (2 if spawn else 3)
                served.proc.kill()
                await until(
                    lambda: not any(map(is_running, tree)),
                    "every tab's app and the zygote to end",
                    timeout=GONE_WITHIN,
                )
    finally:
        served.stop()


@forking
async def test_a_tab_the_zygote_cannot_fork_is_spawned(make_web, monkeypatch, caplog):  # noqa: F811
    """A zygote that fails a request (dead, full, not answering): that tab's app is spawned
    instead, with one log line, and the pipes made for the fork are all closed."""
    caplog.set_level(logging.WARNING, "pipeline_tui.web")
    monkeypatch.delenv(SPAWN_ENV, raising=False)

    async def refuse(self, env, fds, memory=0, argv=None):
        raise OSError("the web zygote did not answer")

    monkeypatch.setattr(Zygote, "fork", refuse)
    web = await make_web()
    descriptors = len(os.listdir("/proc/self/fd"))
    async with web.connect() as ws:
        await first_output(ws)
        (pid,) = web.pids()
        assert parent(pid) == os.getpid()
        assert command(pid)[2:4] == [b"pipeline_tui", b"title"]
        (zygote,) = zygotes(os.getpid())
        assert is_running(zygote)
    await until(lambda: not web.server.tabs, "the tab to end")
    assert len(os.listdir("/proc/self/fd")) <= descriptors
    assert [r.getMessage() for r in caplog.records if "zygote failed" in r.getMessage()] == [
        "web: the web zygote failed (the web zygote did not answer); spawning the tab's app"
    ]
