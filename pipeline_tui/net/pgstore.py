"""Tables in PostgreSQL, shared by several ``serve`` nodes (issue 39; docs/shared-tables.md).

Three tables, made on first use (under an advisory lock, so nodes starting together agree):

- ``pipeline_tables``: one row per table, its setup and meta (name, colours, hints) as JSON;
  a clocked table's meta also holds its ``away`` seats and its ``game_time`` (ms) when a clock
  stopped or ran out (the one row ever updated: :meth:`PostgresStore.save`).
- ``pipeline_seats``: one row per bound human seat, keyed ``(table_id, seat)``, and unique per
  ``(table_id, identity)``: a seat is bound once and a key holds one seat per table, whichever
  node asks.
- ``pipeline_moves``: the append-only log, one row per move keyed ``(table_id, seq)``; an undo
  is a row too (``move`` NULL), so nothing is ever updated or deleted. ``move`` is the move as
  the save format writes it; ``entry`` carries per-move data: in a clocked game the move's game
  time, ``{"at": ms}`` (NULL in a game without a clock). A node writes row ``seq`` = the rows it knows: if another node wrote it first the
  primary key refuses it (:class:`StoreConflict`) and the node re-reads.

Every write commits with ``pg_notify('pipeline_tables', '<node> <table>')``, so the other
nodes read the new rows when PostgreSQL tells them (:func:`listen`), never on a timer. Only
the node that holds the session advisory lock :data:`LEASE_KEY` (:func:`hold_lease`) plays
the computer seats; PostgreSQL lets go of it when that node's connection ends, killed or not.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import AsyncGenerator, Callable
from typing import Any

import msgspec
import psycopg
from psycopg import errors as pg_errors

from ..engine.game import Game
from ..engine.moves import AnyMove
from ..engine.setup import GameSetup
from ..i18n import N_
from ..storage import FORMAT, VERSION, SaveError, SaveFile, game_from_save
from .protocol import TableError, one_line
from .store import (
    NUMBERED,
    Event,
    Loaded,
    SaveFailed,
    SeatBinding,
    StoreConflict,
    StoreLost,
    TableMeta,
    TableStore,
    redact,
)

log = logging.getLogger(__name__)

CHANNEL = "pipeline_tables"
SCHEMA_KEY = 7_013_840_001  # advisory lock: one node makes the schema at a time
LEASE_KEY = 7_013_840_002  # advisory lock: the node holding it plays the computer seats
CONNECT_TIMEOUT = 3  # seconds

SCHEMA = """
CREATE TABLE IF NOT EXISTS pipeline_tables (
    id text PRIMARY KEY,
    setup jsonb NOT NULL,
    meta jsonb NOT NULL,
    created timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS pipeline_seats (
    table_id text NOT NULL REFERENCES pipeline_tables (id) ON DELETE CASCADE,
    seat int NOT NULL,
    identity text NOT NULL,
    holder text NOT NULL,
    PRIMARY KEY (table_id, seat),
    UNIQUE (table_id, identity)
);
CREATE TABLE IF NOT EXISTS pipeline_moves (
    table_id text NOT NULL REFERENCES pipeline_tables (id) ON DELETE CASCADE,
    seq int NOT NULL CHECK (seq >= 0),
    move jsonb,
    entry jsonb,
    made_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (table_id, seq)
);
"""

_APPLICATION = f"pipeline-tui {os.getpid()}"  # pg_stat_activity names each node's process
_move_decoder = msgspec.json.Decoder(AnyMove)
_setup_decoder = msgspec.json.Decoder(GameSetup)


def _reason(exc: BaseException) -> str:
    return one_line(str(exc) or type(exc).__name__, 200)


def connect_sync(url: str) -> psycopg.Connection[Any]:
    """A connection in autocommit mode; StoreLost (naming the URL, no password) if refused."""
    try:
        return psycopg.connect(
            url, autocommit=True, connect_timeout=CONNECT_TIMEOUT, application_name=_APPLICATION
        )
    except psycopg.Error as exc:
        raise StoreLost(
            N_("Tables: cannot reach the database {url} ({reason})"),
            False,
            url=redact(url),
            reason=_reason(exc),
        ) from None


async def connect_async(url: str) -> psycopg.AsyncConnection[Any]:
    return await psycopg.AsyncConnection.connect(
        url, autocommit=True, connect_timeout=CONNECT_TIMEOUT, application_name=_APPLICATION
    )


class PostgresStore(TableStore):
    """The tables in one PostgreSQL database (``postgresql://`` URL), shared by every node."""

    shared = True

    def __init__(self, url: str) -> None:
        self.url = url
        self.node = secrets.token_hex(6)  # tells this node's notifications from the others'
        self._conn: psycopg.Connection[Any] | None = connect_sync(url)
        try:
            with self._conn.transaction():
                self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_KEY,))
                self._conn.execute(SCHEMA)
        except psycopg.Error as exc:
            self.close()
            raise TableError(
                N_("Tables: cannot use the database {url} ({reason})"), url=self.label, reason=_reason(exc)
            ) from None

    @property
    def label(self) -> str:
        return redact(self.url)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _db(self) -> psycopg.Connection[Any]:
        """The connection, made again if it was lost (StoreLost if the database is away)."""
        if self._conn is None or self._conn.closed or self._conn.broken:
            if self._conn is not None:
                self._conn.close()
            self._conn = None
            self._conn = connect_sync(self.url)
            log.info("connected again to %s", self.label)
        return self._conn

    def _lost(self, exc: BaseException, kept: bool | None) -> StoreLost:
        log.error("the database %s was lost: %s", self.label, _reason(exc))
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        return StoreLost(
            N_("Tables: the database {url} cannot be reached ({reason})"),
            kept,
            url=self.label,
            reason=_reason(exc),
        )

    def _write(self, table_id: str, work: Callable[[psycopg.Connection[Any]], object]) -> None:
        """Run ``work`` in one transaction that tells the other nodes on commit.
        StoreConflict if a row was taken; StoreLost with ``kept`` None if the connection went
        while committing (the change may or may not be in), False before; SaveFailed if the
        database refused the write (read-only, say)."""
        conn = self._db()
        try:
            conn.execute("BEGIN")
            work(conn)
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{self.node} {table_id}"))
        except pg_errors.UniqueViolation:
            self._rollback(conn)
            raise StoreConflict(table_id) from None
        except psycopg.OperationalError as exc:
            raise self._lost(exc, False) from None
        except psycopg.Error as exc:
            self._rollback(conn)
            log.error("table %s not written: %s", table_id, _reason(exc))
            raise SaveFailed(
                N_("Table: the change could not be saved ({reason})"), reason=_reason(exc)
            ) from None
        try:
            conn.execute("COMMIT")
        except psycopg.OperationalError as exc:
            raise self._lost(exc, None) from None
        except psycopg.Error as exc:
            raise SaveFailed(
                N_("Table: the change could not be saved ({reason})"), reason=_reason(exc)
            ) from None

    def _rollback(self, conn: psycopg.Connection[Any]) -> None:
        """End a failed transaction; a connection lost meanwhile is made again on next use."""
        try:
            conn.execute("ROLLBACK")
        except psycopg.Error:
            self.close()

    # --- reading --------------------------------------------------------------------------
    def _query(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        conn = self._db()
        try:
            return conn.execute(sql, args).fetchall()
        except psycopg.OperationalError as exc:
            raise self._lost(exc, False) from None

    def load_all(self) -> tuple[list[Loaded], list[str]]:
        heads = self._query("SELECT id, setup::text, meta::text FROM pipeline_tables ORDER BY id")
        seats = self._query("SELECT table_id, seat, identity, holder FROM pipeline_seats")
        rows = self._query(
            "SELECT table_id, seq, move::text, (entry->>'at')::bigint FROM pipeline_moves"
            " ORDER BY table_id, seq"
        )
        bound: dict[str, dict[int, SeatBinding]] = {}
        for table_id, seat, identity, holder in seats:
            bound.setdefault(table_id, {})[seat] = SeatBinding(identity=identity, holder=holder)
        logs: dict[str, list[tuple[int, str | None, int | None]]] = {}
        for table_id, seq, move, at in rows:
            logs.setdefault(table_id, []).append((seq, move, at))
        tables, problems = [], []
        for table_id, setup, meta in heads:
            try:
                tables.append(
                    self._build(table_id, setup, meta, bound.get(table_id, {}), logs.get(table_id, []))
                )
            except (SaveError, TableError, msgspec.DecodeError, msgspec.ValidationError) as exc:
                problems.append(f"{table_id}: {one_line(str(exc), 300)}")
        return tables, problems

    def load(self, table_id: str) -> Loaded | None:
        heads = self._query(
            "SELECT id, setup::text, meta::text FROM pipeline_tables WHERE id = %s", (table_id,)
        )
        if not heads:
            return None
        seats = self._query(
            "SELECT seat, identity, holder FROM pipeline_seats WHERE table_id = %s", (table_id,)
        )
        rows = self._query(
            "SELECT seq, move::text, (entry->>'at')::bigint FROM pipeline_moves"
            " WHERE table_id = %s ORDER BY seq",
            (table_id,),
        )
        bound = {seat: SeatBinding(identity=i, holder=h) for seat, i, h in seats}
        _id, setup, meta = heads[0]
        return self._build(table_id, setup, meta, bound, [(seq, move, at) for seq, move, at in rows])

    def _build(
        self,
        table_id: str,
        setup_text: str,
        meta_text: str,
        bound: dict[int, SeatBinding],
        rows: list[tuple[int, str | None, int | None]],
    ) -> Loaded:
        """The table replayed from its rows; a clocked one with each move's ``at`` and the
        game time of its meta (``game_from_save`` restamps it, as from a file)."""
        setup = _setup_decoder.decode(setup_text)
        moves: list[AnyMove] = []
        times: list[int | None] = []
        for index, (seq, text, at) in enumerate(rows):
            if seq != index:
                raise TableError(f"its log has no row {index}")
            if text is None:
                if not moves:
                    raise TableError(f"row {seq} takes back a move from an empty log")
                moves.pop()
                times.pop()
            else:
                moves.append(_move_decoder.decode(text))
                times.append(at)
        meta = msgspec.json.decode(meta_text)
        game_time = meta.pop("game_time", 0) if isinstance(meta, dict) else 0
        save = SaveFile(
            format=FORMAT,
            version=VERSION,
            setup=setup,
            moves=moves,
            times=times,
            game_time=game_time if isinstance(game_time, int) and game_time >= 0 else 0,
        )
        game = game_from_save(save, table_id)
        if isinstance(meta, dict):
            meta["seats"] = [msgspec.to_builtins(bound.get(seat)) for seat in range(len(setup.players))]
        return Loaded(id=table_id, game=game, meta=meta, events=len(rows))

    def read(self, table_id: str, events: int) -> tuple[list[Event], dict[int, SeatBinding] | None]:
        rows = self._query(
            "SELECT seq, move::text, (entry->>'at')::bigint FROM pipeline_moves"
            " WHERE table_id = %s AND seq >= %s ORDER BY seq",
            (table_id, events),
        )
        seats = self._query(
            "SELECT seat, identity, holder FROM pipeline_seats WHERE table_id = %s", (table_id,)
        )
        out = [
            Event(seq=seq, move=None if text is None else _move_decoder.decode(text), at=at)
            for seq, text, at in rows
        ]
        return out, {seat: SeatBinding(identity=i, holder=h) for seat, i, h in seats}

    def read_away(self, table_id: str) -> list[int] | None:
        rows = self._query("SELECT meta->'away' FROM pipeline_tables WHERE id = %s", (table_id,))
        away = rows[0][0] if rows else None
        if not isinstance(away, list):
            return []
        return [seat for seat in away if isinstance(seat, int) and not isinstance(seat, bool)]

    # --- writing --------------------------------------------------------------------------
    def create(self, game: Game, meta: TableMeta, table_id: str | None = None) -> str:
        head = _head(game, meta)
        setup = msgspec.json.encode(game.setup).decode()
        clocked = game.setup.clock is not None
        for _attempt in range(20):
            new_id = table_id or self._next_id()

            def work(conn: psycopg.Connection[Any], new_id: str = new_id) -> None:
                conn.execute(
                    "INSERT INTO pipeline_tables (id, setup, meta) VALUES (%s, %s::jsonb, %s::jsonb)",
                    (new_id, setup, head),
                )
                with conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO pipeline_moves (table_id, seq, move, entry)"
                        " VALUES (%s, %s, %s::jsonb, %s::jsonb)",
                        [
                            (new_id, seq, msgspec.json.encode(m).decode(), _entry(at) if clocked else None)
                            for seq, (m, at) in enumerate(zip(game.moves, game.times))
                        ],
                    )
                    cur.executemany(
                        "INSERT INTO pipeline_seats (table_id, seat, identity, holder) VALUES (%s, %s, %s, %s)",
                        [
                            (new_id, s, b.identity, b.holder)
                            for s, b in enumerate(meta.seats)
                            if b is not None
                        ],
                    )

            try:
                self._write(new_id, work)
            except StoreConflict:
                if table_id is not None:
                    raise TableError(N_("Table: {table} already exists"), table=repr(table_id)) from None
                continue  # another node took that number meanwhile
            return new_id
        raise SaveFailed(N_("Table: the change could not be saved ({reason})"), reason="no free table id")

    def table_ids(self) -> list[str]:
        return [key for (key,) in self._query("SELECT id FROM pipeline_tables")]

    def _next_id(self) -> str:
        ids = self._query("SELECT id FROM pipeline_tables WHERE id ~ '^t[0-9]{1,9}$'")
        numbers = [int(m.group(1)) for (key,) in ids if (m := NUMBERED.fullmatch(key))]
        return f"t{max(numbers, default=0) + 1}"

    def append(self, table_id: str, game: Game, meta: TableMeta, events: int) -> int:
        text = msgspec.json.encode(game.moves[-1]).decode()
        entry = _entry(game.times[-1]) if game.setup.clock is not None else None
        self._write(
            table_id,
            lambda conn: conn.execute(
                "INSERT INTO pipeline_moves (table_id, seq, move, entry) VALUES (%s, %s, %s::jsonb, %s::jsonb)",
                (table_id, events, text, entry),
            ),
        )
        return events + 1

    def undo(self, table_id: str, game: Game, meta: TableMeta, events: int) -> int:
        self._write(
            table_id,
            lambda conn: conn.execute(
                "INSERT INTO pipeline_moves (table_id, seq, move) VALUES (%s, %s, NULL)", (table_id, events)
            ),
        )
        return events + 1

    def bind(self, table_id: str, game: Game, meta: TableMeta, seat: int) -> None:
        binding = meta.seats[seat]
        assert binding is not None  # the service binds before it stores
        self._write(
            table_id,
            lambda conn: conn.execute(
                "INSERT INTO pipeline_seats (table_id, seat, identity, holder) VALUES (%s, %s, %s, %s)",
                (table_id, seat, binding.identity, binding.holder),
            ),
        )

    def save(self, table_id: str, game: Game, meta: TableMeta) -> None:
        head = _head(game, meta)
        self._write(
            table_id,
            lambda conn: conn.execute(
                "UPDATE pipeline_tables SET meta = %s::jsonb WHERE id = %s", (head, table_id)
            ),
        )

    def was_written(self, table_id: str, seq: int, move: AnyMove | None) -> bool:
        """Whether row ``seq`` of the table holds ``move`` (an undo for None): the answer to a
        write whose commit was cut off."""
        rows = self._query(
            "SELECT move::text FROM pipeline_moves WHERE table_id = %s AND seq = %s", (table_id, seq)
        )
        if not rows:
            return False
        text = rows[0][0]
        return (text is None and move is None) or (
            text is not None and move is not None and _move_decoder.decode(text) == move
        )


