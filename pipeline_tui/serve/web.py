"""``pipeline-tui web``: the app in a browser through textual-serve.

Each browser tab that opens the page gets its own app process (the title screen), run by this
installation's interpreter with the server's saves folder. Imported only by that command, so the
game's cold start never loads aiohttp or textual-serve.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import os
import shlex
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

from ..i18n import _


def app_command(saves_dir: Path, language: str | None = None) -> str:
    """The shell command textual-serve runs for each browser tab: this installation's interpreter
    on the title screen (``exec``, so the app is the server's own child and no shell lingers),
    in the server's language when one is given (a browser sends no locale of its own)."""
    argv = [sys.executable, "-m", "pipeline_tui", "title", "--saves", str(saves_dir)]
    if language:
        argv += ["--lang", language]
    if os.name != "posix":
        return subprocess.list2cmdline(argv)
    return "exec " + shlex.join(argv)


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
    host: str, port: int, saves_dir: Path, announce: Callable[[str], None], language: str | None = None
) -> None:
    """Serve the app until Ctrl+C or SIGTERM; ``announce`` gets the URL once the port is bound.
    Every tab speaks ``language`` (``web --lang``, else the server's own choice).

    Raises OSError when the host or port cannot be used.
    """
    import aiohttp_jinja2
    from aiohttp import web
    from textual_serve.server import Server, to_int

    from ..ui.compat import serve_application

    class PipelineServer(Server):
        """textual-serve's server with the page's URLs taken from the request.

        textual-serve writes the websocket's absolute URL into the page from ``--host``; for a
        wildcard host (0.0.0.0) that address is unreachable from another machine, so the page
        points back at whatever host the browser used to fetch it. It also keeps the open tabs'
        sessions so that stopping the server ends them (and their apps) at once.
        """

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.sessions: set[asyncio.Task[Any]] = set()

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
                return await super().handle_websocket(request)
            finally:
                self.sessions.discard(task)

        async def on_shutdown(self, app: web.Application) -> None:
            """End every open tab's session (textual-serve then tells its app to quit), rather
            than letting aiohttp wait on the open websockets."""
            sessions = list(self.sessions)
            for task in sessions:
                task.cancel()
            await asyncio.gather(*sessions, return_exceptions=True)

        async def on_startup(self, app: web.Application) -> None:
            """textual-serve prints its banner here, before the port is bound; we announce
            after binding instead."""

        def serve(self, debug: bool = False) -> None:
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

    PipelineServer(app_command(saves_dir, language), host=host, port=port, title="Pipeline").serve()
