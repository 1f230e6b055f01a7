"""Where the tables live: one interface, two stores (docs/shared-tables.md, "Stores").

A table is its setup, its meta (:class:`TableMeta`: name, seat bindings, colours, hints) and
its move log. :class:`TableService` (``tables.py``) keeps every table in memory and calls its
store for each change *before* anyone hears of it:

- :class:`FileStore`, the default: a folder of save files, ``<id>.json`` each, rewritten
  atomically for every change (``storage.save_game``). One process owns the folder.
- ``PostgresStore`` (``pgstore.py``, loaded only for a ``postgresql://`` store, so the files
  store needs no psycopg): an append-only log of rows keyed ``(table, seq)``; several ``serve``
  nodes may share it. Writing row ``seq`` is the optimistic concurrency check: a node that
  loses raises :class:`StoreConflict`, re-reads (:meth:`TableStore.read`) and answers again.

Both export the same thing: a save file (the storage JSON format) per table, its meta holding
the ``"table"`` entry; ``pipeline-tui tables copy`` moves tables either way through it.
"""

from __future__ import annotations

import logging
import re
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import msgspec

from ..engine.game import Game
from ..engine.moves import AnyMove
from ..i18n import N_
from ..storage import SaveError, load_game, read_save, save_game
from .protocol import TableError
from .private import FILE_MODE, make_private

log = logging.getLogger(__name__)

ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
NUMBERED = re.compile(r"t([0-9]{1,9})")


class SeatBinding(msgspec.Struct):
    """A human seat's player: the SSH key fingerprint and the name shown for it."""

    identity: str
    holder: str


class TableMeta(msgspec.Struct):
    """The ``"table"`` entry of a table file's meta."""

    name: str
    seats: list[SeatBinding | None]
    colours: list[str] = []  # a colour name per seat (the app's names); [] = its defaults
    hints: bool = False  # chosen when the table is made; files from before the option: off
    away: list[int] = []  # seats whose time ran out: the computer plays them until they sit again


class SaveFailed(TableError):
    """A change refused because its store could not take it (it was taken back)."""


class StoreConflict(Exception):
    """Another node wrote this table first (the row was taken): re-read and answer again."""


class StoreLost(SaveFailed):
    """The store could not be reached while writing. ``kept`` is False when the change
    certainly was not written, None when the answer was lost with the connection."""

    def __init__(self, message: str, kept: bool | None = None, **values: object) -> None:
        super().__init__(message, **values)
        self.kept = kept


class Loaded(msgspec.Struct):
    """A table as a store hands it over: its replayed game, its raw ``"table"`` meta entry
    (None for a plain save) and how many rows of its log the store has (``events``)."""

    id: str
    game: Game
    meta: Any  # checked by the service: a TableMeta as builtins, or None
    events: int = 0


class Event(msgspec.Struct):
    """One row of a table's log since a node last read it: a move, or an undo (``move`` None);
    ``at``: a clocked game's move time (ms), None without."""

    seq: int
    move: AnyMove | None
    at: int | None = None


class TableStore(ABC):
    """The durable side of the tables. Not thread-safe: one caller (the Hub's tables thread)."""

    shared = False  # several nodes may serve it at once (LISTEN/NOTIFY, the computer-seat lease)

    @property
    @abstractmethod
    def label(self) -> str:
        """What to call the store in messages: a folder, or a URL without its password."""

    @abstractmethod
    def load_all(self) -> tuple[list[Loaded], list[str]]:
        """Every table, replayed with the rules' checks; one problem line per table skipped."""

    @abstractmethod
    def load(self, table_id: str) -> Loaded | None:
        """One table (made by another node since), or None if the store has none by that id."""

    @abstractmethod
    def create(self, game: Game, meta: TableMeta, table_id: str | None = None) -> str:
        """Store a new table (a new id unless ``table_id`` is given); returns its id.
        TableError if ``table_id`` is taken."""

    @abstractmethod
    def append(self, table_id: str, game: Game, meta: TableMeta, events: int) -> int:
        """Store the last move of ``game`` as row ``events``; returns the new row count."""

    @abstractmethod
    def undo(self, table_id: str, game: Game, meta: TableMeta, events: int) -> int:
        """Store an undo (``game`` has taken it back) as row ``events``; the new row count."""

    @abstractmethod
    def bind(self, table_id: str, game: Game, meta: TableMeta, seat: int) -> None:
        """Store the binding of ``seat`` (StoreConflict if another node bound it first)."""

    @abstractmethod
    def save(self, table_id: str, game: Game, meta: TableMeta) -> None:
        """Store what changed besides the log and the bindings: the seats away (``meta.away``)
        and a clocked game's time (``game.now()``: a clock stopped, or run out)."""

    def read(self, table_id: str, events: int) -> tuple[list[Event], dict[int, SeatBinding] | None]:
        """The rows after the first ``events`` and the seat bindings now (None: the same
        store has no other writer, nothing to read)."""
        return [], None

    def read_away(self, table_id: str) -> list[int] | None:
        """The seats away (``TableMeta.away``) as stored now, which another node may have
        changed (None: the same store has no other writer, nothing to read)."""
        return None

    def table_ids(self) -> list[str]:
        """Every table's id (a shared store: to find the tables other nodes made)."""
        return []

    def close(self) -> None:
        """Let go of the store's connections."""