def _head(game: Game, meta: TableMeta) -> str:
    """A table row's meta: name, colours, hints; a clocked table's seats away and game time."""
    head: dict[str, Any] = {"name": meta.name, "colours": meta.colours, "hints": meta.hints}
    if game.setup.clock is not None:
        head["away"] = meta.away
        head["game_time"] = game.now()
    return msgspec.json.encode(head).decode()


def _entry(at: int) -> str:
    """A move row's ``entry`` in a clocked game: its game time (ms)."""
    return msgspec.json.encode({"at": at}).decode()


async def listen(url: str, node: str) -> AsyncGenerator[str | None, None]:
    """The ids of the tables other nodes change, as PostgreSQL announces them (LISTEN): no
    polling. Yields None first, once listening (the caller then catches up on what it may
    have missed). Raises psycopg.OperationalError when the connection is lost."""
    conn = await connect_async(url)
    try:
        await conn.execute(f"LISTEN {CHANNEL}")
        yield None
        async for notify in conn.notifies():
            sender, _space, table_id = notify.payload.partition(" ")
            if sender != node:
                yield table_id
    finally:
        await conn.close()


async def hold_lease(url: str, granted: Callable[[], None]) -> None:
    """Wait for the computer-seat lease (a session advisory lock: PostgreSQL queues the
    waiters, no polling), call ``granted``, and hold it until the connection is lost (then
    raise psycopg.OperationalError) or the task is cancelled."""
    conn = await connect_async(url)
    try:
        await conn.execute("SELECT pg_advisory_lock(%s)", (LEASE_KEY,))
        granted()
        async for _notify in conn.notifies():  # nothing is listened to: this waits for the end
            pass
        raise psycopg.OperationalError("the lease's connection ended")
    finally:
        await conn.close()
