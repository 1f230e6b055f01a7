"""``pipeline-tui web``: the app served to browsers through textual-serve.

The browser tests start the real server in a subprocess and drive Debian's Chromium with
Playwright. textual-serve draws the terminal with xterm.js on a canvas, so the text is read from
xterm's buffer: an init script catches textual-serve's terminal object as the page builds it.
"""

from __future__ import annotations

import io
import os
import queue
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from pipeline_tui import cli
from pipeline_tui.serve.web import app_command, page_url

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 90_000  # a cold app start on a loaded 2-core machine takes seconds, not minutes

# textual-serve's page does `this.fitAddon = new FitAddon()` on its terminal wrapper; an
# inherited setter of that name hands us the wrapper (and so `wrapper.terminal`, the xterm one).
CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, 'fitAddon', {
  configurable: true,
  set(value) {
    Object.defineProperty(this, 'fitAddon', {value, writable: true, configurable: true});
    window.__textualTerminal = this;
  },
});
"""
SCREEN_TEXT = """() => {
  const wrapper = window.__textualTerminal;
  const term = wrapper && wrapper.terminal;
  if (!term) return null;
  const buffer = term.buffer.active, rows = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    rows.push(line ? line.translateToString(true) : '');
  }
  return rows.join('\\n');
}"""


def one_line_error(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- without a browser ----------------------------------------------------------------------------


def test_app_command_runs_this_interpreter_on_the_title_screen(tmp_path):
    saves = tmp_path / "my saves; rm -rf ~"
    argv = shlex.split(app_command(saves))
    assert argv == [
        "exec",
        sys.executable,
        "-m",
        "pipeline_tui",
        "title",
        "--saves",
        str(saves),
        "--served",
        "web",
    ]


def test_app_command_passes_the_servers_language_to_every_tab(tmp_path):
    argv = shlex.split(app_command(tmp_path / "saves", "ru"))
    assert argv[-2:] == ["--lang", "ru"]
    assert "--lang" not in shlex.split(app_command(tmp_path / "saves"))


@pytest.mark.parametrize(
    ("host", "url"),
    [
        ("127.0.0.1", "http://127.0.0.1:8000/"),
        ("localhost", "http://localhost:8000/"),
        ("0.0.0.0", "http://127.0.0.1:8000/"),
        ("::1", "http://[::1]:8000/"),
        ("::", "http://[::1]:8000/"),
    ],
)
def test_page_url(host, url):
    assert page_url(host, 8000) == url


def test_port_in_use_is_one_line(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert cli.main(["web", "--port", str(port)]) == 1
    assert one_line_error(capsys.readouterr().err) == (
        f"pipeline-tui: port {port} on 127.0.0.1 is already in use (choose another with --port)"
    )


@pytest.mark.parametrize(
    ("host", "reason"),
    [
        ("no-such-host.invalid", "not a known host name or address"),
        ("192.0.2.1", "not an address of this machine"),  # TEST-NET-1: never on a local interface
    ],
)
def test_bad_host_is_one_line(capsys, host, reason):
    assert cli.main(["web", "--host", host, "--port", str(free_port())]) == 1
    assert one_line_error(capsys.readouterr().err) == f"pipeline-tui: --host {host}: {reason}"


@pytest.mark.parametrize("port", ["0", "65536", "eighty"])
def test_bad_port_is_one_line(capsys, port):
    assert cli.main(["web", "--port", port]) == 2
    assert one_line_error(capsys.readouterr().err).startswith("pipeline-tui web: argument --port:")


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--allow-origin", "evil.example"),
        ("--allow-origin", "http://x:99999"),
        ("--allow-origin", "http://x/page"),
        ("--allow-origin", "http://exa_mple.com"),
        ("--allow-origin", "null"),
        ("--max-window", "0x5"),
        ("--max-window", "wide"),
        ("--max-tabs", "0"),
    ],
)
def test_bad_limit_is_one_line(capsys, option, value):
    assert cli.main(["web", option, value]) == 2
    assert one_line_error(capsys.readouterr().err).startswith(f"pipeline-tui web: argument {option}:")


def test_limits_reach_the_server(monkeypatch, tmp_path):
    from pipeline_tui.serve import web

    seen = {}
    monkeypatch.setattr(web, "serve", lambda *args, limits, fork, **kw: seen.update(limits=limits, fork=fork))
    argv = ["web", "--saves", str(tmp_path), "--max-window", "120x40", "--max-tabs", "3"]
    argv += ["--allow-origin", "https://game.example", "--allow-origin", "http://box.lan:8000"]
    assert cli.main(argv) == 0
    assert seen["limits"] == web.Limits(
        max_cols=120,
        max_rows=40,
        max_tabs=3,
        allow_origins=("https://game.example", "http://box.lan:8000"),
    )
    assert seen["fork"] is None  # forked where the system can (serve/zygote.py)
    assert cli.main(["web", "--saves", str(tmp_path)]) == 0
    assert seen["limits"] == web.Limits() == web.Limits(500, 200, 16, ())
    assert cli.main(["web", "--saves", str(tmp_path), "--spawn"]) == 0
    assert seen["fork"] is False


def test_served_app_counts_as_interactive(monkeypatch):
    """textual-serve runs the app on pipes; its web driver must not be refused as 'no terminal'."""
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO())
    assert not cli.common.interactive()
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    assert cli.common.interactive()


def test_textual_serve_is_imported_only_by_web():
    code = (
        "import sys; from pipeline_tui import cli; cli.build_parser(); "
        "print(sorted(m for m in ('textual_serve', 'aiohttp', 'pipeline_tui.serve.web') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stderr


# --- in Chromium ------------------------------------------------------------------------------------


@pytest.fixture
def sync_playwright():
    """Playwright's sync API, or a skip with the reason (a failure under CI, which must run this)."""
    missing = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = "Playwright is not installed (pip install -e '.[test]')"
    if missing is None and not CHROMIUM.exists():
        missing = f"Chromium is not installed at {CHROMIUM} (apt-get install -y chromium)"
    if missing is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the browser test: {missing}")
        pytest.skip(missing)
    return sync_playwright


