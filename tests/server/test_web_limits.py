"""``pipeline-tui web`` facing hostile browsers and pages (issue 36, point 5): Origin and Host
checked, sizes clamped, a cap on tabs, hostile messages closing only their tab, and a closed
tab's app gone within 5 s even when it is blocked writing. The server runs in the test's event
loop on loopback; aiohttp's client plays the browser; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import logging
import os
import re
import socket
import time
from pathlib import Path

import aiohttp
import pytest

from pipeline_tui.serve.web import (
    QUIT_GRACE,
    Limits,
    make_server,
    message_problem,
    normal_origin,
    origin_refusal,
)

APP_START = 60.0  # seconds a tab's app may take to draw its first screen on a loaded machine
GONE_WITHIN = 5.0  # seconds a closed tab's app has to be gone (issue 36)


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie waiting to be reaped counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


async def gone(pid: int, within: float) -> float | None:
    """Seconds until ``pid`` is gone, or None if it is still there after ``within``."""
    start = time.monotonic()
    while time.monotonic() - start < within:
        if not alive(pid):
            return time.monotonic() - start
        await asyncio.sleep(0.05)
    return None


def free_port() -> int:
    """A free loopback port of this suite's range for web servers (28100-28199)."""
    for port in range(28110 + os.getpid() % 45, 28200):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError("no free port in 28110-28199")


class Web:
    """A ``web`` server in this event loop on a free loopback port, and a client for it."""

    def __init__(self, server, port: int, session: aiohttp.ClientSession) -> None:
        self.server = server
        self.port = port
        self.session = session
        self.origin = f"http://127.0.0.1:{port}"

    def connect(self, origin: str | None = "", host: str | None = None, query: str = "", **kw):
        headers = {}
        if origin is not None:
            headers["Origin"] = origin or self.origin
        if host is not None:
            headers["Host"] = host
        return self.session.ws_connect(f"{self.origin}/ws{query}", headers=headers, **kw)

    def pids(self) -> list[int]:
        return [tab.pid for tab in self.server.tabs.values() if tab.pid is not None]


async def first_output(ws) -> None:
    """Wait for the app's first screen (its first bytes)."""
    async with asyncio.timeout(APP_START):
        while True:
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                return
            assert message.type == aiohttp.WSMsgType.TEXT, message


@pytest.fixture(autouse=True)
def collected():
    """Garbage left by a test is collected once its event loop is closed, before anything
    else runs: CPython 3.11.7 corrupts its recursion count when a collection (of aiohttp's
    objects) happens inside ``ast.parse``, as when pytest later rewrites a module."""
    yield
    gc.collect()


@pytest.fixture
async def make_web(tmp_path):
    servers = []
    session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=APP_START))

    async def start(fork: bool | None = None, **limits) -> Web:
        port = free_port()
        server = make_server("127.0.0.1", port, tmp_path / "saves", None, Limits(**limits), fork)
        await server.start()
        servers.append(server)
        return Web(server, port, session)

    try:
        yield start
    finally:
        await session.close()
        for server in servers:
            async with asyncio.timeout(30):
                await server.stop()
        gc.collect()  # finalisers run here, in the loop, not in some later test


# --- the checks alone --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("origin", "host", "allowed", "refused"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", (), False),
        ("http://LOCALHOST:8000", "localhost:8000", (), False),
        ("http://[::1]:8000", "[::1]:8000", (), False),
        (None, "127.0.0.1:8000", (), False),  # not a browser: it could write any Origin
        ("http://evil.example", "127.0.0.1:8000", (), True),
        ("http://127.0.0.1:9000", "127.0.0.1:8000", (), True),  # another port, another origin
        ("https://127.0.0.1:8000", "127.0.0.1:8000", (), True),
        ("null", "127.0.0.1:8000", (), True),  # a sandboxed frame or a file
        ("http://evil.example:8000", "evil.example:8000", (), True),  # DNS rebinding
        ("http://game.example:8000", "game.example:8000", ("http://game.example:8000",), False),
        ("http://other.example", "127.0.0.1:8000", ("http://other.example:80",), False),
        ("http://127.0.0.1:8000", None, (), True),
    ],
)
def test_origin_refusal(origin, host, allowed, refused):
    reason = origin_refusal(origin, host, "http", "127.0.0.1", frozenset(normal_origin(a) for a in allowed))
    assert (reason is not None) == refused, reason
    if refused:
        assert "\n" not in reason and len(reason) < 200


def test_a_refusal_is_one_short_line_whatever_the_headers():
    reason = origin_refusal("http://" + "e\x1b[2J" * 2000 + ".example", "127.0.0.1:8000", "http", "127.0.0.1")
    assert reason is not None and "\x1b" not in reason and len(reason) < 400
    reason = origin_refusal(None, "x\x07" * 3000, "http", "127.0.0.1")
    assert reason is not None and "\x07" not in reason and len(reason) < 400


def test_a_host_named_by_host_is_its_own():
    assert origin_refusal("http://box.lan:8000", "box.lan:8000", "http", "box.lan") is None


