"""``pipeline-tui serve``: shared tables over SSH.

One asyncio process runs the Hub (the authoritative tables) and an asyncssh server. A client
gets in with a public key listed in the authorized-keys file (any key with ``--open``); the
key's SHA256 fingerprint is the player's identity and the SSH user name their display name.
Passwords and keyboard-interactive logins are refused. Every session with a terminal gets its
own child process (``python -m pipeline_tui.serve.session``) on a pty with the client's TERM
and window size; window changes are passed on (TIOCSWINSZ), bytes are pumped both ways, and
either side ending ends the other. A session without a terminal gets a one-line message and
exit status 1.

Each session speaks its player's language (issue 15, point 3): the ``LANG``, ``LC_ALL``,
``LC_MESSAGES`` and ``PIPELINE_TUI_LANG`` the ssh client sends (asyncssh accepts every env
request; OpenSSH sends ``LANG`` and ``LC_*`` by default through ``SendEnv``) are the child's,
never the server's own, and the child chooses from them as any command does, with the choice
made in the lobby (kept per key by the Hub) coming after ``PIPELINE_TUI_LANG``.

The host key is generated on first start and kept in the tables folder (``ssh_host_ed25519_key``,
mode 0600), so clients see the same key after a restart.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import shutil
import signal
import struct
import sys
import tempfile
import termios
from pathlib import Path
from collections.abc import Coroutine, Mapping
from typing import Any, Callable

import asyncssh

from ..i18n import ENV_LANG, LOCALE_VARIABLES, N_, _, choose_language, translations_for
from ..net.hub import Hub
from ..net.store import redact
from ..net.protocol import TableError
from .session import HUB_ENV, TOKEN_ENV

HOST_KEY_FILE = "ssh_host_ed25519_key"
NO_PTY = N_(
    "pipeline-tui needs a terminal: connect with `ssh -t` from a terminal (this session asked for none)"
)
HANGUP_GRACE = 3.0  # seconds between SIGHUP and SIGKILL for a child whose session closed
LANGUAGE_ENV = (ENV_LANG, *LOCALE_VARIABLES)  # the session's language: the client's, not ours
CLIENT_ENV = (*LANGUAGE_ENV, "LC_CTYPE", "COLORTERM")  # passed on to the child if sent


class ServeError(Exception):
    """The server cannot start; the message is one line."""


def default_authorized_keys() -> Path:
    return Path.home() / ".ssh" / "authorized_keys"


def load_authorized_keys(path: Path) -> asyncssh.SSHAuthorizedKeys:
    """The keys that may log in; ServeError (one line) if the file cannot be read."""
    try:
        return asyncssh.read_authorized_keys(str(path))
    except OSError as exc:
        raise ServeError(
            _(
                "cannot read the authorized keys {path}: {reason} "
                "(name a file with --authorized-keys, or let any key in with --open)"
            ).format(path=path, reason=exc.strerror or exc)
        )
    except (ValueError, asyncssh.KeyImportError) as exc:
        raise ServeError(
            _(
                "the authorized keys {path} hold no usable key ({reason}); add a public "
                "key, or let any key in with --open"
            ).format(path=path, reason=exc)
        )


def load_host_key(folder: Path) -> asyncssh.SSHKey:
    """The server's host key, generated (mode 0600) on first start and kept in ``folder``."""
    path = folder / HOST_KEY_FILE
    try:
        return asyncssh.read_private_key(str(path))
    except FileNotFoundError:
        pass
    except (OSError, ValueError, asyncssh.KeyImportError) as exc:
        raise ServeError(_("cannot read the host key {path}: {reason}").format(path=path, reason=exc))
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key.export_private_key())
    except OSError as exc:
        raise ServeError(
            _("cannot write the host key {path}: {reason}").format(path=path, reason=exc.strerror or exc)
        )
    return key


