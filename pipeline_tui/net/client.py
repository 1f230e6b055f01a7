"""TableClient: one connection to the Hub, used by a session's app, the tests and the benchmark.

Every call sends one request and waits for its reply (matched by id); a refusal raises
:class:`TableError` with the Hub's one-line reason. Updates pushed by the Hub go to
``on_update`` in the client's event loop, in the order the Hub sent them; the Hub sends a
move's Update before its reply, so when :meth:`TableClient.move` returns, ``on_update`` has
already seen that move. A lost connection fails every pending and later call with
``TableError("Server: connection lost")`` and calls ``on_lost`` once.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
from pathlib import Path
from typing import Callable

from ..engine.setup import GameSetup
from ..i18n import N_
from .protocol import (
    AnyReply,
    AnyRequest,
    CreateTable,
    Created,
    FrameError,
    Hello,
    Join,
    Joined,
    JoinedReply,
    Leave,
    ListTables,
    MoveRequest,
    Refused,
    SeatInfo,
    SetBell,
    SetLanguage,
    TableError,
    TableInfo,
    Tables,
    UndoRequest,
    Update,
    Welcome,
    decode_server_message,
    frame,
    read_frame,
)

log = logging.getLogger(__name__)

LOST = N_("Server: connection lost")
CLOSED = N_("Server: connection closed")
REQUEST_TIMEOUT = 60.0  # seconds; the Hub answers in milliseconds unless it is stuck


class TableClient:
    """A signed-in connection to the Hub (make one with :meth:`connect`)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.identity = ""
        self.name = ""
        self.language = ""  # the language this key chose before ("": none), as the Hub keeps it
        self.bell = False  # a bell when this key's turn comes (the lobby's b), as the Hub keeps it
        self.on_update: Callable[[Update], None] | None = None
        self.on_lost: Callable[[str], None] | None = None
        self._reader = reader
        self._writer = writer
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[AnyReply]] = {}
        self._joining: dict[str, Joined] = {}  # joins answered but not yet returned to the caller
        self._failure: str | None = None
        self._task = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def connect(cls, socket_path: str | os.PathLike[str], token: str) -> "TableClient":
        """Connect and sign in with ``token``; :class:`TableError` if that is refused."""
        try:
            reader, writer = await asyncio.open_unix_connection(str(Path(socket_path)))
        except OSError as exc:
            raise TableError(
                N_("Server: cannot connect to {path} ({reason})"),
                path=socket_path,
                reason=exc.strerror or exc,
            ) from None
        client = cls(reader, writer)
        try:
            welcome = await client._call(Hello(id=0, token=token))
        except BaseException:
            await client.close()
            raise
        assert isinstance(welcome, Welcome)
        client.identity, client.name = welcome.identity, welcome.name
        client.language = welcome.language
        client.bell = welcome.bell
        return client

    @property
    def connected(self) -> bool:
        return self._failure is None

    # --- requests -------------------------------------------------------------------------
    async def list_tables(self) -> list[TableInfo]:
        reply = await self._call(ListTables(id=0))
        return reply.tables if isinstance(reply, Tables) else []

    async def create_table(
        self, setup: GameSetup, name: str = "", colours: list[str] | None = None, hints: bool = False
    ) -> str:
        """A new table (every human seat open; ``colours``: a colour name per seat; ``hints``:
        the seated players may ask for a hint); its id."""
        reply = await self._call(
            CreateTable(id=0, setup=setup, name=name, colours=list(colours or []), hints=hints)
        )
        assert isinstance(reply, Created)
        return reply.table_id

    async def join(self, table_id: str, seat: int | None) -> Joined:
        """Take seat ``seat`` (0-based; bound to you for good) or watch (``None``).

        Updates that arrive between the Hub's answer and this call returning are folded into
        the returned Joined, and ``on_update`` gets only the later ones: install the Joined
        before awaiting anything else and no move is missed or seen twice.
        """
        try:
            reply = await self._call(Join(id=0, table_id=table_id, seat=seat))
        finally:
            joined = self._joining.pop(table_id, None)
        assert isinstance(reply, JoinedReply)
        return joined or reply.joined

    async def move(self, table_id: str, text: str) -> None:
        """Play a move in notation at your seat; :class:`TableError` with the reason if refused."""
        await self._call(MoveRequest(id=0, table_id=table_id, text=text))

    async def undo(self, table_id: str) -> None:
        """Take back your last move of your current turn."""
        await self._call(UndoRequest(id=0, table_id=table_id))

    async def leave(self, table_id: str) -> None:
        """Stop following the table (your seat stays yours)."""
        await self._call(Leave(id=0, table_id=table_id))

    async def set_language(self, language: str) -> None:
        """Have the Hub remember ``language`` for this key (the next session starts in it)."""
        await self._call(SetLanguage(id=0, language=language))
        self.language = language

    async def set_bell(self, on: bool) -> None:
        """Have the Hub remember whether a bell rings for this key when their turn comes."""
        await self._call(SetBell(id=0, on=on))
        self.bell = on

    async def close(self) -> None:
        """Close the connection; pending calls fail with "Server: connection closed"."""
        self._fail(CLOSED, notify=False)
        self._task.cancel()
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except (ConnectionError, OSError):
            pass
        try:
            await self._task
        except asyncio.CancelledError:
            pass

    # --- plumbing -------------------------------------------------------------------------
    async def _call(self, request: AnyRequest) -> AnyReply:
        if self._failure is not None:
            raise TableError(self._failure)
        request.id = next(self._ids)
        future: asyncio.Future[AnyReply] = asyncio.get_running_loop().create_future()
        self._pending[request.id] = future
        try:
            self._writer.write(frame(request))
            await self._writer.drain()
        except (ConnectionError, OSError, RuntimeError):
            self._fail(LOST)
        except FrameError as exc:
            self._pending.pop(request.id, None)
            raise TableError(N_("Server: the request is too large ({reason})"), reason=exc) from None
        try:
            reply = await asyncio.wait_for(future, REQUEST_TIMEOUT)
        except asyncio.TimeoutError:
            raise TableError(
                N_("Server: no answer within {seconds} s"), seconds=f"{REQUEST_TIMEOUT:.0f}"
            ) from None
        finally:
            self._pending.pop(request.id, None)
        if isinstance(reply, Refused):
            raise reply.error()
        return reply

    async def _read(self) -> None:
        try:
            while True:
                body = await read_frame(self._reader)
                if body is None:
                    break
                message = decode_server_message(body)
                if isinstance(message, Update):
                    joining = self._joining.get(message.table_id)
                    if joining is not None:
                        joining.moves = joining.moves[: message.base] + list(message.moves)
                        joining.seats = message.seats
                        continue
                    if self.on_update is not None:
                        try:
                            self.on_update(message)
                        except Exception:
                            log.exception("on_update failed for table %s", message.table_id)
                    continue
                future = self._pending.get(message.id)
                if isinstance(message, JoinedReply) and future is not None:
                    self._joining[message.joined.table_id] = message.joined
                if future is not None and not future.done():
                    future.set_result(message)
        except FrameError as exc:
            log.warning("closing the connection to the hub: %s", exc)
        except (ConnectionError, OSError):
            pass
        self._fail(LOST)

    def _fail(self, reason: str, notify: bool = True) -> None:
        if self._failure is not None:
            return
        self._failure = reason
        for future in self._pending.values():
            if not future.done():
                future.set_exception(TableError(reason))
        if notify and self.on_lost is not None:
            try:
                self.on_lost(reason)
            except Exception:
                log.exception("on_lost failed")


__all__ = ["Joined", "SeatInfo", "TableClient", "TableError", "TableInfo", "Update"]
