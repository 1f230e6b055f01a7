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

Every client is a stranger (issue 36, docs/security.md): what it sends is checked before it
reaches the child (a NUL byte or an over-long value in TERM or a sent variable closes the session
with one line), every window size is clamped to :attr:`Limits.max_window`, and the host's
:class:`Limits` cap the sessions per key and in all, the connections still logging in
(OpenSSH's MaxStartups), the time to log in, and each session process's memory. The Hub token
reaches the child through an inherited socket, never its environment; the same socket later
tells the child when its window was clamped, and the child says on it when it only watches a
table, which lets spectators alike share one process's screen (serve/stand.py).
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import tempfile
import termios
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import asyncssh

from ..i18n import ENV_LANG, LOCALE_VARIABLES, N_, _, choose_language, translations_for
from ..net.hub import Hub
from ..net.private import make_private
from ..net.store import redact
from ..net.protocol import TableError
from .child import Child, Process, clamp_window, end_child, read_lines, set_window, start_child
from .session import (
    CONTROL_ENV,
    EXIT_NO_MEMORY,
    HUB_ENV,
    LEFT,
    STAND_ENV,
    THEME_ENV,
    TOKEN_ENV,
    WATCH_ENV,
    clamped_notice,
    read_watching,
)
from .stand import (
    CANCEL,
    CUT_REPORT_WAIT,
    HANDOVER_AFTER,
    MAX_BACKLOG,
    STAND_IDENTITY,
    Stand,
    StandKey,
    Stands,
    changes_nothing,
)
from .zygote import Zygote, forking_available

HOST_KEY_FILE = "ssh_host_ed25519_key"
NO_PTY = N_(
    "pipeline-tui needs a terminal: connect with `ssh -t` from a terminal (this session asked for none)"
)
KEEPALIVE, KEEPALIVE_COUNT = 30.0, 3  # a client silent to 3 keepalives 30 s apart is gone
LANGUAGE_ENV = (ENV_LANG, *LOCALE_VARIABLES)  # the session's language: the client's, not ours
CLIENT_ENV = (*LANGUAGE_ENV, "LC_CTYPE", "COLORTERM")  # passed on to the child if sent
MAX_PENDING_INPUT = 64 << 10  # bytes typed ahead of the child before the client must wait
MIN_CHANNELS = 16  # session channels a connection may have open at once, at the least
MAX_VALUE = 256  # characters in TERM or a variable passed on to the child
MiB = 1 << 20
SESSION_BUDGET = 256 * MiB  # of the machine's memory per session, for the default cap in all
BAD_VALUE = N_(
    "pipeline-tui: your ssh client sent {name} with a NUL byte or over {limit} characters; "
    "the session is closed"
)
SERVER_FULL = N_("pipeline-tui: the server is full ({count} sessions); try again later")
KEY_FULL = N_(
    "pipeline-tui: your key has {count} sessions open, the most one key may have; close one and try again"
)
SESSION_DIED = N_("pipeline-tui: the session ended unexpectedly ({reason}); connect again to go on")


def machine_memory() -> int:
    """The machine's memory in bytes (``sysconf``), or 4 GiB if it cannot say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 4 << 30


def default_sessions(memory: int | None = None) -> int:
    """Sessions in all by default: one per :data:`SESSION_BUDGET` of the machine's memory,
    at least 4 (a session measures about 50-80 MB; its limit is :attr:`Limits.session_memory`)."""
    return max(4, (machine_memory() if memory is None else memory) // SESSION_BUDGET)


@dataclass(frozen=True)
class Startups:
    """OpenSSH's MaxStartups for connections not yet logged in: past ``start`` of them a new
    one is dropped with probability ``rate`` percent, rising linearly to 100 at ``full``."""

    start: int = 64
    rate: int = 30
    full: int = 256

    @classmethod
    def parse(cls, text: str) -> "Startups":
        """``START:RATE:FULL`` or a plain cap ``N``; ValueError (one line) if neither."""
        parts = text.split(":")
        try:
            numbers = [int(p) for p in parts]
        except ValueError:
            numbers = []
        if len(numbers) == 1 and numbers[0] >= 1:
            return cls(numbers[0], 100, numbers[0])
        if len(numbers) == 3 and 1 <= numbers[0] <= numbers[2] and 0 <= numbers[1] <= 100:
            return cls(*numbers)
        raise ValueError(
            _("{text!r}: give START:RATE:FULL (1 <= START <= FULL, RATE 0-100) or one number").format(
                text=text
            )
        )

    def admits(self, waiting: int, draw: float) -> bool:
        """Whether a new connection is let in while ``waiting`` others are logging in;
        ``draw`` is uniform in [0, 1)."""
        if waiting >= self.full:
            return False
        if waiting < self.start:
            return True
        if self.full == self.start:
            return False
        drop = self.rate + (100 - self.rate) * (waiting - self.start) / (self.full - self.start)
        return draw * 100 >= drop

    def __str__(self) -> str:
        return f"{self.start}:{self.rate}:{self.full}"


@dataclass(frozen=True)
class Limits:
    """What a host lets clients spend (docs/security.md); each is a ``serve`` flag."""

    max_window: tuple[int, int] = (500, 200)  # columns, rows a session's pty may have
    sessions_per_key: int = 4
    sessions: int = field(default_factory=default_sessions)  # in all
    login_grace: float = 20.0  # seconds to log in
    startups: Startups = Startups()
    session_memory: int = 1024 * MiB  # address space of one session process (RLIMIT_AS)

    @property
    def channels(self) -> int:
        """Session channels one connection may have open at once: its key's sessions, and room
        for as many being refused."""
        return max(MIN_CHANNELS, 2 * self.sessions_per_key)


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


def unusable_value(value: str) -> bool:
    """Whether a client's TERM or variable cannot go into the child's environment."""
    return "\0" in value or len(value) > MAX_VALUE


class Front:
    """What every connection shares: the Hub, who may log in, the limits, the open sessions."""

    def __init__(
        self,
        hub: Hub,
        socket_path: Path,
        authorized: asyncssh.SSHAuthorizedKeys | None,
        log: Callable[[str], None],
        limits: Limits | None = None,
        zygote: Zygote | None = None,
        share_after: float | None = HANDOVER_AFTER,
    ) -> None:
        self.hub = hub
        self.zygote = zygote  # None: every session is spawned
        self.socket_path = socket_path
        self.authorized = authorized  # None: any key (--open)
        self.log = log
        self.limits = limits or Limits()
        self.sessions: set[GameSession] = set()
        self.logging_in = 0  # connections not yet logged in (Limits.startups)
        self.connections: dict[str, int] = {}  # logged-in connections per key
        # watchers alike share one process drawing their table (None: each has their own)
        self.stands: Stands | None = None
        self.share_after = share_after  # seconds untouched before a watcher shares one
        if share_after is not None:  # issue 38: a stand replaces sessions: the cap caps them
            self.stands = Stands(
                lambda: hub.issue_token(STAND_IDENTITY, "stand"),
                hub.revoke_token,
                zygote,
                self.limits.session_memory,
                log,
                self.limits.sessions,
            )

    def allows(self, key: asyncssh.SSHKey, host: str, addr: str) -> bool:
        return self.authorized is None or self.authorized.validate(key, host, addr) is not None

    def refusal(self, identity: str, connecting: bool) -> str | None:
        """Why one more session (or, ``connecting``, connection) of ``identity`` is refused:
        a message id with its count, formatted; None if there is room."""
        if connecting:
            mine, everyone = self.connections.get(identity, 0), sum(self.connections.values())
        else:
            mine = sum(1 for s in self.sessions if s.identity == identity)
            everyone = len(self.sessions)
        if everyone >= self.limits.sessions:
            return SERVER_FULL
        if mine >= self.limits.sessions_per_key:
            return KEY_FULL
        return None

    def refusal_count(self, message: str) -> int:
        return self.limits.sessions if message == SERVER_FULL else self.limits.sessions_per_key

    async def close_sessions(self) -> None:
        await asyncio.gather(*(s.hang_up() for s in list(self.sessions)), return_exceptions=True)
        if self.stands is not None:
            await self.stands.close()


class GameServer(asyncssh.SSHServer):
    """One SSH connection: public-key authentication only; the key names the player."""

    def __init__(self, front: Front) -> None:
        self.front = front
        self.conn: asyncssh.SSHServerConnection | None = None
        self.key: asyncssh.SSHKey | None = None
        self.username = ""
        self.logging_in = False  # counted in Front.logging_in
        self.counted = ""  # the identity counted in Front.connections once logged in
        self.channels = 0  # session channels open on this connection
        self.refused_channels = 0

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        if not self.front.limits.startups.admits(self.front.logging_in, random.random()):
            peer = (conn.get_extra_info("peername") or ("?",))[0]
            self.front.log(
                f"dropped a connection from {peer}: {self.front.logging_in} still logging in "
                f"(--max-startups {self.front.limits.startups})"
            )
            asyncio.get_running_loop().call_soon(conn.abort)
            return
        self.logging_in = True
        self.front.logging_in += 1

    def connection_lost(self, exc: Exception | None) -> None:
        self._logged_in()
        if self.counted:
            left = self.front.connections.get(self.counted, 0) - 1
            if left > 0:
                self.front.connections[self.counted] = left
            else:
                self.front.connections.pop(self.counted, None)
            self.counted = ""

    def _logged_in(self) -> None:
        """No longer counted among the connections logging in (in, refused or gone)."""
        if self.logging_in:
            self.logging_in = False
            self.front.logging_in -= 1

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
        identity = key.get_fingerprint("sha256")
        refusal = self.front.refusal(identity, connecting=True)
        if refusal is not None:
            # refused with one line: OpenSSH's client prints the banner before "Permission denied"
            count = self.front.refusal_count(refusal)
            self.front.log(f"{username} ({identity}) refused: {refusal.format(count=count)}")
            self.connection.send_auth_banner(_(refusal).format(count=count) + "\r\n")
            return False
        self.key = key  # the last key accepted is the one the client then signs with
        return True

    @property
    def identity(self) -> str:
        return self.key.get_fingerprint("sha256") if self.key is not None else ""

    def auth_completed(self) -> None:
        self._logged_in()
        self.counted = self.identity
        self.front.connections[self.counted] = self.front.connections.get(self.counted, 0) + 1
        peer = (self.connection.get_extra_info("peername") or ("?",))[0]
        self.front.log(f"{self.username} ({self.identity}) connected from {peer}")

    def session_requested(self) -> tuple[asyncssh.SSHServerChannel[bytes], "GameSession"] | bool:
        """A session on a channel of our own making: one that keeps only the variables the
        child takes (:class:`ClientEnv`), from the first one the client sends. Refused past
        :meth:`Limits.channels` open on this connection (each costs the server about 5 KB
        even unused: 5,000 took 24 MB)."""
        if self.channels >= self.front.limits.channels:
            if not self.refused_channels:  # once a connection: the log is not theirs to fill
                self.front.log(f"{self.username} ({self.identity}): channels refused, {self.channels} open")
            self.refused_channels += 1
            return False
        chan: asyncssh.SSHServerChannel[bytes] = self.connection.create_server_channel()
        chan._env = ClientEnv({k: v for k, v in chan._env.items() if k in ClientEnv.NAMES})
        self.channels += 1
        return chan, GameSession(self.front, self.identity, self.username, on_gone=self._channel_gone)

    def _channel_gone(self) -> None:
        self.channels -= 1


class ClientEnv(dict[bytes, bytes]):
    """The variables a session's client sent, as asyncssh keeps them, but only those the child
    takes (:data:`CLIENT_ENV`): asyncssh keeps every one, each up to a packet long, without
    end (3,000 of 30 KB took 170 MB of the server's memory)."""

    NAMES = frozenset(name.encode() for name in CLIENT_ENV)

    def __setitem__(self, name: bytes, value: bytes) -> None:
        if name in self.NAMES:
            super().__setitem__(name, value)


class GameSession(asyncssh.SSHServerSession[bytes]):
    """One SSH session: the game in a child process on a pty of its own, or, for a watcher
    who shares one, a stand's screen (serve/stand.py)."""

    def __init__(
        self, front: Front, identity: str, name: str, on_gone: Callable[[], None] | None = None
    ) -> None:
        self.front = front
        self.on_gone = on_gone  # told once, when the channel has closed
        self.identity = identity
        self.name = name
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.size = (80, 24)  # as clamped
        self.asked = (80, 24)  # as the client asked
        self.child: Child | None = None  # the session's own process, if it has one now
        # its terminal is in raw mode (Textual sets it as it starts): keys written before
        # would be cooked by the pty's line discipline (a return made a newline: ctrl+j)
        self.raw = False
        self.started = False  # a child was asked for (input waits for it in to_child)
        self.notice = ""  # a control line due before the child started
        self.tasks: set[asyncio.Task[None]] = set()
        self.to_child = bytearray()
        self.paused = False  # the client takes no more output
        self.input_paused = False  # we take no more input until the child has read some
        self.closed = False  # the channel is gone
        self.ending = False  # the session is to end (EOF, channel closed, server stopping)
        self.control_buffer = bytearray()
        # what the child last said it shows: (table, language, theme) of a watcher's first view
        self.watching: tuple[str, str, str] | None = None
        self.touched = False  # input reached the child since it said so
        self.handover: asyncio.TimerHandle | None = None
        self.stand: Stand | None = None  # the stand whose screen this session shows
        self.reopen: tuple[str, str, str] | None = None  # for the next child: table, language, theme
        # the start of a pointer report from a watcher sharing a stand, cut by a packet's end
        self.cut_report = bytearray()
        self.cut_timer: asyncio.TimerHandle | None = None

    @property
    def master(self) -> int | None:
        return None if self.child is None else self.child.master

    @property
    def proc(self) -> Process | None:
        return None if self.child is None else self.child.proc

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
            self._resize(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return True  # the game, whatever the command (a command without -t is refused below)

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        if self.term is None:
            self._refuse(NO_PTY)
            return
        for name, value in [("TERM", self.term), *self._client_env().items()]:
            if unusable_value(value):
                self.front.log(f"{self.name} ({self.identity}): session refused, unusable {name}")
                self._refuse(BAD_VALUE, name=name, limit=MAX_VALUE)
                return
        refusal = self.front.refusal(self.identity, connecting=False)
        if refusal is not None:
            count = self.front.refusal_count(refusal)
            self.front.log(f"{self.name} ({self.identity}) refused: {refusal.format(count=count)}")
            self._refuse(refusal, count=count)
            return
        self.front.sessions.add(self)
        self.started = True
        self._spawn(self._run())

    def _refuse(self, message: str, **values: object) -> None:
        """Tell the client why in one line, in its language, and close the session."""
        text = translations_for(self._language()).gettext(message).format(**values)
        self.channel.write((text + "\r\n").encode())
        self.channel.exit(1)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width and height:
            self._resize(width, height)
            if self.stand is not None:
                self.unshare()  # a private session at the new size (it may share another stand)
            elif self.master is not None:
                self.touched = True
                set_window(self.master, *self.size)

    def _resize(self, columns: int, rows: int) -> None:
        """Take the client's new size, clamped to the host's largest window; tell the child
        when its window became only a part of the client's."""
        was_part = self.asked != self.size
        self.asked = (columns, rows)
        self.size = clamp_window(columns, rows, self.front.limits.max_window)
        if self.asked != self.size and not was_part:
            self._tell_child(clamped_notice(self.asked, self.size))

    def _tell_child(self, line: str) -> None:
        """A line on the control socket; dropped if the child has not read the ones before."""
        if self.child is None:
            self.notice = line  # sent once the child has started
            return
        try:
            os.write(self.child.control, line.encode())
        except OSError:  # full (the child is not reading) or closed (it ended)
            pass

    def data_received(self, data: bytes, datatype: int | None) -> None:
        if self.stand is not None:
            data = bytes(self.cut_report) + data
            self.cut_report.clear()
            rest = changes_nothing(data)
            if rest is not None:  # a pointer passing over the shared screen
                self.cut_report = bytearray(rest)
                if rest and self.cut_timer is None:
                    loop = asyncio.get_running_loop()
                    self.cut_timer = loop.call_later(CUT_REPORT_WAIT, self._cut_report_is_a_key)
                return
            self.unshare()  # a private session again, which gets the key (below)
        elif self.child is None and not self.started:
            return  # no child to come (refused, or ended)
        self.touched = True
        self.to_child.extend(data)
        if len(self.to_child) > MAX_PENDING_INPUT and not self.input_paused:
            self.input_paused = True  # the client waits (SSH flow control) until the child reads
            self.channel.pause_reading()
        if self.master is not None:
            self._write_child()

    def eof_received(self) -> bool:
        self._spawn(self.hang_up())
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.on_gone is not None:
            self.on_gone()
            self.on_gone = None
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

    def _client_env(self) -> dict[str, str]:
        """The variables the client sent that the child takes (its language, its terminal)."""
        return {k: v for k, v in (self.channel.get_environment() or {}).items() if k in CLIENT_ENV}

    def _language(self) -> str:
        """The language the client's environment asks for (English if none, or one we do not
        speak: a message to the client is never refused for its language)."""
        client = {k: v for k, v in self._client_env().items() if k in LANGUAGE_ENV and not unusable_value(v)}
        try:
            return choose_language(None, client)
        except ValueError:
            return choose_language(None, {k: v for k, v in client.items() if k != ENV_LANG})

    # --- the child ---
    def _child_env(self) -> dict[str, str]:
        # the client's terminal and language, not ours; never the Hub token (the control socket)
        drop = (
            TOKEN_ENV,
            CONTROL_ENV,
            WATCH_ENV,
            THEME_ENV,
            STAND_ENV,
            "COLORTERM",
            "COLUMNS",
            "LINES",
            *LANGUAGE_ENV,
        )
        env = {k: v for k, v in os.environ.items() if k not in drop}
        env.update(self._client_env())
        env.update(
            TERM=self.term or "xterm",
            PYTHONIOENCODING="utf-8",
            **{HUB_ENV: str(self.front.socket_path)},  # CONTROL_ENV: start_child's
        )
        if self.reopen is not None:  # it shared a stand: back at that table, as it was
            table, language, theme = self.reopen
            env.update({WATCH_ENV: table, ENV_LANG: language, THEME_ENV: theme})
        return env

    async def _run(self) -> None:
        """Start the session's child and pump its terminal until it ends; then close the
        channel, unless the session went on to share a stand meanwhile."""
        loop = asyncio.get_running_loop()
        front = self.front
        token = front.hub.issue_token(self.identity, self.name)
        try:
            child = await start_child(
                self._child_env(), self.size, token, front.zygote, front.limits.session_memory, self._log
            )
        except (OSError, ValueError) as exc:  # out of ptys or processes; a value exec refuses
            front.hub.revoke_token(token)
            front.sessions.discard(self)
            self.started = False
            front.log(f"{self.name} ({self.identity}): cannot start a session: {exc}")
            self._refuse(N_("pipeline-tui: cannot start the game: {reason}"), reason=exc)
            return
        self.child = child
        self.raw = False
        self.reopen = None
        self.watching = None
        if self.notice:
            self._tell_child(self.notice)
        loop.add_reader(child.control, self._read_control, child)
        if self.ending:
            await self.hang_up()
        else:
            if not self.paused:
                loop.add_reader(child.master, self._read_child)
            self._write_child()
        status = await child.proc.wait()
        front.hub.revoke_token(token)
        if self.child is not child:  # it gave the screen to a stand: the session goes on
            child.close()
            return
        self._drain_child()
        self.child = None
        self.started = False
        child.close()
        self._cancel_handover()
        front.sessions.discard(self)
        if not self.closed:
            self.closed = True
            if status < 0 and not self.ending:  # killed, not by us: the OOM killer, a crash
                front.log(f"{self.name} ({self.identity}): session ended by signal {-status}")
                try:
                    reason = signal.Signals(-status).name
                except ValueError:  # a real-time signal has no name
                    reason = f"signal {-status}"
                text = translations_for(self._language()).gettext(SESSION_DIED).format(reason=reason)
                self.channel.write(("\r\n" + text + "\r\n").encode())
            elif status == EXIT_NO_MEMORY:
                front.log(f"{self.name} ({self.identity}): session ran out of memory")
            self.channel.exit(status if status >= 0 else 1)

    def _log(self, text: str) -> None:
        self.front.log(f"{self.name} ({self.identity}): {text}")

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
        if not self.raw and self.to_child:
            self._write_child()  # the keys typed while it started, if its terminal is raw now

    def _is_raw(self, master: int) -> bool:
        """Whether the child has put its terminal in raw mode (on Linux, a pty master's
        attributes are its terminal's); checked until it has."""
        if not self.raw:
            try:
                self.raw = not termios.tcgetattr(master)[3] & termios.ICANON
            except termios.error:  # not a terminal's: nothing to wait for
                self.raw = True
        return self.raw

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
        master = self.master
        if master is None or not self._is_raw(master):
            return
        try:
            written = os.write(master, self.to_child) if self.to_child else 0
        except BlockingIOError:
            written = 0
        except OSError:
            self.to_child.clear()
            written = 0
        del self.to_child[:written]
        loop.remove_writer(master)
        if self.to_child:
            loop.add_writer(master, self._write_child)
        if self.input_paused and len(self.to_child) <= MAX_PENDING_INPUT and not self.closed:
            self.input_paused = False
            self.channel.resume_reading()

    # --- sharing a stand (serve/stand.py) ---
    def _read_control(self, child: Child) -> None:
        """Lines from the child: ``watching <table> <language> <theme>`` once a spectator's
        table is drawn and untouched, ``left`` once it is not."""
        lines = read_lines(child.control, self.control_buffer)
        if lines is None or child is not self.child:
            asyncio.get_running_loop().remove_reader(child.control)
            return
        for line in lines:
            watching = read_watching(line)
            if watching is not None:
                self.watching, self.touched = watching, False
                self._cancel_handover()
                loop = asyncio.get_running_loop()
                self.handover = loop.call_later(self.front.share_after or 0.0, self._hand_over)
            elif line == LEFT.strip().encode():
                self.watching = None
                self._cancel_handover()

    def _cancel_handover(self) -> None:
        if self.handover is not None:
            self.handover.cancel()
            self.handover = None

    def _stand_key(self) -> StandKey | None:
        if self.watching is None:
            return None
        table, language, theme = self.watching
        colours = tuple(sorted((k, v) for k, v in self._client_env().items() if k not in LANGUAGE_ENV))
        return StandKey(table, self.size, self.term or "xterm", colours, language, theme)

    def _hand_over(self) -> None:
        """Share a stand for this session's screen, if it is still a watcher's untouched view."""
        self.handover = None
        stands = self.front.stands
        key = self._stand_key()
        if stands is None or key is None or not self.can_share(key):
            return
        env = {k: v for k, v in self._child_env().items() if k not in LANGUAGE_ENV}
        stands.join(key, self, {**env, ENV_LANG: key.language})

    def can_share(self, key: StandKey) -> bool:
        """Whether this session's screen is the one a stand for ``key`` draws."""
        return (
            self.stand is None
            and self.child is not None
            and not (self.closed or self.ending or self.touched)
            and self.asked == self.size
            and self._stand_key() == key
        )

    def share(self, stand: Stand) -> None:
        """Show ``stand``'s screen from now on; the session's own process ends, unheard."""
        child = self.child
        assert child is not None and self.watching is not None
        asyncio.get_running_loop().remove_reader(child.master)
        self.reopen = self.watching
        self.child = None
        self.to_child.clear()
        self.stand = stand
        self.front.log(f"{self.name} ({self.identity}): shares the stand for table {stand.key.table}")
        if not self.closed:
            self.channel.write(CANCEL)  # the child's last frame may end in a cut escape sequence
        self._spawn(end_child(child.proc))

    def show(self, data: bytes) -> None:
        """A stand's output; a client that takes it too slowly gets a private session."""
        if self.closed:
            return
        if self.channel.get_write_buffer_size() > MAX_BACKLOG:
            self._log("too slow for the stand; a session of their own, which waits for them")
            self.unshare()
            return
        self.channel.write(data)

    def _cut_report_is_a_key(self) -> None:
        """No more came after what looked like the start of a pointer report: it was a key
        (escape, say), which the player's own session gets."""
        self.cut_timer = None
        if self.cut_report and self.stand is not None:
            self.touched = True
            self.unshare()  # which hands the bytes on

    def unshare(self) -> None:
        """Leave the stand for a private session at the same table (a key, a new size, a slow
        client, or the stand's end)."""
        stand, self.stand = self.stand, None
        if stand is None:
            return
        stand.leave(self)
        if self.cut_timer is not None:
            self.cut_timer.cancel()
            self.cut_timer = None
        self.to_child.extend(self.cut_report)
        self.cut_report.clear()
        if self.closed or self.ending:
            return
        self.channel.write(CANCEL)
        self.started = True
        self._spawn(self._run())

    async def hang_up(self) -> None:
        """End the session: its child (SIGHUP, then SIGKILL), reaped in _run, which then
        closes the channel if still open; or its place at a stand (the client sent EOF, the
        channel closed or the server stops)."""
        self.ending = True
        self._cancel_handover()
        stand, self.stand = self.stand, None
        if stand is not None:
            stand.leave(self)
            self.front.sessions.discard(self)
            if not self.closed:
                self.closed = True
                self.channel.exit(0)
            return
        proc = self.proc
        if proc is None:
            return
        await end_child(proc)


def _check_folder(folder: Path) -> Path:
    folder = Path(folder).expanduser().absolute()
    try:
        make_private(folder)  # the host key and the players' choices: the server's user alone
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
    limits: Limits | None = None,
    store: str | None = None,
    fork: bool | None = None,
    share_after: float | None = HANDOVER_AFTER,
) -> None:
    """Serve until ``stop`` is set; ServeError (one line) if the server cannot start.
    ``store``: a ``postgresql://`` URL shared with other nodes (the tables folder then keeps
    only this node's host key and the players' languages). ``fork``: sessions forked from a
    zygote (None: where :func:`forking_available`), else spawned. ``share_after``: seconds
    a spectator's screen stays untouched before spectators alike share a stand (serve/stand.py);
    None: each has a process of their own."""
    limits = limits or Limits()
    if fork is None:
        fork = forking_available()
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
        zygote = Zygote(log) if fork else None
        if zygote is not None:
            try:
                await zygote.start()
            except OSError as exc:
                log(f"cannot start the session zygote ({exc}); sessions are spawned")
                zygote = None
        front = Front(hub, socket_path, authorized, log, limits, zygote, share_after)
        try:
            try:
                server = await asyncssh.create_server(
                    lambda: GameServer(front),
                    host,
                    port,
                    server_host_keys=[host_key],
                    encoding=None,
                    gss_host=None,
                    login_timeout=limits.login_grace,
                    keepalive_interval=KEEPALIVE,
                    keepalive_count_max=KEEPALIVE_COUNT,
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
                f"sessions {'forked from a zygote' if zygote else 'spawned'}; "
                + (
                    "every spectator a session of their own; "
                    if share_after is None
                    else f"spectators alike share a stand after {share_after:g} s untouched; "
                )
                + f"limits: {limits.sessions} sessions, {limits.sessions_per_key} per key, windows up to "
                f"{limits.max_window[0]}x{limits.max_window[1]}, {limits.session_memory // MiB} MiB "
                f"per session, {limits.login_grace:g} s to log in, max startups {limits.startups}"
            )
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
            if zygote is not None:
                await zygote.close()
            await hub.close()
    finally:
        shutil.rmtree(rundir, ignore_errors=True)


def run(
    host: str,
    port: int,
    tables: Path,
    authorized_keys: Path | None,
    open_: bool,
    limits: Limits | None = None,
    store: str | None = None,
    fork: bool | None = None,
    share_after: float | None = HANDOVER_AFTER,
) -> int:
    """``pipeline-tui serve``: serve until Ctrl+C or SIGTERM; returns the exit status."""

    def log(text: str) -> None:
        print(text, flush=True)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await serve(
            host,
            port,
            tables,
            authorized_keys,
            open_,
            stop,
            log,
            limits=limits,
            store=store,
            fork=fork,
            share_after=share_after,
        )

    asyncio.run(main())
    log(_("pipeline-tui: server stopped"))
    return 0