class Server:
    """`pipeline-tui web` in a subprocess, its output read line by line on a thread."""

    def __init__(self, saves: Path, *options: str) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pipeline_tui",
                "web",
                "--port",
                str(self.port),
                "--saves",
                str(saves),
                *options,
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "COLUMNS": "200"},
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def wait_for(self, text: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=deadline - time.monotonic())
            except queue.Empty:
                break
            if line is None:
                break
            self.output.append(line)
            if text in line:
                return line
        raise AssertionError(f"server never printed {text!r}; it printed:\n{''.join(self.output)}")

    def rest(self) -> str:
        """Everything printed, once the server has exited and its output is closed."""
        while (line := self.lines.get(timeout=60)) is not None:
            self.output.append(line)
        return "".join(self.output)

    def app_processes(self) -> list[int]:
        """The app processes of the open browser tabs: spawned by textual-serve (children of
        the server) or forked by its web zygote (children of that child)."""
        table = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if stat[0] != "Z":
                table[int(entry.name)] = (int(stat[1]), argv)
        zygotes = {pid for pid, (parent, argv) in table.items() if parent == self.proc.pid and b"web" in argv}
        return [
            pid
            for pid, (parent, argv) in table.items()
            if (parent == self.proc.pid and b"title" in argv) or parent in zygotes
        ]

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise


@pytest.fixture
def server(tmp_path):
    served = Server(tmp_path / "saves")
    try:
        yield served
    finally:
        served.stop()


