"""The zygotes of ``pipeline-tui serve`` and ``pipeline-tui web`` (issue 38): one process that
has imported Textual, Rich and the app once, and forks a child for each SSH session (the
*session* zygote) or for each browser tab (the *web* zygote).

Starting Python and importing the app afresh for every session took about 450 ms of CPU each
and shared no pages between sessions; a forked child starts in a few milliseconds and shares
the zygote's pages until it writes them (``gc.freeze()`` before forking keeps the collector
from writing to every start-up object).

The server starts ``python -m pipeline_tui.serve.zygote FD PARENT KIND [MODULE...]``: ``FD``
is its end of a ``SOCK_SEQPACKET`` socket pair, ``KIND`` ``session`` or ``web`` (:data:`KINDS`),
each ``MODULE`` one more to import first (``web`` names its command line's, a layer above this
one). Each request
is a JSON message (the child's environment, its memory limit, for a tab its command line) with
file descriptors (SCM_RIGHTS). A session's are its pty and its end of its control socket,
on which ``serve`` has already written the Hub token (never in the environment): its child
leads a new session with the pty as its controlling terminal and standard streams, takes the
environment and the memory limit (RLIMIT_AS), and runs the session as ``python -m
pipeline_tui.serve.session`` would. A tab's are the three pipes textual-serve would give the
app's process (its standard input, output and error): its child takes them as its standard
streams and the environment textual-serve builds (its web driver, the tab's size), and runs
the module and arguments of the request as ``python -m`` does: the command line textual-serve
would have run (serve/web.py). The web
zygote itself runs in the environment every tab shares, so that what Textual reads from it at
import (``textual.constants``) is what a tab's own process would have read. The zygote
answers with the child's pid and a pidfd of it (so the server sees it end, and can signal it,
even when the zygote is gone), and reports each child's exit status when it reaps it.

Nothing outlives its server: the zygote dies with it (``PR_SET_PDEATHSIG`` on Linux, and the
socket's end of file), a session child ends when its pty hangs up, and a tab's app when its
standard input does (``ui/app.py``), as spawned ones do. A child that crashes takes only its
session or tab; a zygote that dies is started again by its server (:class:`Zygote`), whose
sessions and tabs go on. The zygote holds no table and never writes one.

Forking needs Linux (``os.pidfd_open``, ``socket.send_fds``); elsewhere, or with
``PIPELINE_TUI_SPAWN=1`` or ``serve --spawn`` / ``web --spawn``, each session or tab is spawned
as before (:func:`forking_available`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import fcntl
import gc
import importlib
import io
import json
import os
import resource
import runpy
import select
import selectors
import signal
import socket
import sys
import termios
from collections.abc import Callable, Mapping
from typing import Any

SPAWN_ENV = "PIPELINE_TUI_SPAWN"  # "1": spawn every session, never fork one from the zygote
MAX_MESSAGE = 64 << 10  # bytes of one request or answer
RESTART_DELAY = 0.5  # seconds between a zygote's death and its successor's start, at first
MAX_RESTART_DELAY = 30.0  # doubled up to this while zygotes keep dying young
YOUNG = 10.0  # seconds: a zygote that dies younger doubles the delay before the next
ANSWER_WITHIN = 30.0  # seconds for the zygote to fork a child (it may still be importing)
PR_SET_PDEATHSIG = 1
SESSION = "session"  # the kinds of zygote: what it preloads and what its children run
WEB = "web"
KINDS = (SESSION, WEB)
FDS = {SESSION: 2, WEB: 3}  # descriptors a request passes: a pty and a control socket; 3 pipes


def forking_available(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether sessions may be forked from a zygote here: Linux's pidfds and fd passing, and
    not forced off by :data:`SPAWN_ENV`."""
    if environ.get(SPAWN_ENV, "") not in ("", "0"):
        return False
    return (
        sys.platform == "linux"
        and hasattr(os, "fork")
        and hasattr(os, "pidfd_open")
        and hasattr(socket, "send_fds")
    )


