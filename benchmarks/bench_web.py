"""Browser figures for docs/benchmarks.md: `pipeline-tui web` (textual-serve) in headless Chromium.

- request to title: from asking Chromium for the page until the title screen's menu is in the
  xterm.js terminal (page, scripts, websocket, a new app process, its first frame), one new tab
  per run, the previous tab closed first; also the part until the page opens its websocket (the
  rest is the app process starting and drawing);
- memory: RSS (ps) of the server alone, then of the server and of each tab's app process with
  two tabs open.

Needs Chromium at /usr/bin/chromium and the test extra (Playwright). Run from the repository
root: ``python benchmarks/bench_web.py``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_web import CHROMIUM, CHROMIUM_ARGS, Server, _open, _wait_for_text  # noqa: E402


def rss_mib(pids: list[int]) -> list[float]:
    out = subprocess.run(
        ["ps", "-o", "rss=", "-p", ",".join(map(str, pids))], capture_output=True, text=True, check=True
    ).stdout
    return [int(kib) / 1024 for kib in out.split()]


def main(runs: int = 7) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as saves:
        server = Server(Path(saves))
        try:
            server.wait_for("in a browser")
            url = f"http://127.0.0.1:{server.port}/"
            (alone,) = rss_mib([server.proc.pid])
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                times, sockets = [], []
                for _ in range(runs):
                    opened: list[float] = []
                    start = time.perf_counter()
                    page = _open(browser, url, on_websocket=lambda _: opened.append(time.perf_counter()))
                    _wait_for_text(page, "Rules and keys")
                    times.append(time.perf_counter() - start)
                    sockets.append(opened[0] - start)
                    page.close()
                    deadline = time.monotonic() + 30
                    while server.app_processes() and time.monotonic() < deadline:
                        time.sleep(0.1)
                ms = sorted(round(t * 1000) for t in times)
                print(
                    f"request to title, {runs} new tabs: median {statistics.median(ms)} ms, "
                    f"min {ms[0]} ms, max {ms[-1]} ms; of which page to websocket open: median "
                    f"{round(statistics.median(sockets) * 1000)} ms"
                )
                tabs = [_open(browser, url) for _ in range(2)]
                for tab in tabs:
                    _wait_for_text(tab, "Rules and keys")
                apps = server.app_processes()
                server_rss, *app_rss = rss_mib([server.proc.pid, *apps])
                print(
                    f"RSS: server alone {alone:.1f} MiB; with 2 tabs open server {server_rss:.1f} MiB, "
                    f"app processes {', '.join(f'{r:.1f}' for r in app_rss)} MiB"
                )
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