def set_window(fd: int, columns: int, rows: int) -> None:
    """Give the pty behind ``fd`` a window size (the child gets SIGWINCH)."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", max(rows, 1), max(columns, 1), 0, 0))


class Front:
    """What every connection shares: the Hub, who may log in, the open sessions."""

    def __init__(
        self,
        hub: Hub,
        socket_path: Path,
        authorized: asyncssh.SSHAuthorizedKeys | None,
        log: Callable[[str], None],
    ) -> None:
        self.hub = hub
        self.socket_path = socket_path
        self.authorized = authorized  # None: any key (--open)
        self.log = log
        self.sessions: set[GameSession] = set()

    def allows(self, key: asyncssh.SSHKey, host: str, addr: str) -> bool:
        return self.authorized is None or self.authorized.validate(key, host, addr) is not None

    async def close_sessions(self) -> None:
        await asyncio.gather(*(s.hang_up() for s in list(self.sessions)), return_exceptions=True)


class GameServer(asyncssh.SSHServer):
    """One SSH connection: public-key authentication only; the key names the player."""

    def __init__(self, front: Front) -> None:
        self.front = front
        self.conn: asyncssh.SSHServerConnection | None = None
        self.key: asyncssh.SSHKey | None = None
        self.username = ""

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn

    @property
    def connection(self) -> asyncssh.SSHServerConnection:
        """The connection (asyncssh hands it over before any other callback)."""
        assert self.conn is not None
        return self.conn

    def begin_auth(self, username: str) -> bool:
        self.username = username
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        host, port = (self.connection.get_extra_info("peername") or ("", 0))[:2]
        if not self.front.allows(key, str(host), str(host)):
            return False
        self.key = key  # the last key accepted is the one the client then signs with
        return True

    @property
    def identity(self) -> str:
        return self.key.get_fingerprint("sha256") if self.key is not None else ""

    def auth_completed(self) -> None:
        peer = (self.connection.get_extra_info("peername") or ("?",))[0]
        self.front.log(f"{self.username} ({self.identity}) connected from {peer}")

    def session_requested(self) -> "GameSession":
        return GameSession(self.front, self.identity, self.username)


class GameSession(asyncssh.SSHServerSession[bytes]):
    """One SSH session: the game in a child process on a pty of its own."""

    def __init__(self, front: Front, identity: str, name: str) -> None:
        self.front = front
        self.identity = identity
        self.name = name
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.master: int | None = None
        self.proc: asyncio.subprocess.Process | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.to_child = bytearray()
        self.paused = False
        self.closed = False  # the channel is gone
        self.ending = False  # the child is to end (EOF, channel closed, server stopping)

    # --- the channel ---
    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    @property
    def channel(self) -> asyncssh.SSHServerChannel[bytes]:
        """The session's channel (asyncssh hands it over before any other callback)."""
        assert self.chan is not None
        return self.chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        self.term = term_type or "xterm"
        if term_size[0] and term_size[1]:
            self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return True  # the game, whatever the command (a command without -t is refused below)

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        if self.term is None:
            language = self._language()
            self.channel.write((translations_for(language).gettext(NO_PTY) + "\r\n").encode())
            self.channel.exit(1)
            return
        self.front.sessions.add(self)
        self._spawn(self._run())

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width and height:
            self.size = (width, height)
            if self.master is not None:
                set_window(self.master, width, height)

    def data_received(self, data: bytes, datatype: int | None) -> None:
        if self.master is None and self.proc is not None:
            return
        self.to_child.extend(data)
        if self.master is not None:
            self._write_child()

    def eof_received(self) -> bool:
        self._spawn(self.hang_up())
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._spawn(self.hang_up())

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` as a task kept until it is done (the loop holds tasks only weakly)."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def pause_writing(self) -> None:
        self.paused = True
        if self.master is not None:
            asyncio.get_running_loop().remove_reader(self.master)

    def resume_writing(self) -> None:
        self.paused = False
        if self.master is not None:
            asyncio.get_running_loop().add_reader(self.master, self._read_child)

    def _language(self) -> str:
        """The language the client's environment asks for (English if none, or one we do not
        speak: a message to the client is never refused for its language)."""
        client = {k: v for k, v in (self.channel.get_environment() or {}).items() if k in LANGUAGE_ENV}
        try:
            return choose_language(None, client)
        except ValueError:
            return choose_language(None, {k: v for k, v in client.items() if k != ENV_LANG})

    # --- the child ---
    def _child_env(self, token: str) -> dict[str, str]:
        # the client's terminal and language, not ours
        drop = (TOKEN_ENV, "COLORTERM", "COLUMNS", "LINES", *LANGUAGE_ENV)
        env = {k: v for k, v in os.environ.items() if k not in drop}
        for name, value in (self.channel.get_environment() or {}).items():
            if name in CLIENT_ENV:
                env[name] = value
        env.update(
            TERM=self.term or "xterm",
            PYTHONIOENCODING="utf-8",
            **{HUB_ENV: str(self.front.socket_path), TOKEN_ENV: token},
        )
        return env

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        master, slave = pty.openpty()
        set_window(master, *self.size)
        token = self.front.hub.issue_token(self.identity, self.name)
        try:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "pipeline_tui.serve.session",
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=self._child_env(token),
                start_new_session=True,
            )
        except OSError as exc:
            os.close(master)
            self.front.hub.revoke_token(token)
            text = translations_for(self._language()).gettext(
                N_("pipeline-tui: cannot start the game: {reason}")
            )
            self.channel.write((text.format(reason=exc) + "\r\n").encode())
            self.channel.exit(1)
            return
        finally:
            os.close(slave)
        os.set_blocking(master, False)
        self.master = master
        if self.ending:
            await self.hang_up()
        else:
            if not self.paused:
                loop.add_reader(master, self._read_child)
            self._write_child()
        status = await self.proc.wait()
        self.front.hub.revoke_token(token)
        self._drain_child()
        self._close_master()
        self.front.sessions.discard(self)
        if not self.closed:
            self.closed = True
            self.channel.exit(status if status >= 0 else 1)

    def _read_child(self) -> None:
        master = self.master
        if master is None:  # closed since the read was due
            return
        try:
            data = os.read(master, 1 << 16)
        except BlockingIOError:
            return
        except OSError:  # EIO: the child has closed its terminal
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(master)
            return
        if not self.closed:
            self.channel.write(data)

    def _drain_child(self) -> None:
        """Pass on what the child wrote just before it ended (its last screen, a message)."""
        if self.master is None or self.closed:
            return
        while True:
            try:
                data = os.read(self.master, 1 << 16)
            except OSError:
                return
            if not data:
                return
            self.channel.write(data)

    def _write_child(self) -> None:
        loop = asyncio.get_running_loop()
        if self.master is None:
            return
        try:
            written = os.write(self.master, self.to_child) if self.to_child else 0
        except BlockingIOError:
            written = 0
        except OSError:
            self.to_child.clear()
            written = 0
        del self.to_child[:written]
        loop.remove_writer(self.master)
        if self.to_child:
            loop.add_writer(self.master, self._write_child)

    def _close_master(self) -> None:
        if self.master is not None:
            loop = asyncio.get_running_loop()
            loop.remove_reader(self.master)
            loop.remove_writer(self.master)
            os.close(self.master)
            self.master = None

    async def hang_up(self) -> None:
        """End the child (SIGHUP, then SIGKILL): the client sent EOF, the channel closed or the
        server stops. It is reaped in _run, which then closes the channel if still open."""
        self.ending = True
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        for sig in (signal.SIGHUP, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                await asyncio.wait_for(asyncio.shield(proc.wait()), HANGUP_GRACE)
                return
            except asyncio.TimeoutError:
                continue


def _check_folder(folder: Path) -> Path:
    folder = Path(folder).expanduser().absolute()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ServeError(
            _("cannot use the tables folder {folder}: {reason}").format(
                folder=folder, reason=exc.strerror or exc
            )
        )
    if not os.access(folder, os.R_OK | os.W_OK | os.X_OK):
        raise ServeError(
            _("cannot use the tables folder {folder}: not readable and writable").format(folder=folder)
        )
    return folder


RUN_PREFIX = "pipeline-tui-"  # the temporary folder of a running server: its pid and Hub socket


def remove_stale_run_folders() -> list[Path]:
    """Remove the run folders of servers that are gone (a killed server cannot remove its own):
    ours, named ``pipeline-tui-*`` in the temporary folder, whose ``pid`` names no process.
    Returns what was removed."""
    removed = []
    for folder in Path(tempfile.gettempdir()).glob(RUN_PREFIX + "*"):
        try:
            if not folder.is_dir() or folder.stat().st_uid != os.getuid():
                continue
            pid = int((folder / "pid").read_text())
        except (OSError, ValueError):
            continue  # not one of ours, or not a server's (no pid written)
        try:
            os.kill(pid, 0)
            continue  # still running (or the pid was reused: leave it)
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


async def serve(
    host: str,
    port: int,
    tables: Path,
    authorized_keys: Path | None,
    open_: bool,
    stop: asyncio.Event,
    log: Callable[[str], None] = print,
    bot_delay: float = 0.5,
    store: str | None = None,
) -> None:
    """Serve until ``stop`` is set; ServeError (one line) if the server cannot start.
    ``store``: a ``postgresql://`` URL shared with other nodes (the tables folder then keeps
    only this node's host key and the players' languages)."""
    folder = _check_folder(tables)
    where = redact(store) if store else str(folder)
    authorized = None if open_ else load_authorized_keys(authorized_keys or default_authorized_keys())
    host_key = load_host_key(folder)
    remove_stale_run_folders()
    rundir = Path(tempfile.mkdtemp(prefix=RUN_PREFIX))
    (rundir / "pid").write_text(str(os.getpid()))
    socket_path = rundir / "hub.sock"
    try:
        try:
            hub = Hub(folder, bot_delay=bot_delay, store=store)
            await hub.start(socket_path)
        except (TableError, OSError) as exc:
            reason = exc.shown() if isinstance(exc, TableError) else exc
            raise ServeError(
                _("cannot open the tables in {folder}: {reason}").format(folder=where, reason=reason)
            )
        for problem in hub.problems:
            log(_("pipeline-tui: table file skipped (left as it is): {problem}").format(problem=problem))
        front = Front(hub, socket_path, authorized, log)
        try:
            try:
                server = await asyncssh.create_server(
                    lambda: GameServer(front),
                    host,
                    port,
                    server_host_keys=[host_key],
                    encoding=None,
                    gss_host=None,
                )
            except OSError as exc:
                raise ServeError(
                    _("cannot listen on {host}:{port}: {reason}").format(
                        host=host, port=port, reason=exc.strerror or exc
                    )
                )
            if open_:
                mode = _("any key (--open)")
            else:
                mode = _("keys in {path}").format(path=authorized_keys or default_authorized_keys())
            log(
                _(
                    "pipeline-tui: serving the tables in {folder} on {host} port {port} to {keys}; "
                    "host key {fingerprint}. Ctrl+C stops."
                ).format(
                    folder=where,
                    host=host,
                    port=server.get_port(),
                    keys=mode,
                    fingerprint=host_key.get_fingerprint("sha256"),
                )
            )
            try:
                await stop.wait()
            finally:
                server.close()
                await front.close_sessions()
                await server.wait_closed()
        finally:
            await hub.close()
    finally:
        shutil.rmtree(rundir, ignore_errors=True)


def run(
    host: str, port: int, tables: Path, authorized_keys: Path | None, open_: bool, store: str | None = None
) -> int:
    """``pipeline-tui serve``: serve until Ctrl+C or SIGTERM; returns the exit status."""

    def log(text: str) -> None:
        print(text, flush=True)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await serve(host, port, tables, authorized_keys, open_, stop, log, store=store)

    asyncio.run(main())
    log(_("pipeline-tui: server stopped"))
    return 0