class ForkedChild:
    """A child forked by a zygote, as its server sees it: enough of
    :class:`asyncio.subprocess.Process` for a session or a tab (``pid``, ``returncode``,
    ``wait``, ``kill``), through a pidfd, which names this process and no later one."""

    def __init__(self, pid: int, pidfd: int) -> None:
        self.pid = pid
        self.pidfd = pidfd
        self.returncode: int | None = None
        self.done: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def ended(self, status: int) -> None:
        if not self.done.done():
            self.returncode = status
            self.done.set_result(status)
        if self.pidfd >= 0:
            asyncio.get_running_loop().remove_reader(self.pidfd)
            os.close(self.pidfd)
            self.pidfd = -1

    def orphaned(self) -> None:
        """Its zygote died: it was reparented and its status will not be told; its pidfd still
        says when it ends (status 0: nothing is known against it)."""
        if self.pidfd >= 0 and not self.done.done():
            asyncio.get_running_loop().add_reader(self.pidfd, self.ended, 0)

    async def wait(self) -> int:
        return await asyncio.shield(self.done)

    def send_signal(self, signum: int) -> None:
        """Signal the child; ProcessLookupError once it is known to have ended."""
        if self.pidfd < 0:
            raise ProcessLookupError(self.pid)
        signal.pidfd_send_signal(self.pidfd, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def exited(self) -> bool:
        """Whether the child has ended, though its status may not have been told yet."""
        if self.pidfd < 0:
            return True
        return bool(select.select([self.pidfd], [], [], 0)[0])


class Zygote:
    """The server's side of a zygote: starts it (again, if it dies), asks it for children.
    ``kind``: :data:`SESSION` or :data:`WEB`; ``env``: the zygote's own environment (None:
    the server's)."""

    def __init__(
        self,
        log: Callable[[str], None],
        kind: str = SESSION,
        env: Mapping[str, str] | None = None,
        preload: tuple[str, ...] = (),
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"no zygote of kind {kind!r}")
        self.log = log
        self.kind = kind
        self.env = dict(env) if env is not None else None
        self.preload = preload  # modules for the zygote to import besides its kind's own
        self.name = f"the {kind} zygote"
        self.proc: asyncio.subprocess.Process | None = None
        self.sock: socket.socket | None = None
        self.asked: dict[int, asyncio.Future[ForkedChild]] = {}
        self.children: dict[int, ForkedChild] = {}
        self.next_id = 0
        self.closing = False
        self.watcher: asyncio.Task[None] | None = None
        self.starts = 0
        self.delay = RESTART_DELAY
        self.stopping = asyncio.Event()

    async def start(self) -> None:
        """Start the zygote; it imports the app in the background (requests wait for it)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "pipeline_tui.serve.zygote",
                str(theirs.fileno()),
                str(os.getpid()),
                self.kind,
                *self.preload,
                stdin=asyncio.subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),),
                env=self.env,
                start_new_session=True,  # not in serve's process group: Ctrl+C is serve's
            )
        except OSError:
            ours.close()
            raise
        finally:
            theirs.close()
        ours.setblocking(False)
        self.sock = ours
        self.starts += 1
        asyncio.get_running_loop().add_reader(ours.fileno(), self._read)
        self.watcher = asyncio.create_task(self._watch(self.proc, ours))

    async def _watch(self, proc: asyncio.subprocess.Process, sock: socket.socket) -> None:
        """Start the zygote again once it dies, later each time it dies young (one that cannot
        import the app must not take the server's CPU; sessions are spawned meanwhile)."""
        born = asyncio.get_running_loop().time()
        status = await proc.wait()
        self._lost(sock)
        if self.closing:
            return
        young = asyncio.get_running_loop().time() - born < YOUNG
        self.delay = min(MAX_RESTART_DELAY, self.delay * 2) if young else RESTART_DELAY
        self.log(
            f"{self.name} (pid {proc.pid}) ended with status {status}; starting it again in {self.delay:g} s"
        )
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.stopping.wait(), self.delay)  # ends early on close
        if not self.closing:
            with contextlib.suppress(OSError):
                await self.start()
            if self.closing and self.sock is not None:  # closed while starting: it ends on EOF
                self._lost(self.sock)

    def _lost(self, sock: socket.socket) -> None:
        """The zygote on ``sock`` is gone: its requests fail, its children are orphans."""
        if self.sock is sock:
            asyncio.get_running_loop().remove_reader(sock.fileno())
            sock.close()
            self.sock = None
        for future in self.asked.values():
            if not future.done():
                future.set_exception(OSError(f"{self.name} ended"))
        self.asked.clear()
        for child in self.children.values():
            child.orphaned()
        self.children.clear()

    def _read(self) -> None:
        sock = self.sock
        if sock is None:
            return
        try:
            data, fds, _flags, _addr = socket.recv_fds(sock, MAX_MESSAGE, 1)
        except BlockingIOError:
            return
        except OSError:
            data, fds = b"", []
        if not data:
            for fd in fds:
                os.close(fd)
            self._lost(sock)
            return
        try:
            message = json.loads(data)
        except ValueError:
            message = {}
        if "exited" in message:
            child = self.children.pop(int(message["exited"]), None)
            if child is not None:
                child.ended(int(message["status"]))
        future = self.asked.pop(int(message.get("id", -1)), None)
        if future is None or future.done():
            for fd in fds:
                os.close(fd)
            return
        if "pid" in message and fds:
            child = ForkedChild(int(message["pid"]), fds[0])
            self.children[child.pid] = child
            future.set_result(child)
        else:
            for fd in fds:
                os.close(fd)
            future.set_exception(OSError(str(message.get("error", "no child"))))

    @property
    def running(self) -> bool:
        return self.sock is not None

    async def fork(
        self, env: Mapping[str, str], fds: list[int], memory: int = 0, argv: list[str] | None = None
    ) -> ForkedChild:
        """A child with ``env`` on ``fds`` (:data:`FDS`: a session's pty and control socket, a
        tab's stdin, stdout and stderr), its memory capped to ``memory`` bytes (0: not capped),
        running ``argv`` (a tab's command line); OSError if the zygote cannot make one."""
        sock = self.sock
        if sock is None:
            raise OSError(f"{self.name} is not running")
        if len(fds) != FDS[self.kind]:
            raise ValueError(f"{self.name} takes {FDS[self.kind]} descriptors, not {len(fds)}")
        self.next_id += 1
        ident = self.next_id
        request = json.dumps({"id": ident, "env": dict(env), "memory": memory, "argv": argv or []}).encode()
        if len(request) > MAX_MESSAGE:
            raise OSError("the child's environment is too large")
        future: asyncio.Future[ForkedChild] = asyncio.get_running_loop().create_future()
        self.asked[ident] = future
        try:
            socket.send_fds(sock, [request], fds)
        except OSError:
            self.asked.pop(ident, None)
            raise
        try:
            return await asyncio.wait_for(asyncio.shield(future), ANSWER_WITHIN)
        except asyncio.TimeoutError:
            self.asked.pop(ident, None)
            future.add_done_callback(_close_unwanted)
            raise OSError(f"{self.name} did not answer") from None

    async def close(self) -> None:
        """Stop the zygote (its end of file), then kill it if it lingers."""
        self.closing = True
        self.stopping.set()
        if self.sock is not None:
            self._lost(self.sock)
        proc = self.proc
        if proc is not None and proc.returncode is None:
            try:
                await asyncio.wait_for(proc.wait(), 3.0)
            except asyncio.TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        if self.watcher is not None:
            await self.watcher


def _close_unwanted(future: asyncio.Future[ForkedChild]) -> None:
    """A child forked after its session gave up waiting: hang it up."""
    if not future.cancelled() and future.exception() is None:
        child = future.result()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)