@pytest.mark.parametrize(
    "message",
    [
        "not json",
        "{}",
        "[]",
        '["exec", "rm -rf ~"]',
        '[["stdin"], "x"]',
        '[{"type": "stdin"}]',
        '["' + "x" * 60_000 + '"]',
        '["stdin", 42]',
        '["stdin"]',
        '["resize", {"width": "wide", "height": 24}]',
        '["resize", {"width": true, "height": 24}]',
        '["resize", [80, 24]]',
        '["ping", {"a": 1}]',
        "[" * 100_000,
    ],
    ids=lambda message: message[:30],
)
def test_messages_the_page_never_sends(message):
    problem = message_problem(message, Limits())
    assert isinstance(problem, str) and "\n" not in problem and len(problem) < 120


@pytest.mark.parametrize(
    ("size", "clamped"),
    [((80, 24), (80, 24)), ((20000, 20000), (500, 200)), ((2**64, -5), (500, 1)), ((0, 0), (1, 1))],
)
def test_resize_is_clamped(size, clamped):
    message = json.dumps(["resize", {"width": size[0], "height": size[1]}])
    assert message_problem(message, Limits()) == ("resize", clamped)
    assert message_problem(message, Limits(max_cols=100, max_rows=40)) == (
        "resize",
        (min(clamped[0], 100), min(clamped[1], 40)),
    )


# --- over loopback -----------------------------------------------------------------------------


async def test_a_foreign_origin_gets_403_and_a_log_line(make_web, caplog):
    web = await make_web()
    caplog.set_level(logging.WARNING, "pipeline_tui.web")
    for origin, host in (
        ("http://evil.example", None),
        (f"http://evil.example:{web.port}", f"evil.example:{web.port}"),
    ):
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            async with web.connect(origin=origin, host=host):
                pass
        assert refused.value.status == 403
    lines = [r.getMessage() for r in caplog.records if "refused a tab" in r.getMessage()]
    assert len(lines) == 2 and "evil.example" in lines[0]
    assert web.server.tabs == {}


async def test_an_allowed_origin_plays(make_web):
    web = await make_web(allow_origins=("http://game.example:8443",))
    async with web.connect(origin="http://game.example:8443") as ws:
        await first_output(ws)
        assert len(web.pids()) == 1


@pytest.mark.parametrize(
    ("send", "kind"),
    [
        ("text", "not json"),
        ("text", '["exec", "rm -rf ~"]'),
        ("text", '["resize", {"width": "x"}]'),
        ("bytes", b"\x00" * 100),
        ("text", '["stdin", "' + "a" * 200_000 + '"]'),  # over the 64 KiB a message may be
    ],
    ids=["not-json", "unknown", "bad-resize", "binary", "huge"],
)
async def test_a_hostile_message_closes_its_tab_alone(make_web, caplog, send, kind):
    web = await make_web()
    caplog.set_level(logging.WARNING, "pipeline_tui.web")
    async with web.connect() as good:
        await first_output(good)
        (good_pid,) = web.pids()
        async with web.connect() as bad:
            await first_output(bad)
            (bad_pid,) = set(web.pids()) - {good_pid}
            await (bad.send_str(kind) if send == "text" else bad.send_bytes(kind))
            async with asyncio.timeout(10):
                while (await bad.receive()).type not in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                    pass
            assert bad.close_code in (1008, 1009)
            assert await gone(bad_pid, GONE_WITHIN) is not None
        assert alive(good_pid) and not good.closed
        await good.send_str(json.dumps(["ping", "still here"]))
        async with asyncio.timeout(10):
            while (message := await good.receive()).type != aiohttp.WSMsgType.TEXT:
                pass
        assert json.loads(message.data) == ["pong", "still here"]
    closed = [r.getMessage() for r in caplog.records if "closed the tab" in r.getMessage()]
    assert len(closed) == 1 and "\n" not in closed[0]