def _meta_entry(meta: TableMeta) -> dict[str, Any]:
    entry = msgspec.to_builtins(meta)
    if not entry["away"]:
        del entry["away"]  # written only when a seat's time has run out
    return {"table": entry}


class FileStore(TableStore):
    """A folder of save files, ``<id>.json`` each (today's tables; one process owns it).

    Ids are ``t1``, ``t2``, ...: a new table takes the next number after every ``t<N>.json``
    in the folder, broken files included, so a broken file is never overwritten."""

    def __init__(self, folder: Path) -> None:
        self.dir = Path(folder)
        self._ids: set[str] = set()  # loaded or made here: never given out again, file or not
        try:
            make_private(self.dir)  # key fingerprints: for the server's user alone
        except OSError as exc:
            raise TableError(
                N_("Tables: cannot create the folder {folder} ({reason})"),
                folder=self.dir,
                reason=exc.strerror or exc,
            ) from None

    @property
    def label(self) -> str:
        return str(self.dir)

    def path(self, table_id: str) -> Path:
        return self.dir / f"{table_id}.json"

    def load_all(self) -> tuple[list[Loaded], list[str]]:
        tables, problems = [], []
        for path in sorted(self.dir.glob("*.json")):
            try:
                tables.append(self._load(path))
            except Exception as exc:  # a table file is untrusted input: any failure skips it
                text = (
                    str(exc)
                    if isinstance(exc, (SaveError, TableError))
                    else (f"cannot be loaded ({type(exc).__name__}: {exc})")
                )
                problems.append(text if text.startswith(path.name) else f"{path.name}: {text}")
        return tables, problems

    def _load(self, path: Path) -> Loaded:
        if not ID_PATTERN.fullmatch(path.stem):
            raise TableError("the name is not a table id (lower-case letters, digits, - and _)")
        game = load_game(path)
        raw = read_save(path).meta.get("table")
        self._ids.add(path.stem)
        return Loaded(id=path.stem, game=game, meta=raw)

    def load(self, table_id: str) -> Loaded | None:
        path = self.path(table_id)
        return self._load(path) if ID_PATTERN.fullmatch(table_id) and path.exists() else None

    def _next_id(self) -> str:
        stems = [p.stem for p in self.dir.glob("t*.json")] + list(self._ids)
        numbers = [int(m.group(1)) for stem in stems if (m := NUMBERED.fullmatch(stem))]
        number = max(numbers, default=0) + 1
        while self.path(f"t{number}").exists():
            number += 1
        return f"t{number}"

    def _save(self, table_id: str, game: Game, meta: TableMeta) -> None:
        try:
            save_game(game, self.path(table_id), meta=_meta_entry(meta), new_mode=FILE_MODE)
        except SaveError as exc:
            log.error("table %s not saved: %s", table_id, exc)
            raise SaveFailed(N_("Table: the change could not be saved ({reason})"), reason=exc) from None

    def create(self, game: Game, meta: TableMeta, table_id: str | None = None) -> str:
        if table_id is not None and self.path(table_id).exists():
            raise TableError(N_("Table: {table} already exists"), table=repr(table_id))
        table_id = table_id or self._next_id()
        self._save(table_id, game, meta)
        self._ids.add(table_id)
        return table_id

    def append(self, table_id: str, game: Game, meta: TableMeta, events: int) -> int:
        self._save(table_id, game, meta)
        return events + 1

    def undo(self, table_id: str, game: Game, meta: TableMeta, events: int) -> int:
        self._save(table_id, game, meta)
        return events + 1

    def bind(self, table_id: str, game: Game, meta: TableMeta, seat: int) -> None:
        self._save(table_id, game, meta)

    def save(self, table_id: str, game: Game, meta: TableMeta) -> None:
        self._save(table_id, game, meta)


def redact(url: str) -> str:
    """A store URL fit for a message or a log: its password left out.

    >>> redact("postgresql://ann:secret@db.example:5433/pipeline")
    'postgresql://ann@db.example:5433/pipeline'
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return "postgresql://..."
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = (f"{parts.username}@" if parts.username else "") + host
    if parts.port is not None:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def is_url(spec: str) -> bool:
    """Whether a store is named by a PostgreSQL URL (else it is a folder)."""
    return spec.startswith(("postgresql://", "postgres://"))


def open_store(spec: str | Path) -> TableStore:
    """The store named by ``spec``: a ``postgresql://`` URL, or a folder of table files.
    TableError (one line, no password) if it cannot be opened."""
    if isinstance(spec, str) and is_url(spec):
        try:
            from .pgstore import PostgresStore  # psycopg loads only for a PostgreSQL store
        except ImportError:
            raise TableError(
                N_('Tables: {url} needs psycopg: pip install "pipeline-tui[postgresql]"'), url=redact(spec)
            ) from None
        return PostgresStore(spec)
    return FileStore(Path(spec))