# --- the zygote process ---


def die_with_parent(parent: int) -> None:
    """Be killed when ``serve`` dies (Linux's PR_SET_PDEATHSIG); end now if it already has."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)


def preload(kind: str, modules: list[str]) -> None:
    """Import what every session (or tab) uses and ``modules`` (named by the server: a tab's
    command's own, above this layer), warm what is worth it, then freeze the heap."""
    import textual.app  # noqa: F401
    import textual.widgets  # noqa: F401

    from ..ui import compat

    if kind == SESSION:
        from ..net.priority import SessionPriority  # noqa: F401
        from ..ui.lobby import SharedApp  # noqa: F401
        from . import session  # noqa: F401

        warm: tuple[str, ...] = compat.SESSION_WARM_MODULES
    else:
        from ..ui.app import PipelineApp  # noqa: F401
        from ..ui.table_screen import TableScreen  # noqa: F401  # a tab's first game, not its title

        warm = (*modules, *compat.TAB_WARM_MODULES)
    for name in warm:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    if kind == SESSION:
        try:
            session.warm_up()
        except Exception as exc:  # noqa: BLE001 - a saving only: each session then does it itself
            print(f"pipeline-tui: the session zygote could not warm up ({exc!r}); going on", file=sys.stderr)
    gc.collect()
    gc.freeze()  # start-up objects are never collected: their pages stay shared


def send(sock: socket.socket, message: dict[str, Any], fds: list[int] | None = None) -> None:
    with contextlib.suppress(OSError):  # serve is gone: the next read sees the end
        socket.send_fds(sock, [json.dumps(message).encode()], fds or [])


def reap(sock: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        send(sock, {"exited": pid, "status": os.waitstatus_to_exitcode(status)})


def take_streams(streams: tuple[int, int, int], request: dict[str, Any]) -> None:
    """In a forked child: ``streams`` as descriptors 0, 1 and 2 (each closed once moved there)
    and the environment and memory limit of ``request``."""
    for fd, given in enumerate(streams):
        os.dup2(given, fd)
    for given in set(streams):
        if given > 2:
            os.close(given)
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in dict(request.get("env", {})).items()})
    memory = int(request.get("memory", 0))
    if memory > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    # new standard streams (Textual writes to sys.__stderr__, its web driver to sys.__stdout__),
    # in UTF-8 as spawned children have them (PYTHONIOENCODING)
    for name, fd in (("stdin", 0), ("stdout", 1), ("stderr", 2)):
        raw = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
        stream = io.TextIOWrapper(raw, encoding="utf-8", line_buffering=fd > 0)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def session_child(request: dict[str, Any], fds: list[int]) -> int:
    """In a forked session child: take the session's terminal, environment and limits, and run it."""
    pty, control = fds
    os.setsid()
    fcntl.ioctl(pty, termios.TIOCSCTTY, 0)
    take_streams((pty, pty, pty), request)
    os.environ["PIPELINE_TUI_CONTROL"] = str(control)
    from . import session

    return session.main()


