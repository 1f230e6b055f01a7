"""The wire protocol between the Hub and its clients (docs/shared-tables.md, "Protocol").

One frame is a 4-byte big-endian length followed by that many bytes of JSON: one msgspec Struct
tagged by its ``"type"`` field. A client sends requests (each with an ``id`` it chooses); the Hub
answers each request with exactly one reply carrying the same ``id``, and pushes
:class:`Update` frames (no ``id``) to every client joined to a table whenever the table changes.
The first request on a connection must be :class:`Hello` with the token the SSH server issued.

A frame over :data:`MAX_FRAME` bytes, bytes that are not one of these messages, or a request
before ``Hello`` closes that connection only (the Hub logs the reason).

Text for a player (a refusal, a note on an Update) travels as its English message id (marked
with ``N_`` where it is written) and the values of its placeholders, beside the English text
itself for logs: each client shows it in its own language (:func:`shown`), so two players at
one table read the same note each in theirs.
"""

from __future__ import annotations

import asyncio
import re
from typing import Union

import msgspec

from ..engine.setup import GameSetup
from ..i18n import N_, _

MAX_FRAME = 1 << 20  # bytes; joining a finished 4-player game (373 moves) is a 5 KB reply
TIME_RAN_OUT_END = N_("{name}'s time ran out; the game ends with the scores as they stand")
TIME_RAN_OUT_COMPUTER = N_(
    "{name}'s time ran out; the computer plays the seat until its player sits down again"
)
TIME_NOTES = (TIME_RAN_OUT_END, TIME_RAN_OUT_COMPUTER)  # Update notes everyone at the table is shown
_HEADER = 4


def shown(message: str, values: dict[str, str] | None = None) -> str:
    """A message id and its values in the current language (English when there is no
    translation: a reason from the engine, say, arrives already written out).

    >>> shown("Seat: {name}'s seat belongs to {holder}", {"name": "Bo", "holder": "bob"})
    "Seat: Bo's seat belongs to bob"
    """
    text = _(message) if message else ""
    if not values:
        return text
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):
        return message.format(**values)


_NUMBERED_TABLE = re.compile(r"t([0-9]+)")


def table_name(table_id: str, name: str) -> str:
    """What a table is called on screen: the name it was given, else "Table 3" in the viewer's
    language (the Hub stores no name for an unnamed table, so each viewer reads it in theirs).

    >>> table_name("t3", ""), table_name("t3", "Friday game"), table_name("friday", "")
    ('Table 3', 'Friday game', 'Table friday')
    """
    if name:
        return name
    numbered = _NUMBERED_TABLE.fullmatch(table_id)
    return _("Table {id}").format(id=numbered.group(1) if numbered else table_id)


class TableError(Exception):
    """A request the Hub refused, or a lost connection; the message is one player-readable line
    ("Seat: Bo's seat belongs to bob", "Server: connection lost").

    ``TableError(N_("Seat: {name}'s seat belongs to {holder}"), name=..., holder=...)`` keeps
    the message id and its values: ``str()`` is the English line (logs, the wire's ``reason``),
    :meth:`shown` the line in the current language.
    """

    def __init__(self, message: str, **values: object) -> None:
        self.msgid = message
        self.values = {key: str(value) for key, value in values.items()}
        super().__init__(message.format(**self.values) if self.values else message)

    def shown(self) -> str:
        """The message in the language this process speaks now."""
        return shown(self.msgid, self.values)


class RuleRefusal(TableError):
    """A move or an undo the rules refused (the engine's ``why_illegal``, ``why_no_undo`` or a
    notation error): its text is written by the engine in the Hub's language, so a client works
    the reason out again from its own replica, in its own language (``RemoteGame``), and shows
    this text only when its replica finds nothing wrong."""


class FrameError(Exception):
    """A frame that breaks the protocol (too big, cut short, not a known message)."""


# --- What everyone may see of a table ---------------------------------------------------------


class SeatInfo(msgspec.Struct):
    """A seat as everyone at the table sees it. ``seat`` indexes ``setup.players`` (0-based)."""

    seat: int
    name: str
    kind: str  # a SeatKind: "human" or a bot kind from ai.KINDS
    holder: str | None  # display name of the player bound to it; None = open (or a computer seat)
    connected: bool  # a connection of the holder is joined to this seat (computer seats: True)
    handed_back: bool = False  # a computer seat whose bot failed: the seated players play it
    away: bool = False  # its time ran out: the computer plays it until its player sits down again


class TableInfo(msgspec.Struct):
    """One line of the lobby."""

    id: str
    name: str
    seats: list[SeatInfo]
    moves: int
    year: int
    round: int
    over: bool
    yours: list[int] = []  # the seats bound to the key that asked (0-based)
    hints: bool = False  # the seated players may ask the strongest bot for a hint
    to_act: int = -1  # the seat to act (-1: the game is over)
    waited: int = 0  # ms of the table's time since the turn now being played began
    clock: str = ""  # the table's clock setting (engine.format_clock); "" = none


class Joined(msgspec.Struct):
    """What a client needs to follow a table it joined: the setup and the whole log (notation)."""

    table_id: str
    setup: GameSetup
    moves: list[str]
    seats: list[SeatInfo]
    seat: int | None  # the seat this connection plays; None = spectator
    colours: list[str] = []  # a colour name per seat; [] = the defaults
    hints: bool = False  # the table's option: hints for the seated players, on their turn
    times: list[int] = []  # a clocked table: each move's game time (ms), as in its save
    game_time: int = 0  # the table's game time when this was sent (ms)
    live: bool = False  # the table's clock runs (every human seat taken, the game not over)


