"""``pipeline-tui web``: the app in a browser through textual-serve.

Each browser tab that opens the page gets its own app process (the title screen), with the
server's saves folder. On Linux it is forked from the web zygote (serve/zygote.py, issue 38), a
process that has imported the app and Textual's web driver once, and runs exactly what
textual-serve would have started (:func:`app_command`) in the environment textual-serve builds
for it; elsewhere, with ``web --spawn`` or ``PIPELINE_TUI_SPAWN=1``, or when the zygote fails,
textual-serve spawns this installation's interpreter on that command, as before. Imported only
by ``web``, so the game's cold start never loads aiohttp or textual-serve.

The fork goes through a private method of textual-serve (``AppService._open_app_process``,
which starts a tab's process), which is why textual-serve is pinned to one version
(pyproject.toml) and tests/server/test_web_zygote.py fails if that method changes.

Every byte a browser sends is hostile (docs/security.md, "web"): the websocket is opened only from a
page of this server (its Origin and Host are checked), a tab's terminal is at most
``--max-window``, at most ``--max-tabs`` tabs play at once, a message that is not
one the page sends closes its tab with one log line, and a closed tab's app is gone within
:data:`QUIT_GRACE` seconds, killed if it does not quit (as when it is blocked writing to a
browser that no longer reads).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import ipaddress
import json
import logging
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Callable
from urllib.parse import urlsplit

from ..i18n import _, ngettext
from .zygote import WEB, ForkedChild, Zygote, forking_available

if TYPE_CHECKING:
    from aiohttp import web

log = logging.getLogger("pipeline_tui.web")

MAX_COLS = 500  # a tab's widest terminal; a wider one is drawn at this width (as over SSH)
MAX_ROWS = 200
MAX_TABS = 16  # tabs playing at once; a forked app takes about 21 MB of its own (PSS), a spawned 31
MAX_MESSAGE = 64 * 1024  # bytes in one websocket message (the page sends keys and sizes)
QUIT_GRACE = 3.0  # seconds a closed tab's app has to quit before it is killed (gone within 5 s)
HEARTBEAT = 15.0  # seconds between pings; a browser that misses a pong is closed
APP_MODULE = "pipeline_tui"  # a tab runs ``python -m`` this, spawned or forked
APP_IMPORTS = ("pipeline_tui.cli",)  # what it imports, for the web zygote to import first
KNOWN_MESSAGES = frozenset({"stdin", "resize", "ping", "blur", "focus"})
HOST_NAME = re.compile(r"[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?")  # a DNS name, lower case


@dataclass(frozen=True)
class Limits:
    """What one ``web`` server lets its browsers spend, each a flag of ``pipeline-tui web``."""

    max_cols: int = MAX_COLS
    max_rows: int = MAX_ROWS
    max_tabs: int = MAX_TABS
    allow_origins: tuple[str, ...] = ()  # origins besides the server's own (--allow-origin)

    def clamp(self, width: object, height: object) -> tuple[int, int]:
        """A terminal size the server will draw: each side at least 1 and at most its limit."""
        return (
            max(1, min(width, self.max_cols)) if isinstance(width, int) else 80,
            max(1, min(height, self.max_rows)) if isinstance(height, int) else 24,
        )


def normal_origin(origin: str) -> str:
    """``scheme://host:port`` in lower case with the port always written, to compare origins.

    >>> normal_origin("HTTP://Game.Example"), normal_origin("https://[::1]:8443/")
    ('http://game.example:80', 'https://[::1]:8443')

    Raises ValueError for anything that is not an http(s) origin (``null``, a path, no host, a
    host that is neither an address nor a DNS name).
    """
    parts = urlsplit(origin)
    hostname = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not (
        HOST_NAME.fullmatch(hostname) or _is_address_or_localhost(hostname)
    ):
        raise ValueError(f"not an http(s) origin: {quoted(origin)}")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    host = f"[{hostname}]" if ":" in hostname else hostname
    return f"{parts.scheme}://{host}:{port}"


def quoted(text: str, most: int = 60) -> str:
    """``text`` from a client as it goes into a log line: quoted, escaped, at most ``most``
    characters of it."""
    return repr(text[:most]) + ("…" if len(text) > most else "")


def _is_address_or_localhost(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def origin_refusal(
    origin: str | None, host: str | None, scheme: str, bound: str, allowed: Collection[str] = ()
) -> str | None:
    """Why a websocket with this ``Origin`` and ``Host`` must be refused, or None to accept it.

    A browser names the page that opens a websocket in ``Origin``; it must be this server's own
    page (the same scheme, host and port the browser asked for in ``Host``) or one of
    ``allowed`` (normalised origins, ``--allow-origin``). So a page elsewhere cannot start
    games here. The ``Host`` itself must be an address, ``localhost``, the ``--host`` the
    server was started with (``bound``) or the host of an allowed origin: a hostile page whose
    name it has pointed at this machine (DNS rebinding) is its own origin, and is refused here.
    No Origin at all is not a browser: it is accepted, since any other client can write
    whatever Origin it likes.
    """
    if not host:
        return "no Host header"
    try:
        asked = normal_origin(f"{scheme}://{host}")
    except ValueError:
        return f"a Host header that is not a host: {quoted(host)}"
    hostname = urlsplit(asked).hostname or ""
    allowed_hosts = {urlsplit(a).hostname for a in allowed}
    if not (_is_address_or_localhost(hostname) or hostname == bound.lower() or hostname in allowed_hosts):
        return f"Host {quoted(host)} is not this server's (start it with --allow-origin {asked})"
    if origin is None:
        return None
    try:
        named = normal_origin(origin)
    except ValueError:
        return f"Origin {quoted(origin)} is not a web page's"
    if named == asked or named in allowed:
        return None
    return f"Origin {quoted(origin)} is not this server's {asked} (start it with --allow-origin {named})"


def message_problem(message: str, limits: Limits) -> tuple[str, Any] | str:
    """A text message from the page as ``(type, data)``, or why it is not one the page sends:
    ``["stdin", str]``, ``["resize", {"width": int, "height": int}]``, ``["ping", str]``,
    ``["blur"]``, ``["focus"]``. A resize comes back clamped to ``limits``."""
    try:
        envelope = json.loads(message)
    except (ValueError, RecursionError):  # not JSON, or nested too deep to read
        return "a message that is not JSON"
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        return f"a message that is not a list led by its type ({type(envelope).__name__})"
    if envelope[0] not in KNOWN_MESSAGES:
        return f"an unknown message ({quoted(envelope[0])})"
    kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
    if kind in ("stdin", "ping") and not isinstance(data, str):
        return f"a {kind} message without text"
    if kind == "resize":
        if not isinstance(data, dict) or not all(
            isinstance(data.get(side), int) and not isinstance(data.get(side), bool)
            for side in ("width", "height")
        ):
            return "a resize message without a width and height"
        data = limits.clamp(data["width"], data["height"])
    return kind, data


def _exited(pid: int) -> bool:
    """Whether our child ``pid`` has ended, without reaping it (asyncio's watcher does that):
    killing one that has would make Python reap it first and asyncio warn of a lost child."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def app_argv(saves_dir: Path, language: str | None = None) -> list[str]:
    """The arguments of ``pipeline-tui`` for each browser tab: the title screen, in the
    server's language when one is given (a browser sends no locale of its own), told with
    ``--served web`` that it plays in a browser tab of a server (ui/app.py, ``Served``)."""
    argv = ["title", "--saves", str(saves_dir), "--served", "web"]
    if language:
        argv += ["--lang", language]
    return argv


def app_command(saves_dir: Path, language: str | None = None) -> str:
    """The shell command textual-serve runs for a spawned tab: this installation's interpreter
    on :func:`app_argv` (``exec``, so the app is the server's own child and no shell lingers)."""
    argv = [sys.executable, "-m", APP_MODULE, *app_argv(saves_dir, language)]
    if os.name != "posix":
        return subprocess.list2cmdline(argv)
    return "exec " + shlex.join(argv)


class ForkedApp:
    """A tab's app forked by the web zygote, as textual-serve's ``AppService`` uses the process
    it spawns: its pipes as streams (``stdin``, ``stdout``, ``stderr``), ``pid``,
    ``returncode``, ``wait()`` and ``kill()`` (through a pidfd, :class:`ForkedChild`)."""

    def __init__(
        self,
        child: ForkedChild,
        stdin: asyncio.StreamWriter,
        stdout: asyncio.StreamReader,
        stderr: asyncio.StreamReader,
        transports: list[asyncio.BaseTransport],
    ) -> None:
        self.child = child
        self.pid = child.pid
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.transports = transports

    @property
    def returncode(self) -> int | None:
        return self.child.returncode

    async def wait(self) -> int:
        return await self.child.wait()

    def kill(self) -> None:
        self.child.kill()

    def exited(self) -> bool:
        return self.child.exited()

    def close(self) -> None:
        for transport in self.transports:
            transport.close()


async def fork_app(zygote: Zygote, env: dict[str, str], argv: list[str]) -> ForkedApp:
    """A tab's app forked by ``zygote`` on three new pipes (its standard streams, as
    textual-serve's ``asyncio.create_subprocess_shell(..., stdin=PIPE, stdout=PIPE,
    stderr=PIPE)`` makes them), with ``env``, running ``python -m`` ``argv`` (a module and its
    arguments); OSError if the zygote cannot make one."""
    loop = asyncio.get_running_loop()
    theirs: list[int] = []
    ours: list[IO[bytes]] = []
    try:
        for writing in (False, True, True):  # stdin, stdout, stderr as the child sees them
            read, write = os.pipe()
            theirs.append(write if writing else read)
            ours.append(open(read if writing else write, "rb" if writing else "wb", buffering=0))  # noqa: SIM115
        try:
            child = await zygote.fork(env, theirs, argv=argv)
        finally:
            for fd in theirs:
                os.close(fd)
        stdin_transport, stdin_protocol = await loop.connect_write_pipe(
            lambda: asyncio.streams.FlowControlMixin(loop), ours[0]
        )
        stdin = asyncio.StreamWriter(stdin_transport, stdin_protocol, None, loop)
        transports: list[asyncio.BaseTransport] = [stdin_transport]
        readers = []
        for pipe in ours[1:]:
            reader = asyncio.StreamReader(loop=loop)
            transport, _protocol = await loop.connect_read_pipe(
                functools.partial(asyncio.StreamReaderProtocol, reader, loop=loop), pipe
            )
            transports.append(transport)
            readers.append(reader)
    except BaseException:
        for pipe in ours:
            pipe.close()
        raise
    return ForkedApp(child, stdin, readers[0], readers[1], transports)


def page_url(host: str, port: int) -> str:
    """The address to open; a wildcard host is reached on this machine through loopback."""
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    try:
        if ipaddress.ip_address(host).version == 6:
            host = f"[{host}]"
    except ValueError:
        pass
    return f"http://{host}:{port}/"


def bind_error(exc: OSError, host: str, port: int) -> str:
    """A one-line reason why the server could not listen on host:port."""
    if isinstance(exc, socket.gaierror):
        return _("--host {host}: not a known host name or address").format(host=host)
    if exc.errno == errno.EADDRINUSE:
        return _("port {port} on {host} is already in use (choose another with --port)").format(
            port=port, host=host
        )
    if exc.errno == errno.EADDRNOTAVAIL:
        return _("--host {host}: not an address of this machine").format(host=host)
    if exc.errno == errno.EACCES:
        return _("port {port}: permission denied (ports below 1024 need privileges)").format(port=port)
    return _("cannot listen on {host}:{port}: {reason}").format(
        host=host, port=port, reason=exc.strerror or exc
    )


def serve(
    host: str,
    port: int,
    saves_dir: Path,
    announce: Callable[[str], None],
    language: str | None = None,
    limits: Limits | None = None,
    fork: bool | None = None,
) -> None:
    """Serve the app until Ctrl+C or SIGTERM; ``announce`` gets the URL once the port is bound.
    Every tab speaks ``language`` (``web --lang``, else the server's own choice). ``fork``:
    tabs forked from the web zygote (None: where :func:`forking_available`), else spawned.

    Raises OSError when the host or port cannot be used.
    """
    server = make_server(host, port, saves_dir, language, limits or Limits(), fork)
    server.serve_until_stopped(announce)


def overridable(service: type) -> bool:
    """Whether textual-serve's ``AppService`` still starts a tab's process the way
    ``TabService`` overrides it: ``async _open_app_process(width, height)``, its environment
    from ``_build_environment(width, height)``. Otherwise tabs are spawned (and
    tests/server/test_web_zygote.py, which also reads textual-serve's source, fails)."""
    import inspect

    def parameters(name: str) -> list[str] | None:
        method = getattr(service, name, None)
        return list(inspect.signature(method).parameters) if callable(method) else None

    return (
        inspect.iscoroutinefunction(getattr(service, "_open_app_process", None))
        and parameters("_open_app_process") == ["self", "width", "height"]
        and parameters("_build_environment") == ["self", "width", "height"]
    )


def make_server(
    host: str,
    port: int,
    saves_dir: Path,
    language: str | None,
    limits: Limits,
    fork: bool | None = None,
) -> Any:  # a PipelineServer; its class exists only once textual-serve is imported
    """The textual-serve server for ``serve``, also run inside an event loop by the tests and
    benchmarks/attack_web.py (``await server.start()``, ``await server.stop()``). ``fork``:
    as for :func:`serve`."""
    import aiohttp_jinja2
    from aiohttp import WSMsgType, web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server, to_int

    from ..ui.compat import serve_application

    if fork is None:
        fork = forking_available()
    fork = fork and overridable(AppService)
    argv = app_argv(saves_dir, language)

    class TabService(AppService):
        """One tab's app process, which the server can kill (textual-serve only asks it to
        quit, and an app blocked writing to a closed tab never hears it), forked from
        ``zygote`` when there is one."""

        zygote: Zygote | None = None

        @property
        def pid(self) -> int | None:
            return self._process.pid if self._process is not None else None

        def environment(self) -> dict[str, str]:
            """What textual-serve gives every tab's process alike: its environment without
            the tab's size (the web zygote's own environment)."""
            environment = self._build_environment()
            for name in ("COLUMNS", "ROWS"):
                environment.pop(name, None)
            return environment

        async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
            """The tab's app: forked from the zygote with the environment textual-serve would
            give it, or spawned by textual-serve if there is no zygote or it fails."""
            zygote = self.zygote
            if zygote is not None and zygote.running:
                try:
                    env = self._build_environment(width, height)
                    process = await fork_app(zygote, env, [APP_MODULE, *argv])
                except OSError as exc:
                    log.warning("web: the web zygote failed (%s); spawning the tab's app", exc)
                else:
                    self._process = process  # type: ignore[assignment]  # as textual-serve uses a Process
                    self._stdin = process.stdin
                    return process
            return await super()._open_app_process(width, height)

        def _ended(self, process: Any) -> bool:
            if isinstance(process, ForkedApp):
                return process.exited()
            return _exited(process.pid)

        async def end(self) -> None:
            """Ask the app to quit; kill it if it has not within QUIT_GRACE seconds; reap it."""
            process = self._process
            if process is None:
                return
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.stop(), QUIT_GRACE)
            if process.returncode is None and not self._ended(process):
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                log.info("web: tab app %d did not quit within %.0f s: killed", process.pid, QUIT_GRACE)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(process.wait(), QUIT_GRACE)
            # asyncio leaves a process's transport open until it is collected, and closing it
            # then (the loop gone) raises inside a finaliser; close it while the loop runs
            if isinstance(process, ForkedApp):
                process.close()
            else:
                process._transport.close()  # type: ignore[attr-defined]
            if self._task is not None:
                self._task.cancel()
                await asyncio.gather(self._task, return_exceptions=True)
                self._task = None
            # textual-serve ends a closed tab's downloads but keeps their records for good
            downloads = self._download_manager._active_downloads
            for key in [k for k, d in downloads.items() if d.app_service is self]:
                del downloads[key]

    class PipelineServer(Server):
        """textual-serve's server with the page's URLs taken from the request, and every limit
        of :class:`Limits` on its websockets.

        textual-serve writes the websocket's absolute URL into the page from ``--host``; for a
        wildcard host (0.0.0.0) that address is unreachable from another machine, so the page
        points back at whatever host the browser used to fetch it. It also keeps the open tabs'
        sessions so that stopping the server ends them (and their apps) at once.
        """

        def __init__(self, *args: Any, limits: Limits, fork: bool, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.limits = limits
            self.fork = fork
            self.zygote: Zygote | None = None
            self.allowed = frozenset(normal_origin(o) for o in limits.allow_origins)
            self.sessions: set[asyncio.Task[Any]] = set()
            self.tabs: dict[str, TabService] = {}
            self.runner: web.AppRunner | None = None

        async def handle_index(self, request: web.Request) -> web.Response:
            origin = f"{request.scheme}://{request.host}"
            scheme = "wss" if request.scheme == "https" else "ws"
            router = request.app.router
            static = router["static"].url_for(filename="/")
            context = {
                "font_size": to_int(request.query.get("fontsize", "16"), 16),
                "app_websocket_url": f"{scheme}://{request.host}{router['websocket'].url_for()}",
                "config": {"static": {"url": f"{origin}{static}".rstrip("/") + "/"}},
                "application": {"name": self.title},
            }
            return aiohttp_jinja2.render_template("app_index.html", request, context)

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            task = asyncio.current_task()
            assert task is not None  # aiohttp runs each request in a task
            self.sessions.add(task)
            try:
                return await self._tab(request)
            finally:
                self.sessions.discard(task)

        async def _tab(self, request: web.Request) -> web.WebSocketResponse:
            """One tab: checked, then its app run until either side closes, then ended."""
            peer = request.remote or "?"
            refusal = origin_refusal(
                request.headers.get("Origin"),
                request.headers.get("Host"),
                request.scheme,
                self.host,
                self.allowed,
            )
            if refusal is not None:
                log.warning("web: refused a tab from %s: %s", peer, refusal)
                raise web.HTTPForbidden(text="This page may not open a game here.\n")
            websocket = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_MESSAGE)
            await websocket.prepare(request)
            if len(self.tabs) >= self.limits.max_tabs:
                log.warning("web: refused a tab from %s: %d tabs are open", peer, len(self.tabs))
                tabs = self.limits.max_tabs
                full = ngettext(
                    "The server is full ({n} tab); try again later.",
                    "The server is full ({n} tabs); try again later.",
                    tabs,
                ).format(n=tabs)
                with contextlib.suppress(Exception):
                    await websocket.send_bytes(f"\r\n {full}\r\n".encode())
                await websocket.close(code=1013, message=b"the server is full")
                return websocket

            async def write_bytes(data: bytes) -> None:
                """The app's output to the tab; dropped once the tab is gone, so that the app
                is never left blocked on its pipe (the output is read on to its end)."""
                if not websocket.closed:
                    with contextlib.suppress(Exception):
                        await websocket.send_bytes(data)

            async def write_str(data: str) -> None:
                if not websocket.closed:
                    with contextlib.suppress(Exception):
                        await websocket.send_str(data)

            async def close() -> None:
                await websocket.close()

            service = self._service(write_bytes, write_str, close)
            width, height = self.limits.clamp(
                to_int(request.query.get("width", "80"), 80), to_int(request.query.get("height", "24"), 24)
            )
            self.tabs[service.app_service_id] = service
            try:
                await service.start(width, height)
                log.info("web: tab app %s started for %s (%dx%d)", service.pid, peer, width, height)
                await self._messages(websocket, service, peer)
            except asyncio.CancelledError:
                pass  # the server is stopping (on_shutdown): the tab ends below like any other
            finally:
                with contextlib.suppress(Exception):
                    await websocket.close()
                ending = asyncio.ensure_future(self._end(service))
                try:
                    await asyncio.shield(ending)
                except asyncio.CancelledError:
                    await ending  # the server is stopping: this tab's app is ended first
                    raise
            return websocket

        def _service(
            self,
            write_bytes: Callable[[bytes], Any],
            write_str: Callable[[str], Any],
            close: Callable[[], Any],
        ) -> TabService:
            service = TabService(
                self.command,
                write_bytes=write_bytes,
                write_str=write_str,
                close=close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            service.zygote = self.zygote
            return service

        async def _end(self, service: TabService) -> None:
            try:
                await service.end()
            finally:
                self.tabs.pop(service.app_service_id, None)

        async def _messages(self, websocket: web.WebSocketResponse, service: TabService, peer: str) -> None:
            """The page's messages to its app until the tab closes; the first one the page
            would never send closes the tab, with one log line."""
            async for message in websocket:
                if message.type == WSMsgType.TEXT:
                    parsed = message_problem(message.data, self.limits)
                elif message.type == WSMsgType.ERROR:
                    parsed = f"a broken message ({websocket.exception()})"
                else:
                    parsed = f"a {message.type.name.lower()} message"
                if isinstance(parsed, str):
                    log.warning("web: closed the tab of %s (app %s): %s", peer, service.pid, parsed)
                    await websocket.close(code=1008, message=b"not a message of this page")
                    return
                kind, data = parsed
                if kind == "stdin":
                    await service.send_bytes(data.encode("utf-8"))
                elif kind == "resize":
                    await service.set_terminal_size(*data)
                elif kind == "ping":
                    await websocket.send_json(["pong", data])
                elif kind == "blur":
                    await service.blur()
                else:
                    await service.focus()

        async def on_shutdown(self, app: web.Application) -> None:
            """End every open tab's session (textual-serve then tells its app to quit), rather
            than letting aiohttp wait on the open websockets; then the web zygote."""
            sessions = list(self.sessions)
            for task in sessions:
                task.cancel()
            await asyncio.gather(*sessions, return_exceptions=True)
            if self.zygote is not None:
                await self.zygote.close()
                self.zygote = None

        async def on_startup(self, app: web.Application) -> None:
            """Start the web zygote (it imports the app meanwhile; tabs wait for it). textual-serve
            prints its banner here, before the port is bound; we announce after binding instead."""
            if self.fork:
                shared = self._service(_nothing, _nothing, _nothing).environment()
                zygote = Zygote(log.warning, WEB, shared, APP_IMPORTS)
                try:
                    await zygote.start()
                except OSError as exc:
                    log.warning("web: cannot start the web zygote (%s); tabs are spawned", exc)
                else:
                    self.zygote = zygote
            log.info("web: tabs %s", "forked from a zygote" if self.zygote else "spawned")

        async def start(self) -> None:
            """Listen (in the running event loop), for tests and benchmarks."""
            self.runner = web.AppRunner(await serve_application(self), access_log=None)
            await self.runner.setup()
            await web.TCPSite(self.runner, self.host, self.port).start()

        async def stop(self) -> None:
            if self.runner is not None:
                await self.runner.cleanup()
                self.runner = None

        def serve_until_stopped(self, announce: Callable[[str], None], debug: bool = False) -> None:
            self.debug = debug
            self.initialize_logging()
            loop = asyncio.new_event_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                # on Windows there are no signal handlers: Ctrl+C arrives as KeyboardInterrupt
                with contextlib.suppress(NotImplementedError):
                    loop.add_signal_handler(sig, self.request_exit)
            try:
                web.run_app(
                    serve_application(self),
                    host=self.host,
                    port=self.port,
                    handle_signals=False,
                    loop=loop,
                    access_log=None,
                    print=lambda *_: announce(page_url(self.host, self.port)),
                )
            finally:
                asyncio.set_event_loop(None)

    return PipelineServer(
        app_command(saves_dir, language), host=host, port=port, title="Pipeline", limits=limits, fork=fork
    )


async def _nothing(*_args: Any) -> None:
    """A tab's output with no tab: for the service that only builds the shared environment."""
