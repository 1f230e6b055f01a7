"""The session zygote of ``pipeline-tui serve`` (issue 38): one process that has imported
Textual, Rich and the shared-tables app once, and forks a session child for each SSH session.

Starting Python and importing the app afresh for every session took about 450 ms of CPU each
and shared no pages between sessions; a forked child starts in a few milliseconds and shares
the zygote's pages until it writes them (``gc.freeze()`` before forking keeps the collector
from writing to every start-up object).

``serve`` starts ``python -m pipeline_tui.serve.zygote FD PARENT``: ``FD`` is its end of a
``SOCK_SEQPACKET`` socket pair. Each request is a JSON message (the child's environment, its
memory limit) with two file descriptors (SCM_RIGHTS): the session's pty and the read end of its
control pipe, on which ``serve`` has already written the Hub token (never in the environment).
The zygote forks; the child leads a new session with the pty as its controlling terminal and
standard streams, takes the environment and the memory limit (RLIMIT_AS), and runs the session
as ``python -m pipeline_tui.serve.session`` would. The zygote answers with the child's pid and a
pidfd of it (so ``serve`` sees it end even when the zygote is gone), and reports each child's
exit status when it reaps it.

Nothing outlives ``serve``: the zygote dies with it (``PR_SET_PDEATHSIG`` on Linux, and the
socket's end of file), and a session child ends when its pty hangs up, as a spawned one does.
A child that crashes takes only its session; a zygote that dies is started again by ``serve``
(:class:`Zygote`), whose sessions go on. The zygote holds no table and never writes one.

Forking needs Linux (``os.pidfd_open``, ``socket.send_fds``); elsewhere, or with
``PIPELINE_TUI_SPAWN=1`` or ``serve --spawn``, each session is spawned as before
(:func:`forking_available`).
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
    """A session child forked by the zygote, as ``serve`` sees it: enough of
    :class:`asyncio.subprocess.Process` for a session (``pid``, ``returncode``, ``wait``)."""

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


class Zygote:
    """``serve``'s side of the zygote: starts it (again, if it dies), asks it for children."""

    def __init__(self, log: Callable[[str], None]) -> None:
        self.log = log
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
                stdin=asyncio.subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),),
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
            f"the session zygote (pid {proc.pid}) ended with status {status}; "
            f"starting it again in {self.delay:g} s"
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
                future.set_exception(OSError("the session zygote ended"))
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

    async def fork(self, env: Mapping[str, str], memory: int, pty: int, control: int) -> ForkedChild:
        """A session child on ``pty`` with ``env``, its memory capped to ``memory`` bytes and
        the control pipe ``control``; OSError if the zygote cannot make one."""
        sock = self.sock
        if sock is None:
            raise OSError("the session zygote is not running")
        self.next_id += 1
        ident = self.next_id
        request = json.dumps({"id": ident, "env": dict(env), "memory": memory}).encode()
        if len(request) > MAX_MESSAGE:
            raise OSError("the session's environment is too large")
        future: asyncio.Future[ForkedChild] = asyncio.get_running_loop().create_future()
        self.asked[ident] = future
        try:
            socket.send_fds(sock, [request], [pty, control])
        except OSError:
            self.asked.pop(ident, None)
            raise
        try:
            return await asyncio.wait_for(asyncio.shield(future), ANSWER_WITHIN)
        except asyncio.TimeoutError:
            self.asked.pop(ident, None)
            future.add_done_callback(_close_unwanted)
            raise OSError("the session zygote did not answer") from None

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


def preload() -> None:
    """Import what every session uses and warm what is worth it, then freeze the heap."""
    import textual.app  # noqa: F401
    import textual.widgets  # noqa: F401

    from ..net.priority import SessionPriority  # noqa: F401
    from ..ui.compat import SESSION_WARM_MODULES
    from ..ui.lobby import SharedApp  # noqa: F401
    from . import session  # noqa: F401

    for name in SESSION_WARM_MODULES:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
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


def child(request: dict[str, Any], pty: int, control: int, keep: list[int]) -> int:
    """In the forked child: take the session's terminal, environment and limits, and run it."""
    for fd in keep:
        os.close(fd)
    os.setsid()
    fcntl.ioctl(pty, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(pty, fd)
    if pty > 2:
        os.close(pty)
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in dict(request.get("env", {})).items()})
    os.environ["PIPELINE_TUI_CONTROL"] = str(control)
    memory = int(request.get("memory", 0))
    if memory > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    # new standard streams on the pty (Textual writes to sys.__stderr__), in UTF-8 as spawned
    # sessions have them (PYTHONIOENCODING)
    for name, fd in (("stdin", 0), ("stdout", 1), ("stderr", 2)):
        raw = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
        stream = io.TextIOWrapper(raw, encoding="utf-8", line_buffering=fd > 0)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)
    from . import session

    return session.main()


def fork_child(sock: socket.socket, request: dict[str, Any], fds: list[int], keep: list[int]) -> None:
    """Fork a child for ``request``; tell ``serve`` its pid and a pidfd, or why not."""
    ident = request.get("id", -1)
    if len(fds) != 2:
        send(sock, {"id": ident, "error": "a request takes a pty and a control pipe"})
        return
    pty, control = fds
    try:
        pid = os.fork()
    except OSError as exc:
        send(sock, {"id": ident, "error": str(exc)})
        return
    if pid == 0:
        status = 1
        try:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            status = child(request, pty, control, keep)
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
        os.close(pty)
        os.close(control)


def main(argv: list[str]) -> int:
    try:
        fd, parent = int(argv[0]), int(argv[1])
    except (IndexError, ValueError):
        print("usage: python -m pipeline_tui.serve.zygote FD PARENT (started by serve)", file=sys.stderr)
        return 2
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # serve's to stop, with its sessions
    sock = socket.socket(fileno=fd)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    preload()
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
                data, fds, _flags, _addr = socket.recv_fds(sock, MAX_MESSAGE, 2)
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
            fork_child(sock, request, fds, keep)
        reap(sock)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