def _open(browser, url: str, on_websocket=None):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.set_default_timeout(WAIT_MS)
    if on_websocket is not None:
        page.on("websocket", on_websocket)
    # the page links a web font; the machine has no network, so refuse every other host at once
    page.route(
        "**/*", lambda route: route.continue_() if route.request.url.startswith(url) else route.abort()
    )
    page.add_init_script(CATCH_TERMINAL)
    page.goto(url, wait_until="domcontentloaded")
    return page


def _wait_for_text(page, text: str) -> str:
    try:
        page.wait_for_function(
            f"() => {{ const s = ({SCREEN_TEXT})(); return s !== null && s.includes({text!r}); }}",
            timeout=WAIT_MS,
        )
    except Exception as exc:
        shown = page.evaluate(SCREEN_TEXT)
        if shown is None:
            raise AssertionError("could not find textual-serve's xterm terminal in the page") from exc
        raise AssertionError(f"the browser never showed {text!r}; it shows:\n{shown}") from exc
    return page.evaluate(SCREEN_TEXT)


def test_page_points_back_at_the_host_the_browser_used(server):
    """textual-serve would write ws://<--host>:<port>/ws into the page, unreachable for another
    machine when --host is 0.0.0.0; the page must use the address the browser asked for."""
    server.wait_for("in a browser")
    for host in (f"127.0.0.1:{server.port}", "game.example:8443"):
        request = urllib.request.Request(f"http://127.0.0.1:{server.port}/", headers={"Host": host})
        with urllib.request.urlopen(request, timeout=60) as response:
            page = response.read().decode()
        assert f'data-session-websocket-url="ws://{host}/ws"' in page
        assert f'href="http://{host}/static/css/xterm.css"' in page


def test_each_browser_tab_plays_its_own_app(sync_playwright, server):
    announced = server.wait_for("in a browser")
    url = f"http://127.0.0.1:{server.port}/"
    assert f"open {url} in a browser" in announced

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, timeout=WAIT_MS
        )
        try:
            first = _open(browser, url)
            title = _wait_for_text(first, "Rules and keys")
            for entry in (
                "PIPELINE",
                "New game",
                "Continue latest autosave (none)",
                "Load a saved game",
                "Replay a saved game",
                "Quit",
            ):
                assert entry in title

            second = _open(browser, url)
            _wait_for_text(second, "Rules and keys")
            apps = server.app_processes()
            assert len(apps) == 2  # forked from the web zygote (tests/server/test_web_zygote.py)

            first.focus(".xterm-helper-textarea")
            first.keyboard.press("Enter")  # the highlighted entry: New game
            new_game = _wait_for_text(first, "Players")
            assert "New game" in new_game and "Seat 1" in new_game and "Start" in new_game
            assert "Rules and keys" in second.evaluate(SCREEN_TEXT)  # the other tab is untouched

            first.keyboard.press("Escape")  # back to the title screen
            _wait_for_text(first, "Rules and keys")

            assert server.stop() == 0  # Ctrl+C with both tabs still open
            assert server.wait_for("pipeline-tui web: stopped")
            assert [pid for pid in apps if Path(f"/proc/{pid}").exists()] == []
        finally:
            browser.close()
    assert "Traceback" not in server.rest()


def test_a_full_server_says_so_in_the_page(sync_playwright, tmp_path):
    """Past --max-tabs a tab gets one line in its terminal instead of a game (issue 36)."""
    served = Server(tmp_path / "saves", "--max-tabs", "1")
    try:
        served.wait_for("in a browser")
        url = f"http://127.0.0.1:{served.port}/"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, timeout=WAIT_MS
            )
            try:
                first = _open(browser, url)
                _wait_for_text(first, "Rules and keys")
                second = _open(browser, url)
                shown = _wait_for_text(second, "The server is full (1 tab); try again later.")
                assert "Rules and keys" not in shown
                assert len(served.app_processes()) == 1
            finally:
                browser.close()
        assert served.stop() == 0
        assert "refused a tab" in served.rest()
    finally:
        served.stop()