async def test_tabs_are_capped_with_a_line_in_the_page(make_web, caplog):
    web = await make_web(max_tabs=2)
    caplog.set_level(logging.WARNING, "pipeline_tui.web")
    async with web.connect() as one, web.connect() as two:
        await first_output(one)
        await first_output(two)
        async with web.connect() as three:
            async with asyncio.timeout(10):
                message = await three.receive()
                assert message.type == aiohttp.WSMsgType.BINARY
                assert message.data.decode().strip() == "The server is full (2 tabs); try again later."
                assert (await three.receive()).type == aiohttp.WSMsgType.CLOSE
            assert three.close_code == 1013
        assert len(web.pids()) == 2
    assert any("2 tabs are open" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("fork", [True, False], ids=["forked", "spawned"])
async def test_the_first_size_is_clamped_too(make_web, fork):
    """The app draws its first screen at 500x200 (its bottom row is 200, the title's block
    centred from column 221), whether its process was forked or spawned."""
    web = await make_web(fork=fork)
    async with web.connect(query="?width=20000&height=20000") as ws:
        shown = b""
        async with asyncio.timeout(APP_START):
            while b"Rules and keys" not in shown:
                message = await ws.receive()
                if message.type == aiohttp.WSMsgType.BINARY:
                    shown += message.data
    places = [(int(row), int(column)) for row, column in re.findall(rb"\x1b\[(\d+);(\d+)H", shown)]
    assert max(row for row, _column in places) == 200
    assert b"\x1b[94;221H" in shown  # the title's first line, centred in 500 columns


@pytest.mark.parametrize("fork", [True, False], ids=["forked", "spawned"])
async def test_a_closed_tab_blocked_writing_is_gone_within_5_s(make_web, fork):
    """The attack of issue 36: resize to 20000x20000, then close the tab without reading. The app
    is left blocked writing its screen to a pipe nobody reads; it must still be gone in 5 s."""
    web = await make_web(fork=fork)
    ws = await web.connect(autoping=False, heartbeat=None).__aenter__()
    transport = ws._response.connection.transport  # to close the tab without a goodbye
    try:
        await first_output(ws)
        (pid,) = web.pids()
        # never read again; the Components (F7) redrawn at two sizes over and over, until its
        # output fills the socket, the server's buffer and the pipe, and the app waits on it
        await ws.send_str(json.dumps(["stdin", "\x1b[18~"]))
        async with asyncio.timeout(APP_START):
            for i in itertools.count():
                if "pipe_write" in Path(f"/proc/{pid}/wchan").read_text():
                    break
                size = 20000 - i % 2
                await ws.send_str(json.dumps(["resize", {"width": size, "height": size}]))
                await asyncio.sleep(0.05)
    finally:
        transport.abort()
    took = await gone(pid, GONE_WITHIN)
    assert took is not None, f"app {pid} still there {GONE_WITHIN} s after its tab closed"
    async with asyncio.timeout(QUIT_GRACE):
        while web.server.tabs:  # its place freed for another tab
            await asyncio.sleep(0.05)


@pytest.mark.parametrize("fork", [True, False], ids=["forked", "spawned"])
async def test_stopping_the_server_ends_every_tab(make_web, fork):
    web = await make_web(fork=fork)
    async with web.connect() as one, web.connect() as two:
        await first_output(one)
        await first_output(two)
        pids = web.pids()
        async with asyncio.timeout(30):
            await web.server.stop()
    assert [pid for pid in pids if alive(pid)] == []
    assert os.getpid()  # the test process itself carries on


async def test_a_screenshot_goes_to_the_browser_not_the_disk(make_web, tmp_path, monkeypatch):
    """The palette's Screenshot in a tab: textual-serve hands the browser a single-use download
    of the SVG; nothing is written in the server user's Downloads (issue 36, point 3). One at a
    time: another is refused until the browser has fetched the last."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # where Textual would save it
    monkeypatch.setenv("XDG_DOWNLOAD_DIR", str(tmp_path / "home" / "Downloads"))
    web = await make_web()
    async with web.connect() as ws:
        await first_output(ws)

        async def screenshot(answer: bytes | None = None) -> str | None:
            """Screenshot from the palette: its download key, or None once ``answer`` shows."""
            shown = b""
            steps = [
                ("\x10", b"Search for commands"),
                ("Screenshot", b"Download an SVG picture"),
                ("\r", None),
            ]
            async with asyncio.timeout(APP_START):
                for keys, wait_for in steps:
                    await ws.send_str(json.dumps(["stdin", keys]))
                    while wait_for is not None and wait_for not in shown:
                        message = await ws.receive()
                        if message.type == aiohttp.WSMsgType.BINARY:
                            shown += message.data
                while True:
                    message = await ws.receive()
                    if message.type == aiohttp.WSMsgType.TEXT:
                        kind, key = json.loads(message.data)
                        if kind == "deliver_file_start":
                            return key
                    elif answer is not None and answer in (shown := shown + message.data):
                        return None

        key = await screenshot()
        async with web.session.get(f"{web.origin}/download/{key}") as response:
            assert response.status == 200
            assert response.headers["Content-Disposition"].endswith(".svg")
            svg = await response.text()
        assert svg.lstrip().startswith("<svg") and "PIPELINE" in svg.replace("&#160;", " ").upper()
        async with web.session.get(f"{web.origin}/download/{key}") as again:
            assert again.status == 404  # single use
        second = await screenshot()  # the first was fetched: another may go
        assert second is not None and second != key
        assert await screenshot(answer=b"still on its way") is None  # the second is not fetched
    assert not (tmp_path / "home").exists()


async def test_a_compressed_bomb_is_cut_at_the_limit(make_web, caplog):
    """50 MB of one letter, deflated to about 50 KB: the server inflates no more than 64 KiB."""
    web = await make_web()
    caplog.set_level(logging.WARNING, "pipeline_tui.web")
    async with web.connect(compress=15) as ws:
        await first_output(ws)
        assert ws.compress == 15  # permessage-deflate agreed
        (pid,) = web.pids()
        await ws.send_str('["stdin", "' + "a" * 50_000_000 + '"]')
        async with asyncio.timeout(10):
            while (await ws.receive()).type not in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                pass
        assert ws.close_code == 1009
    assert await gone(pid, GONE_WITHIN) is not None
    assert any("exceeds limit 65536" in r.getMessage() for r in caplog.records)