class Update(msgspec.Struct, tag="update"):
    """A table changed: its log is now ``log[:base] + moves`` (``base`` is below the old length
    after an undo), and ``seats`` is the seat list now. Pushed to every client joined to the
    table after every change, seat changes included. ``note`` says what happened, for display."""

    table_id: str
    base: int
    moves: list[str]
    seats: list[SeatInfo]
    note: str = ""  # in English, for logs; clients show note_id and note_values (see shown())
    note_id: str = ""
    note_values: dict[str, str] = {}
    times: list[int] = []  # a clocked table: the game time of each of ``moves``
    game_time: int = 0  # the table's game time when this was sent (ms)
    live: bool = False  # the table's clock runs

    def shown_note(self) -> str:
        """The note in the current language."""
        return shown(self.note_id, self.note_values) if self.note_id else self.note


# --- Requests (client -> Hub) -----------------------------------------------------------------


class Request(msgspec.Struct, tag=True):
    id: int


class Hello(Request, tag="hello"):
    token: str


class ListTables(Request, tag="list_tables"):
    pass


class CreateTable(Request, tag="create_table"):
    setup: GameSetup
    name: str = ""
    colours: list[str] = []  # a colour name per seat, as chosen on the new-table form; [] = defaults
    hints: bool = False  # hints from the strongest bot at this table (off unless asked for)


class Join(Request, tag="join"):
    table_id: str
    seat: int | None = None


class MoveRequest(Request, tag="move"):
    table_id: str
    text: str


class UndoRequest(Request, tag="undo"):
    table_id: str


class Leave(Request, tag="leave"):
    table_id: str


class SetLanguage(Request, tag="set_language"):
    """Remember the language chosen in the lobby for this key (the next session starts in it)."""

    language: str


class SetBell(Request, tag="set_bell"):
    """Remember for this key whether a bell rings when their turn comes (the lobby's b)."""

    on: bool


AnyRequest = Union[
    Hello, ListTables, CreateTable, Join, MoveRequest, UndoRequest, Leave, SetLanguage, SetBell
]


# --- Replies (Hub -> client, one per request) -------------------------------------------------


class Reply(msgspec.Struct, tag=True):
    id: int


class Welcome(Reply, tag="welcome"):
    identity: str
    name: str
    language: str = ""  # the language this key chose in the lobby; "" = none chosen yet
    bell: bool = False  # this key asked for a bell when their turn comes


class Done(Reply, tag="done"):
    pass


class Tables(Reply, tag="tables"):
    tables: list[TableInfo]


class Created(Reply, tag="created"):
    table_id: str


class JoinedReply(Reply, tag="joined"):
    joined: Joined


class Refused(Reply, tag="refused"):
    reason: str  # in English; clients show msgid and values in their language
    msgid: str = ""
    values: dict[str, str] = {}
    rules: bool = False  # a RuleRefusal: the reason is the engine's, in the Hub's language

    @classmethod
    def of(cls, rid: int, error: TableError) -> "Refused":
        return cls(
            id=rid,
            reason=one_line(str(error)),
            msgid=error.msgid,
            values=error.values,
            rules=isinstance(error, RuleRefusal),
        )

    def error(self) -> TableError:
        """The refusal as the client raises it (its English text stays the Hub's)."""
        if self.rules:
            return RuleRefusal(self.reason)
        if not self.msgid:
            return TableError(self.reason)
        return TableError(self.msgid, **self.values)


AnyReply = Union[Welcome, Done, Tables, Created, JoinedReply, Refused]
ServerMessage = Union[Welcome, Done, Tables, Created, JoinedReply, Refused, Update]

_encoder = msgspec.json.Encoder()
request_decoder = msgspec.json.Decoder(AnyRequest)
server_decoder = msgspec.json.Decoder(ServerMessage)


def frame(message: msgspec.Struct) -> bytes:
    """The bytes of one frame: length header and JSON body."""
    body = _encoder.encode(message)
    if len(body) > MAX_FRAME:
        raise FrameError(
            f"a {type(message).__name__} of {len(body)} bytes is over the {MAX_FRAME}-byte frame limit"
        )
    return len(body).to_bytes(_HEADER, "big") + body


async def read_frame(reader: asyncio.StreamReader, limit: int = MAX_FRAME) -> bytes | None:
    """The body of the next frame, or ``None`` at a clean end of stream (between frames).

    Raises :class:`FrameError` for a frame over ``limit`` or a stream cut inside a frame.
    """
    try:
        header = await reader.readexactly(_HEADER)
    except asyncio.IncompleteReadError as exc:
        if not exc.partial:
            return None
        raise FrameError("the connection closed inside a frame header") from None
    size = int.from_bytes(header, "big")
    if size > limit:
        raise FrameError(f"a frame of {size} bytes is over the {limit}-byte limit")
    try:
        return await reader.readexactly(size)
    except asyncio.IncompleteReadError:
        raise FrameError(f"the connection closed inside a {size}-byte frame") from None


def decode_request(body: bytes) -> AnyRequest:
    """A request from its frame body; :class:`FrameError` names what is wrong."""
    try:
        request: AnyRequest = request_decoder.decode(body)
        return request
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise FrameError(f"not a request: {one_line(str(exc))}") from None


def decode_server_message(body: bytes) -> Union[AnyReply, Update]:
    try:
        message: Union[AnyReply, Update] = server_decoder.decode(body)
        return message
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise FrameError(f"not a server message: {one_line(str(exc))}") from None


def one_line(text: str, limit: int = 300) -> str:
    """``text`` folded to one line of at most ``limit`` characters (for logs and reasons)."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."
