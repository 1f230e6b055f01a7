"""The web attacks of issue 36, replayed against a `pipeline-tui web` server of its own on
loopback: each prints held or broke with its figure.

    python benchmarks/attack_web.py

``ATTACKS`` (name, coroutine returning ``(held, figure)``) is what benchmarks/attack.py runs
with the SSH attacks; each attack starts and stops its own server on a free loopback port
(28100-28199), and every wait is bounded. Figures go to docs/security-web.md.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import socket
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline_tui.serve.web import Limits, make_server  # noqa: E402

APP_START = 60.0  # seconds an app may take to draw its first screen on a loaded machine
GONE_WITHIN = 5.0  # seconds a closed tab's app has to be gone
TABS = 30  # tabs the cap attack opens


def free_port() -> int:
    for port in range(28100, 28200):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 28100-28199")


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Target:
    """A web server of the attack's own and an aiohttp client session to attack it with."""

    def __init__(self, server: Any, session: aiohttp.ClientSession, port: int) -> None:
        self.server = server
        self.session = session
        self.url = f"http://127.0.0.1:{port}"

    def tab(self, origin: str | None = None, **kw: Any) -> Any:
        return self.session.ws_connect(f"{self.url}/ws", headers={"Origin": origin or self.url}, **kw)

    def pids(self) -> list[int]:
        return [tab.pid for tab in self.server.tabs.values() if tab.pid is not None]


@asynccontextmanager
async def target(**limits: Any) -> AsyncIterator[Target]:
    quiet = logging.getLogger("pipeline_tui.web")  # the server's lines about our attacks
    quiet.propagate, was = False, quiet.propagate
    quiet.addHandler(silence := logging.NullHandler())
    with tempfile.TemporaryDirectory(prefix="attack-web-") as folder:
        port = free_port()
        server = make_server("127.0.0.1", port, Path(folder) / "saves", None, Limits(**limits))
        await server.start()
        session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=APP_START))
        try:
            yield Target(server, session, port)
        finally:
            await session.close()
            await asyncio.wait_for(server.stop(), 60)
            quiet.removeHandler(silence)
            quiet.propagate = was


async def first_output(ws: Any) -> None:
    async with asyncio.timeout(APP_START):
        while (await ws.receive()).type != aiohttp.WSMsgType.BINARY:
            pass


async def until_closed(ws: Any, within: float = 10.0) -> None:
    async with asyncio.timeout(within):
        while (await ws.receive()).type not in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            pass


async def foreign_origin() -> tuple[bool, str]:
    """A page elsewhere (and one whose name points here: DNS rebinding) opens a game."""
    async with target() as t:
        statuses = []
        port = t.url.rsplit(":", 1)[1]
        for origin, host in (
            ("http://evil.example", None),
            (f"http://evil.example:{port}", f"evil.example:{port}"),
        ):
            headers = {"Origin": origin, **({"Host": host} if host else {})}
            try:
                async with t.session.ws_connect(f"{t.url}/ws", headers=headers):
                    statuses.append(101)
            except aiohttp.WSServerHandshakeError as exc:
                statuses.append(exc.status)
        held = statuses == [403, 403] and not t.pids()
        return held, f"HTTP {statuses[0]} (other page), {statuses[1]} (rebinding), {len(t.pids())} apps"


async def resize_then_close() -> tuple[bool, str]:
    """Resize to 20000x20000, fill every buffer without reading, then close the tab."""
    async with target() as t:
        ws = await t.tab(autoping=False, heartbeat=None).__aenter__()
        transport = ws._response.connection.transport
        await first_output(ws)
        (pid,) = t.pids()
        await ws.send_str(json.dumps(["stdin", "\x1b[18~"]))  # the Components: a full screen
        peak = 0.0
        async with asyncio.timeout(APP_START):
            for i in itertools.count():
                peak = max(peak, rss_mb(pid))
                if "pipe_write" in Path(f"/proc/{pid}/wchan").read_text():
                    break
                size = 20000 - i % 2
                await ws.send_str(json.dumps(["resize", {"width": size, "height": size}]))
                await asyncio.sleep(0.05)
        transport.abort()
        start = time.monotonic()
        while alive(pid) and time.monotonic() - start < 30:
            await asyncio.sleep(0.02)
        took = time.monotonic() - start
        held = not alive(pid) and took < GONE_WITHIN and peak < 500
        return held, f"app at most {peak:.0f} MB, gone {took:.1f} s after the tab closed"