def tab_child(request: dict[str, Any], fds: list[int]) -> int:
    """In a forked tab's child: take the tab's pipes and environment, and run the module
    ``request["argv"][0]`` with the arguments after it as ``python -m`` does, as textual-serve's
    ``exec python -m pipeline_tui ...`` would have (its ``SystemExit`` is the exit status)."""
    os.setsid()  # a process group of its own
    take_streams((fds[0], fds[1], fds[2]), request)
    module, *argv = [str(arg) for arg in request.get("argv", [])]
    sys.argv = [sys.argv[0], *argv]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
    return 0


def fork_child(
    sock: socket.socket, kind: str, request: dict[str, Any], fds: list[int], keep: list[int]
) -> None:
    """Fork a child for ``request``; tell the server its pid and a pidfd, or why not."""
    ident = request.get("id", -1)
    if len(fds) != FDS[kind]:
        send(sock, {"id": ident, "error": f"a request takes {FDS[kind]} descriptors"})
        for fd in fds:
            os.close(fd)
        return
    try:
        pid = os.fork()
    except OSError as exc:
        send(sock, {"id": ident, "error": str(exc)})
        for fd in fds:
            os.close(fd)
        return
    if pid == 0:
        status = 1
        try:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            for fd in keep:
                os.close(fd)
            status = (session_child if kind == SESSION else tab_child)(request, fds)
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
        except BaseException:  # a crash ends this session alone, never the zygote's loop
            import traceback

            with contextlib.suppress(Exception):
                traceback.print_exc()
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(status)
    try:
        pidfd = os.pidfd_open(pid)  # before it can be reaped: it is ours until we wait
    except OSError as exc:
        os.kill(pid, signal.SIGKILL)
        send(sock, {"id": ident, "error": str(exc)})
    else:
        send(sock, {"id": ident, "pid": pid}, [pidfd])
        os.close(pidfd)
    finally:
        for fd in fds:
            os.close(fd)


def main(argv: list[str]) -> int:
    try:
        fd, parent = int(argv[0]), int(argv[1])
        kind = argv[2] if len(argv) > 2 else SESSION
        modules = argv[3:]
        if kind not in KINDS:
            raise ValueError(kind)
    except (IndexError, ValueError):
        print(
            "usage: python -m pipeline_tui.serve.zygote FD PARENT [session|web [MODULE...]] (by serve or web)",
            file=sys.stderr,
        )
        return 2
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # serve's to stop, with its sessions
    sock = socket.socket(fileno=fd)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    preload(kind, modules)
    selector = selectors.DefaultSelector()
    selector.register(sock, selectors.EVENT_READ)
    selector.register(wake_r, selectors.EVENT_READ)
    keep = [sock.fileno(), wake_r, wake_w, selector.fileno()]  # what a child closes
    while True:
        for key, _events in selector.select():
            if key.fileobj == wake_r:
                with contextlib.suppress(OSError):
                    os.read(wake_r, 4096)
                reap(sock)
                continue
            try:
                data, fds, _flags, _addr = socket.recv_fds(sock, MAX_MESSAGE, max(FDS.values()))
            except InterruptedError:
                continue
            except OSError:
                data, fds = b"", []
            if not data:
                return 0  # serve is gone or stopping; the children end with their ptys
            try:
                request = json.loads(data)
                if not isinstance(request, dict):
                    raise ValueError(request)
            except ValueError:
                for received in fds:
                    os.close(received)
                continue
            sys.stdout.flush()
            sys.stderr.flush()
            fork_child(sock, kind, request, fds, keep)
        reap(sock)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
