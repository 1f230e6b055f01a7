"""Browser figures for docs/benchmarks.md: `pipeline-tui web` (textual-serve), a tab's start.

Two servers run side by side on free loopback ports: one forks each tab's app from its web
zygote (the default on Linux, issue 38), the other spawns it (``web --spawn``, as before the
zygote). Every figure is taken in rounds that alternate the two, so both see the same load:

- websocket to title: from opening a tab's websocket (aiohttp, no browser) until the app's
  first bytes arrive (its web driver's start: the alternate screen, the mouse modes; no frame
  yet), and until the title screen's text is in its output; with the CPU time
  the tab's app process has used by then (``/proc/PID/stat``: a forked app's counts from its
  fork, a spawned one's from its start);
- request to title (``--browser``): from asking headless Chromium (Playwright, 1400x900) for
  the page until the title screen's menu is in the xterm.js terminal (page, scripts,
  websocket, the app's start, its first frame), one new tab at a time, and the part of it
  after the page opens its websocket;
- memory: RSS and PSS (``/proc/PID/smaps_rollup``) of each tab's app with two tabs open on
  each server, and of the zygote.

Each server's first tab is a warm-up, not counted (the zygote may still be importing).

Needs the test extra; ``--browser`` also Chromium at /usr/bin/chromium. Run from the
repository root: ``python benchmarks/bench_web.py [--runs 7] [--browser]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_web import CHROMIUM, CHROMIUM_ARGS, Server, _open, _wait_for_text  # noqa: E402

TITLE = b"Rules and keys"
MODES = ("fork", "spawn")


def cpu_ms(pid: int) -> float:
    """User and system CPU time of ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def memory_mb(pid: int) -> tuple[float, float]:
    """RSS and PSS of ``pid`` in MB (``smaps_rollup``)."""
    found = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name in ("Rss", "Pss"):
            found[name] = int(rest.split()[0]) / 1024
    return found["Rss"], found["Pss"]


def wait_gone(server: Server, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while server.app_processes() and time.monotonic() < deadline:
        time.sleep(0.05)


async def websocket_to_title(server: Server) -> tuple[float, float, float]:
    """Milliseconds from opening a tab's websocket to the app's first bytes and to the title's
    text, and the app's CPU milliseconds by then."""
    import aiohttp

    async with aiohttp.ClientSession() as session:
        start = time.perf_counter()
        async with session.ws_connect(f"http://127.0.0.1:{server.port}/ws?width=155&height=50") as ws:
            shown, first = b"", None
            async with asyncio.timeout(120):
                while TITLE not in shown:
                    message = await ws.receive()
                    if message.type == aiohttp.WSMsgType.BINARY:
                        first = first or time.perf_counter()
                        shown += message.data
                    elif message.type != aiohttp.WSMsgType.TEXT:
                        raise RuntimeError(f"the tab closed: {message}")
            title = time.perf_counter()
            (app,) = server.app_processes()
            cpu = cpu_ms(app)
    assert first is not None
    return (first - start) * 1000, (title - start) * 1000, cpu


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    return f"median {statistics.median(ordered):.0f}, min {ordered[0]:.0f}, max {ordered[-1]:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="tabs per mode and figure (default 7)")
    parser.add_argument("--browser", action="store_true", help="also request to title in Chromium")
    options = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as saves:
        servers = {"fork": Server(Path(saves)), "spawn": Server(Path(saves), "--spawn")}
        try:
            for server in servers.values():
                server.wait_for("in a browser")
            for mode in MODES:  # warm-up: the zygote's imports, the first page
                asyncio.run(websocket_to_title(servers[mode]))
                wait_gone(servers[mode])
            figures: dict[str, list[tuple[float, float, float]]] = {mode: [] for mode in MODES}
            for run in range(options.runs):
                for mode in MODES if run % 2 == 0 else MODES[::-1]:
                    figures[mode].append(asyncio.run(websocket_to_title(servers[mode])))
                    wait_gone(servers[mode])
            for mode in MODES:
                first, title, cpu = zip(*figures[mode])
                print(
                    f"{mode}: websocket to the app's first bytes {summary(list(first))} ms; to the title's text "
                    f"{summary(list(title))} ms; the app's CPU by then {summary(list(cpu))} ms "
                    f"({options.runs} tabs)"
                )
            if options.browser:
                browser_figures(servers, options.runs)
            memory(servers)
        finally:
            for server in servers.values():
                server.stop()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def browser_figures(servers: dict[str, Server], runs: int) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        times: dict[str, list[float]] = {mode: [] for mode in MODES}
        after_socket: dict[str, list[float]] = {mode: [] for mode in MODES}
        for run in range(runs):
            for mode in MODES if run % 2 == 0 else MODES[::-1]:
                url = f"http://127.0.0.1:{servers[mode].port}/"
                opened: list[float] = []
                start = time.perf_counter()
                page = _open(browser, url, on_websocket=lambda _: opened.append(time.perf_counter()))
                _wait_for_text(page, "Rules and keys")
                end = time.perf_counter()
                times[mode].append((end - start) * 1000)
                after_socket[mode].append((end - opened[0]) * 1000)
                page.close()
                wait_gone(servers[mode])
        browser.close()
    for mode in MODES:
        print(
            f"{mode}: request to title in Chromium {summary(times[mode])} ms, of which from the "
            f"page opening its websocket {summary(after_socket[mode])} ms ({runs} tabs)"
        )


def memory(servers: dict[str, Server]) -> None:
    """RSS and PSS of each tab's app with two tabs open on each server, and of the zygote."""
    import aiohttp

    async def two_tabs() -> None:
        async with aiohttp.ClientSession() as session:
            sockets = []
            for mode in MODES:
                for _ in range(2):
                    ws = await session.ws_connect(f"http://127.0.0.1:{servers[mode].port}/ws")
                    sockets.append(ws)
                    shown = b""
                    while TITLE not in shown:
                        message = await ws.receive()
                        if message.type == aiohttp.WSMsgType.BINARY:
                            shown += message.data
            await asyncio.sleep(1)  # idle on the title
            for mode in MODES:
                apps = servers[mode].app_processes()
                sizes = [memory_mb(pid) for pid in apps]
                text = ", ".join(f"RSS {rss:.1f} MB PSS {pss:.1f} MB" for rss, pss in sizes)
                print(f"{mode}: 2 tabs open, each app: {text}")
                zygotes = [
                    pid
                    for pid in map(int, filter(str.isdigit, os.listdir("/proc")))
                    if _parent(pid) == servers[mode].proc.pid and pid not in apps
                ]
                for pid in zygotes:
                    rss, pss = memory_mb(pid)
                    print(f"{mode}: the zygote: RSS {rss:.1f} MB PSS {pss:.1f} MB")
            for ws in sockets:
                await ws.close()

    asyncio.run(two_tabs())


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return None


if __name__ == "__main__":
    main()
