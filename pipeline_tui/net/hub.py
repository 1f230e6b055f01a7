"""The Hub: the one authoritative process behind every shared table (docs/shared-tables.md).

It serves :mod:`.protocol` on a Unix socket (mode 0600) around a :class:`TableService`. The SSH
server authenticates a key and calls :meth:`Hub.issue_token`; a connection proves who it is by
sending that token first, and from then on every request is judged against that identity. After
every change the Hub pushes an :class:`Update` to every connection joined to the table, and it
plays the computer seats itself (one ``ai.Bot`` per table and seat, asked in a worker thread,
``bot_delay`` apart); a bot that fails hands its seat to the players at the table.

The TableService is called only from one "tables" thread, one call at a time, so the event loop
(which also runs the SSH server under ``serve``) never waits for a table file's fsync.

Clocked tables: after every change the Hub asks the table when the seat to act runs out of time
and sets one timer for that moment (``loop.call_later``; nothing polls); when it fires, the
service applies the setup's rule and the Hub tells everyone at the table. At a stop every running
clock is written with its table, so the time the server is down is charged to no one.

Run alone (for tests and benchmarks): ``python -m pipeline_tui.net.hub --tables DIR
--socket PATH --token IDENTITY:NAME ...`` prints one JSON line ``{"tokens": {...}}`` when it
listens, and serves until SIGTERM/SIGINT.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import os
import secrets
import signal
import socket
import stat
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, TypeVar

import msgspec

from ..ai import Bot, make_bot
from ..engine.setup import GameSetup
from ..i18n import N_, language_of
from .players import KeyBells, KeyLanguages
from .protocol import (
    AnyRequest,
    CreateTable,
    Created,
    Done,
    FrameError,
    Hello,
    Join,
    JoinedReply,
    Leave,
    ListTables,
    MoveRequest,
    Refused,
    SetBell,
    SetLanguage,
    Tables,
    TableError,
    UndoRequest,
    Update,
    Welcome,
    decode_request,
    frame,
    read_frame,
)
from .store import SaveFailed, TableStore, open_store
from .tables import TableService

log = logging.getLogger(__name__)

HELLO_TIMEOUT = 30.0  # seconds a new connection has to present its token
MAX_BACKLOG = 8 << 20  # bytes queued to a connection that does not read before it is dropped
MAX_CONNECTIONS = 512
SAVE_RETRY = 5.0  # seconds before a computer seat tries again when its move could not be saved
RECONNECT = 1.0  # seconds between tries to reach a shared store's database again
MAX_SHOWN_NAME = 32  # a player's shown name (the SSH user name) is cut to this


class _Unjoined(enum.Enum):
    """Not at the table at all (neither seated nor watching)."""

    UNJOINED = enum.auto()


_UNJOINED = _Unjoined.UNJOINED
T = TypeVar("T")


class _Connection:
    """One client connection: who it is and which tables it has joined (seat or None)."""

    def __init__(self, number: int, writer: asyncio.StreamWriter) -> None:
        self.number = number
        self.writer = writer
        self.identity = ""
        self.name = ""
        self.joined: dict[str, int | None] = {}
        self.closed = False

    def __str__(self) -> str:
        who = f" {self.name} ({self.identity})" if self.identity else ""
        return f"client #{self.number}{who}"

    def send(self, message: msgspec.Struct) -> None:
        """Queue a frame; a client that lets too much pile up unread is dropped."""
        if self.closed:
            return
        try:
            self.writer.write(frame(message))
        except (ConnectionError, RuntimeError) as exc:
            self.drop(f"cannot be written to ({exc})")
            return
        if self.writer.transport.get_write_buffer_size() > MAX_BACKLOG:
            self.drop(f"more than {MAX_BACKLOG} bytes of updates left unread")

    def close(self) -> None:
        """Close quietly (the client left or the hub is done with it)."""
        if not self.closed:
            self.closed = True
            self.writer.close()

    def drop(self, reason: str) -> None:
        if not self.closed:
            log.warning("closing %s: %s", self, reason)
            self.closed = True
            self.writer.close()


class Hub:
    """Every shared table, its connections and its computer seats, in one asyncio process."""

    def __init__(
        self,
        tables_dir: Path,
        *,
        bot_delay: float = 0.5,
        store: str | TableStore | None = None,
        wall: Callable[[], float] = time.monotonic,
    ) -> None:
        """``tables_dir`` keeps the node's own files (the players' languages) and, without a
        ``store``, the tables; ``store``: a ``postgresql://`` URL (or a store) shared by nodes;
        ``wall``: the clocks' seconds."""
        opened = store if isinstance(store, TableStore) else open_store(store or Path(tables_dir))
        self.service = TableService(opened, wall=wall)  # loads every table: restart resume
        # Computer seats play on one node at a time: a shared store's lease says which.
        self._bots_here = not opened.shared
        self._store_tasks: list[asyncio.Task[None]] = []
        self.languages = KeyLanguages(Path(tables_dir))  # the language each key chose
        self.bells = KeyBells(Path(tables_dir))  # the keys that want a bell on their turn
        self.bot_delay = bot_delay
        self.socket_path: Path | None = None
        self._tokens: dict[str, tuple[str, str]] = {}
        self._connections: set[_Connection] = set()
        self._handlers: set[asyncio.Task[None]] = set()
        self._watchers: dict[str, set[_Connection]] = {}
        self._bots: dict[str, asyncio.Task[None]] = {}
        self._players: dict[tuple[str, int], Bot] = {}  # each computer seat's bot, by table
        self._bot_thread: ThreadPoolExecutor | None = None
        self._tables_thread: ThreadPoolExecutor | None = None
        self._server: asyncio.AbstractServer | None = None
        self._count = 0
        self._deadlines: dict[str, asyncio.TimerHandle] = {}  # each clocked table's next flag
        self._clock_tasks: set[asyncio.Task[None]] = set()

    @property
    def problems(self) -> list[str]:
        """One line per table file that could not be loaded (left untouched on disk)."""
        return list(self.service.problems)

    # --- identity -------------------------------------------------------------------------
    def issue_token(self, identity: str, name: str) -> str:
        """A secret that lets one connection act as ``identity`` (shown as ``name``, folded to
        one printable line of at most :data:`MAX_SHOWN_NAME` characters)."""
        token = secrets.token_urlsafe(32)
        shown = "".join(c for c in " ".join(str(name).split()) if c.isprintable())[:MAX_SHOWN_NAME]
        self._tokens[token] = (identity, shown or "player")
        return token

    def revoke_token(self, token: str) -> None:
        """Forget a token (connections already signed in with it stay)."""
        self._tokens.pop(token, None)

    # --- life cycle -----------------------------------------------------------------------
    async def start(self, socket_path: Path) -> None:
        """Listen on ``socket_path`` (created 0600) and start the computer seats due to move."""
        path = Path(socket_path)
        sock = _bind_private(path)
        self._bot_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pipeline-bot")
        self._tables_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pipeline-tables")
        self._server = await asyncio.start_unix_server(self._accept, sock=sock)
        self.socket_path = path
        log.info("hub listening on %s with %d tables", path, len(self.service.tables))
        for table_id in list(self.service.tables):
            self._kick_bots(table_id)
            self.watch_clock(table_id)
        if self.service.store.shared:
            loop = asyncio.get_running_loop()
            self._store_tasks = [loop.create_task(self._listen()), loop.create_task(self._lease())]

    async def close(self) -> None:
        """Stop listening, drop every connection and stop the computer seats."""
        if self._server is not None:
            self._server.close()
        for handle in self._deadlines.values():
            handle.cancel()
        self._deadlines.clear()
        for task in [*self._bots.values(), *self._clock_tasks, *self._store_tasks]:
            task.cancel()
        with contextlib.suppress(TableError):
            await self._call(self.service.stop_clocks)
        for conn in list(self._connections):
            conn.drop("the hub is closing")
        pending = [*self._bots.values(), *self._handlers, *self._clock_tasks, *self._store_tasks]
        if pending:
            await asyncio.wait(pending, timeout=5.0)
        self._bots.clear()
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None
        if self._tables_thread is not None:
            with contextlib.suppress(RuntimeError):
                await asyncio.get_running_loop().run_in_executor(
                    self._tables_thread, self.service.store.close
                )
        for attribute in ("_bot_thread", "_tables_thread"):  # a bot may think on for ~1 s
            executor = getattr(self, attribute)
            if executor is not None:
                setattr(self, attribute, None)
                await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
        if self.socket_path is not None:
            try:
                self.socket_path.unlink()
            except FileNotFoundError:
                pass
            self.socket_path = None

    # --- connections ----------------------------------------------------------------------
    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None  # called as a task by asyncio's server
        self._handlers.add(task)
        self._count += 1
        conn = _Connection(self._count, writer)
        try:
            if len(self._connections) >= MAX_CONNECTIONS:
                conn.drop(f"already {MAX_CONNECTIONS} connections")
                return
            self._connections.add(conn)
            await self._serve(conn, reader)
        except FrameError as exc:
            conn.drop(str(exc))
        except (ConnectionError, asyncio.TimeoutError) as exc:
            conn.drop(f"connection ended ({type(exc).__name__})")
        except asyncio.CancelledError:
            conn.drop("cancelled")
        except Exception:
            log.exception("%s: unexpected failure", conn)
            conn.drop("unexpected failure (see the traceback above)")
        finally:
            self._connections.discard(conn)
            conn.close()
            with contextlib.suppress(TableError):  # the hub is closing: nobody is left to tell
                await self._forget(conn)
            self._handlers.discard(task)

    async def _serve(self, conn: _Connection, reader: asyncio.StreamReader) -> None:
        try:
            body = await asyncio.wait_for(read_frame(reader), HELLO_TIMEOUT)
        except asyncio.TimeoutError:
            raise FrameError(f"no hello within {HELLO_TIMEOUT:.0f} s") from None
        if body is None:
            return
        hello = decode_request(body)
        if not isinstance(hello, Hello):
            raise FrameError(f"the first request must be hello, not {type(hello).__name__}")
        who = self._tokens.get(hello.token)
        if who is None:
            conn.send(Refused.of(hello.id, TableError(N_("Server: unknown token"))))
            await conn.writer.drain()
            raise FrameError("unknown token")
        conn.identity, conn.name = who
        conn.send(
            Welcome(
                id=hello.id,
                identity=conn.identity,
                name=conn.name,
                language=self.languages.get(conn.identity),
                bell=self.bells.get(conn.identity),
            )
        )
        log.info("%s signed in", conn)
        while not conn.closed:
            body = await read_frame(reader)
            if body is None:
                return
            request = decode_request(body)
            try:
                await self._dispatch(conn, request)
            except TableError as exc:
                conn.send(Refused.of(request.id, exc))
            except Exception:
                log.exception("%s: request %s failed", conn, type(request).__name__)
                error = TableError(N_("Server: internal error (see the server log)"))
                conn.send(Refused.of(request.id, error))
            await conn.writer.drain()

    async def _forget(self, conn: _Connection) -> None:
        """A connection is gone: it leaves every table it joined."""
        for table_id, seat in list(conn.joined.items()):
            await self._leave(conn, table_id, seat)

    async def _leave(self, conn: _Connection, table_id: str, seat: int | None) -> None:
        conn.joined.pop(table_id, None)
        self._watchers.get(table_id, set()).discard(conn)
        update = await self._call(
            self._leave_sync, table_id, seat, N_("{player} left"), {"player": conn.name}
        )
        if update is not None:
            self._broadcast(update)

    def _leave_sync(
        self, table_id: str, seat: int | None, note: str, values: dict[str, str]
    ) -> Update | None:
        self.service.leave(table_id, seat)
        if seat is None or table_id not in self.service.tables:
            return None
        return self.service.seats_update(table_id, note, **values)

    async def _call(self, function: Callable[..., T], *args: Any) -> T:
        """Run a TableService call in the tables thread (its only caller): the event loop never
        waits for a table file's fsync, and the calls run one at a time in the order made.
        What the call learnt of other nodes' changes (a shared store) is sent first."""
        if self._tables_thread is None:
            raise TableError(N_("Server: the hub is closing"))

        def run() -> tuple[T | None, Exception | None, list[Update]]:
            try:
                return function(*args), None, self.service.take_synced()
            except Exception as exc:
                return None, exc, self.service.take_synced()

        result, error, synced = await asyncio.get_running_loop().run_in_executor(self._tables_thread, run)
        for update in synced:
            self._broadcast(update)
        for table_id in {update.table_id for update in synced}:
            self._kick_bots(table_id)
            self.watch_clock(table_id)  # another node's move: its clock's deadline moved
        if error is not None:
            raise error
        return result  # type: ignore[return-value]  # None only with an error, raised above

    # --- a shared store: the other nodes ----------------------------------------------------
    async def _listen(self) -> None:
        """Read the other nodes' changes when PostgreSQL announces them; when the database is
        lost, tell every table, and catch up on everything once it is back."""
        from .pgstore import PostgresStore, listen  # psycopg: only for a shared store

        store = self.service.store
        assert isinstance(store, PostgresStore)
        lost = False
        while True:
            try:
                async with contextlib.aclosing(listen(store.url, store.node)) as changes:
                    async for table_id in changes:
                        if table_id is None:
                            await self._catch_up(N_("Server: the database is back") if lost else "")
                            lost = False
                        else:
                            await self._sync(table_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not lost:
                    log.error("lost the database %s: %s", store.label, exc)
                    lost = True
                    with contextlib.suppress(TableError):
                        await self._tell_all(
                            N_("Server: the database cannot be reached; moves wait until it is back")
                        )
            await asyncio.sleep(RECONNECT)

    async def _sync(self, table_id: str) -> None:
        try:
            updates = await self._call(self.service.sync, table_id)
        except TableError as exc:
            log.error("table %s not read from the store: %s", table_id, exc)
            return
        for update in updates:
            self._broadcast(update)
        self._kick_bots(table_id)
        self.watch_clock(table_id)

    async def _catch_up(self, note: str) -> None:
        """Read every table again (connected, or connected again) and kick the computer seats."""
        try:
            updates = await self._call(self.service.sync_all)
        except TableError as exc:
            log.error("the tables were not read again: %s", exc)
            return
        for update in updates:
            self._broadcast(update)
        if note:
            await self._tell_all(note)
        for table_id in list(self.service.tables):
            self._kick_bots(table_id)
            self.watch_clock(table_id)

    async def _tell_all(self, note: str) -> None:
        for update in await self._call(self._notes_sync, note, list(self._watchers)):
            self._broadcast(update)

    def _notes_sync(self, note: str, table_ids: list[str]) -> list[Update]:
        return [self.service.seats_update(key, note) for key in table_ids if key in self.service.tables]

    async def _lease(self) -> None:
        """Play the computer seats while this node holds the lease (PostgreSQL hands it to one
        waiting node when its holder's session ends, killed or not)."""
        from .pgstore import PostgresStore, hold_lease

        store = self.service.store
        assert isinstance(store, PostgresStore)
        loop = asyncio.get_running_loop()

        def granted() -> None:
            log.info("this node plays the computer seats now")
            self._bots_here = True
            self._store_tasks.append(loop.create_task(self._catch_up("")))

        while True:
            try:
                await hold_lease(store.url, granted)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("the computer-seat lease ended: %s", exc)
            self._bots_here = False
            await asyncio.sleep(RECONNECT)

    # --- requests -------------------------------------------------------------------------
    async def _dispatch(self, conn: _Connection, request: AnyRequest) -> None:
        """Answer one request (the reply, and any Update, are sent from here).

        An Update goes out in the same event-loop step as the tables thread's answer, before
        anything else runs, so Updates reach every watcher in the order the changes were made.
        """
        rid = request.id
        service = self.service
        if isinstance(request, ListTables):
            conn.send(Tables(id=rid, tables=await self._call(service.list, conn.identity)))
        elif isinstance(request, CreateTable):
            table_id = await self._call(
                self._create_sync, request.setup, request.name, request.colours, request.hints
            )
            conn.send(Created(id=rid, table_id=table_id))
            self._kick_bots(table_id)
            self.watch_clock(table_id)
        elif isinstance(request, Join):
            table_id, seat = request.table_id, request.seat
            old = conn.joined.get(table_id, _UNJOINED)
            joined = await self._call(service.join, table_id, conn.identity, conn.name, seat)
            conn.joined[table_id] = seat  # watching from the snapshot on: no Update is missed
            self._watchers.setdefault(table_id, set()).add(conn)
            conn.send(JoinedReply(id=rid, joined=joined))
            if old is not _UNJOINED or seat is not None:
                if seat is not None:
                    note = N_("{player} sits at {seat}'s seat")
                    values = {"player": conn.name, "seat": joined.seats[seat].name}
                else:
                    note, values = N_("{player} is watching"), {"player": conn.name}
                self._broadcast(await self._call(self._rejoin_sync, table_id, old, note, values))
            if seat is not None:  # the last seat taken starts the clocks; a seat taken back too
                self._kick_bots(table_id)
                self.watch_clock(table_id)
        elif isinstance(request, MoveRequest):
            self._check_seated(conn, request.table_id, undo=False)
            self._broadcast(await self._call(service.move, request.table_id, conn.identity, request.text))
            conn.send(Done(id=rid))
            self._kick_bots(request.table_id)
            self.watch_clock(request.table_id)
        elif isinstance(request, UndoRequest):
            self._check_seated(conn, request.table_id, undo=True)
            self._broadcast(await self._call(service.undo, request.table_id, conn.identity))
            conn.send(Done(id=rid))
            self.watch_clock(request.table_id)
        elif isinstance(request, Leave):
            at = conn.joined.get(request.table_id, _UNJOINED)
            if not isinstance(at, _Unjoined):
                await self._leave(conn, request.table_id, at)
            conn.send(Done(id=rid))
        elif isinstance(request, SetLanguage):
            language = language_of(request.language)
            if language is None:
                raise TableError(N_("Server: unknown language {language}"), language=repr(request.language))
            try:
                self.languages.set(conn.identity, language)
            except OSError as exc:
                log.error("%s: language not remembered: %s", conn, exc)
                raise TableError(N_("Server: the language could not be remembered")) from None
            conn.send(Done(id=rid))
        elif isinstance(request, SetBell):
            try:
                self.bells.set(conn.identity, request.on)
            except OSError as exc:
                log.error("%s: bell choice not remembered: %s", conn, exc)
                raise TableError(N_("Server: the choice could not be remembered")) from None
            conn.send(Done(id=rid))
        elif isinstance(request, Hello):
            raise TableError(N_("Server: this connection has already signed in"))

    def _create_sync(self, setup: GameSetup, name: str, colours: list[str], hints: bool = False) -> str:
        return self.service.create(setup, name, colours, hints).id

    def _rejoin_sync(
        self, table_id: str, old: int | None | _Unjoined, note: str, values: dict[str, str]
    ) -> Update:
        if not isinstance(old, _Unjoined):
            self.service.leave(table_id, old)  # the seat (or watching) it joined before
        return self.service.seats_update(table_id, note, **values)

    def _check_seated(self, conn: _Connection, table_id: str, undo: bool) -> None:
        if table_id not in self.service.tables:
            raise TableError(N_("Table: there is no table {table}"), table=repr(table_id))
        seat = conn.joined.get(table_id, _UNJOINED)
        if seat is _UNJOINED:
            raise TableError(N_("Table: join the table first"))
        if seat is None:
            raise TableError(
                N_("Seat: spectators cannot undo") if undo else N_("Seat: spectators cannot move")
            )

    def _broadcast(self, update: Update) -> None:
        for conn in list(self._watchers.get(update.table_id, ())):
            conn.send(update)

    # --- computer seats -------------------------------------------------------------------
    def _kick_bots(self, table_id: str) -> None:
        """Make sure the table's computer seats are looked after (the task stops at once when
        no computer seat is to act)."""
        task = self._bots.get(table_id)
        if self._server is None or not self._bots_here or (task is not None and not task.done()):
            return
        self._bots[table_id] = asyncio.get_running_loop().create_task(self._play_bots(table_id))

    async def _play_bots(self, table_id: str) -> None:
        """Play computer seats until a human is to act or the game ends."""
        loop = asyncio.get_running_loop()
        while self._bots_here:
            if await self._call(self.service.bot_job, table_id) is None:
                return
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            job = await self._call(self.service.bot_job, table_id)
            if job is None:
                return
            kind, count, snapshot = job
            seat = snapshot.current_player
            bot = self._players.get((table_id, seat))
            if bot is None or bot.kind != kind:
                bot = self._players[(table_id, seat)] = make_bot(kind, seed=snapshot.setup.seed)
            try:
                move = await loop.run_in_executor(self._bot_thread, bot.choose, snapshot)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.exception("table %s: the %s bot failed; its seat is handed to the table", table_id, kind)
                handed = await self._call(
                    self.service.bot_failed, table_id, seat, f"{type(exc).__name__}: {exc}"
                )
                if handed is not None:
                    self._broadcast(handed)
                return
            try:
                update = await self._call(self.service.play_bot, table_id, move, count)
            except SaveFailed as exc:
                log.error("table %s: %s; the %s bot tries again in %.0f s", table_id, exc, kind, SAVE_RETRY)
                await asyncio.sleep(SAVE_RETRY)
                continue
            except TableError as exc:
                log.error(
                    "table %s: the %s bot's move was refused (%s); the table waits", table_id, kind, exc
                )
                return
            if update is not None:
                self._broadcast(update)
                self.watch_clock(table_id)

    # --- clocks ---------------------------------------------------------------------------
    def watch_clock(self, table_id: str) -> None:
        """Set the table's flag timer from its clocks (after every change: a move, an undo, a
        seat taken; at start). One timer per clocked table, for the moment the seat to act runs
        out of time; nothing polls."""
        table = self.service.tables.get(table_id)
        if self._server is None or table is None or table.game.setup.clock is None:
            return  # (a table's setup never changes: reading it here is safe)
        task = asyncio.get_running_loop().create_task(self._set_deadline(table_id))
        self._clock_tasks.add(task)
        task.add_done_callback(self._clock_tasks.discard)

    async def _set_deadline(self, table_id: str) -> None:
        seconds = await self._call(self.service.seconds_to_flag, table_id)
        old = self._deadlines.pop(table_id, None)
        if old is not None:
            old.cancel()
        if seconds is None or self._server is None:
            return
        loop = asyncio.get_running_loop()
        # a millisecond over: the game time counts whole milliseconds
        self._deadlines[table_id] = loop.call_later(seconds + 0.001, self._deadline_passed, table_id)

    def _deadline_passed(self, table_id: str) -> None:
        self._deadlines.pop(table_id, None)
        task = asyncio.get_running_loop().create_task(self._flag(table_id))
        self._clock_tasks.add(task)
        task.add_done_callback(self._clock_tasks.discard)

    async def _flag(self, table_id: str) -> None:
        """The seat to act's time is up: the service applies the table's rule; everyone at the
        table is told, and the computer seat starts playing (or the game has ended)."""
        try:
            update = await self._call(self.service.flag, table_id)
        except TableError as exc:  # could not be saved: try again at the next change or start
            log.error("table %s: the time that ran out could not be recorded (%s)", table_id, exc)
            return
        if update is not None:
            self._broadcast(update)
            self._kick_bots(table_id)
        self.watch_clock(table_id)


def _bind_private(path: Path) -> socket.socket:
    """A Unix socket bound at ``path`` with mode 0600 from the start (never world-open)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TableError(
            N_("Server: cannot create {folder} ({reason})"), folder=path.parent, reason=exc.strerror or exc
        ) from None
    if os.path.lexists(path):
        if not stat.S_ISSOCK(os.lstat(path).st_mode):
            raise TableError(N_("Server: {path} exists and is not a socket; not replacing it"), path=path)
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(str(path))
        except OSError:
            os.unlink(path)  # a stale socket left by a hub that died
        else:
            raise TableError(N_("Server: another hub is listening on {path}"), path=path)
        finally:
            probe.close()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        sock.bind(str(path))
    except OSError as exc:
        sock.close()
        raise TableError(
            N_("Server: cannot listen on {path} ({reason})"), path=path, reason=exc.strerror or exc
        ) from None
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    sock.setblocking(False)
    return sock


async def _run(
    tables: Path, socket_path: Path, who: list[str], bot_delay: float, store: str | None = None
) -> None:
    hub = Hub(tables, bot_delay=bot_delay, store=store)
    await hub.start(socket_path)
    tokens = {}
    for entry in who:
        identity, colon, name = entry.rpartition(":")  # fingerprints hold a colon themselves
        if not colon:
            identity, name = entry, entry
        tokens[identity] = hub.issue_token(identity, name)
    print(msgspec.json.encode({"tokens": tokens, "problems": hub.problems}).decode(), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await hub.close()


def main(argv: list[str] | None = None) -> int:
    """Run a Hub alone (no SSH): for tests, benchmarks and debugging."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m pipeline_tui.net.hub", description=main.__doc__)
    parser.add_argument("--tables", type=Path, required=True, help="the tables folder")
    parser.add_argument("--store", default=None, help="a postgresql:// URL (default: the tables folder)")
    parser.add_argument("--socket", type=Path, required=True, help="the Unix socket to create")
    parser.add_argument(
        "--token",
        action="append",
        default=[],
        metavar="IDENTITY:NAME",
        help="issue a token for this identity (split at the last colon); "
        "the tokens are printed as JSON; repeatable",
    )
    parser.add_argument("--bot-delay", type=float, default=0.5, help="seconds between bot moves")
    parser.add_argument("--log", default="WARNING", help="log level (default WARNING)")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=args.log.upper(), stream=sys.stderr, format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    try:
        asyncio.run(_run(args.tables, args.socket, args.token, args.bot_delay, args.store))
    except TableError as exc:
        print(f"pipeline-tui hub: {exc.shown()}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["Hub", "TableError", "main"]