async def many_tabs() -> tuple[bool, str]:
    """30 tabs at once against the default cap; each tab reads what it is sent, as a browser
    does (so its pongs go back), until all have drawn or been refused."""
    async with target() as t:
        cap = t.server.limits.max_tabs
        first: list[asyncio.Future[bytes]] = [asyncio.get_running_loop().create_future() for _ in range(TABS)]
        done = asyncio.Event()

        async def browse(answer: asyncio.Future[bytes]) -> None:
            async with t.tab() as ws:
                async for message in ws:
                    if message.type == aiohttp.WSMsgType.BINARY and not answer.done():
                        answer.set_result(message.data)
                    if done.is_set():
                        break
                if not answer.done():
                    answer.set_result(b"")

        tabs = [asyncio.create_task(browse(answer)) for answer in first]
        try:
            async with asyncio.timeout(APP_START * 2):
                answers = await asyncio.gather(*first)
            pids = t.pids()
            memory = sum(rss_mb(pid) for pid in pids if alive(pid))
        finally:
            done.set()
            for tab in tabs:
                tab.cancel()
            await asyncio.gather(*tabs, return_exceptions=True)
        refused = sum(b"server is full" in answer for answer in answers)
        held = len(pids) <= cap and refused == TABS - cap
        return held, f"{len(pids)} apps ({memory:.0f} MB), {refused} of {TABS} told the server is full"


async def hostile_messages() -> tuple[bool, str]:
    """Malformed, unknown, binary, deeply nested and huge messages, each on its own tab."""
    attacks: list[str | bytes] = [
        "not json",
        '["exec", "rm -rf ~"]',
        '["resize", {"width": "x", "height": 1}]',
        b"\x00" * 1000,
        "[" * 100_000,
        '["stdin", "' + "a" * 4_000_000 + '"]',
    ]
    async with target() as t:
        closed = 0
        start = time.monotonic()
        for attack in attacks:
            async with t.tab() as ws:
                await first_output(ws)
                (pid,) = t.pids()
                try:  # the server may close the tab before a huge message is all sent
                    await (ws.send_bytes(attack) if isinstance(attack, bytes) else ws.send_str(attack))
                    await until_closed(ws)
                except (ConnectionError, aiohttp.ClientError):
                    pass
                deadline = time.monotonic() + GONE_WITHIN
                while alive(pid) and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                closed += not alive(pid)
        async with t.tab() as ws:  # the server still serves
            await first_output(ws)
            served = True
        took = time.monotonic() - start
        held = closed == len(attacks) and served
        return held, f"{closed} of {len(attacks)} tabs closed, their apps gone; server serves ({took:.0f} s)"


async def deflate_bomb() -> tuple[bool, str]:
    """50 MB of one letter in one message, deflated (permessage-deflate) to about 50 KB."""
    async with target() as t:
        async with t.tab(compress=15) as ws:
            await first_output(ws)
            (pid,) = t.pids()
            start = time.monotonic()
            await ws.send_str('["stdin", "' + "a" * 50_000_000 + '"]')
            await until_closed(ws)
            took = time.monotonic() - start
            deadline = time.monotonic() + GONE_WITHIN
            while alive(pid) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            held = ws.close_code == 1009 and not alive(pid)
            return held, f"closed ({ws.close_code}) {took * 1000:.0f} ms after sending, its app gone"


SILENT = 300  # connections the silent-connections attack holds open


async def silent_connections() -> tuple[bool, str]:
    """300 connections that send half a request and then nothing, then a real tab."""
    async with target() as t:
        host, port = t.url.removeprefix("http://").split(":")
        held: list[asyncio.StreamWriter] = []
        start = time.monotonic()
        async with t.tab() as ws:
            await first_output(ws)
        alone = time.monotonic() - start
        try:
            for _ in range(SILENT):
                _reader, writer = await asyncio.open_connection(host, int(port))
                writer.write(b"GET /ws HTTP/1.1\r\nHost: ")  # and never the rest
                held.append(writer)
            await asyncio.sleep(1)
            start = time.monotonic()
            async with t.tab() as ws:
                await first_output(ws)
            took = time.monotonic() - start
        finally:
            for writer in held:
                writer.close()
        return took < alone + 5, (
            f"a tab's first screen in {took:.1f} s with {SILENT} silent connections held ({alone:.1f} s without)"
        )


ATTACKS: list[tuple[str, Callable[[], Awaitable[tuple[bool, str]]]]] = [
    ("web: foreign Origin", foreign_origin),
    ("web: resize 20000x20000 then close", resize_then_close),
    (f"web: {TABS} tabs", many_tabs),
    ("web: malformed and huge messages", hostile_messages),
    ("web: deflated 50 MB message", deflate_bomb),
    (f"web: {SILENT} silent connections", silent_connections),
]


async def main() -> int:
    broke = 0
    for name, attack in ATTACKS:
        try:
            held, figure = await asyncio.wait_for(attack(), 300)
        except Exception as exc:  # an attack that cannot finish is reported, never hidden
            held, figure = False, f"{type(exc).__name__}: {exc}"
        broke += not held
        print(f"{name}: {'held' if held else 'BROKE'} ({figure})", flush=True)
    return 1 if broke else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
