"""The authoritative tables: every shared game and its seat bindings (no asyncio here).

A table lives in a store (``store.py``): by default a save file ``<tables dir>/<id>.json`` in
the ordinary storage format whose meta holds a ``"table"`` entry (:class:`TableMeta`: the
table's name and which identity holds each human seat), or rows in PostgreSQL shared by several
nodes (``pgstore.py``). Every change is stored before anyone hears of it; if the write fails
the change is taken back and refused.

:class:`TableService` checks every request against the identity making it (it is the only
writer of table files): only the identity bound to the seat to act may move; a spectator
cannot; the engine judges legality; undo takes back only your own moves within your own turn.
The Hub (``hub.py``) wraps it with the socket, the pushes and the computer seats.

A clocked table (``setup.clock``, ``engine.clock``) keeps its game time in its store (its file,
or each move's row and the table's meta in PostgreSQL, where a node reading another's moves
counts its game time from their stamps, :meth:`Table.rebase_clock`); its clocks
run while every human seat is taken and the table is loaded, and stand still otherwise, so the
time a server is down is charged to no one. When the seat to act runs out of time
(:meth:`TableService.flag`, which the Hub calls at the deadline the clocks give), the rule of its
setup applies: the computer (normal) plays the seat until its player sits down at it again
(``TableMeta.away``), or the game ends with the scores as they stand.
"""

from __future__ import annotations

import logging
import builtins
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import msgspec

from ..ai import KINDS
from ..engine.clock import FlagRule, GameTime, format_clock
from ..engine.errors import IllegalMove, NotationError
from ..engine.game import Game
from ..engine.moves import Move, format_move, parse_move
from ..engine.setup import GameSetup, SeatKind, SetupError, validate_setup
from ..i18n import N_
from .protocol import (
    TIME_RAN_OUT_COMPUTER,
    TIME_RAN_OUT_END,
    Joined,
    RuleRefusal,
    SeatInfo,
    TableError,
    TableInfo,
    Update,
    one_line,
)
from .store import (
    ID_PATTERN,
    NUMBERED,
    FileStore,
    Loaded,
    SaveFailed,
    SeatBinding,
    StoreConflict,
    StoreLost,
    TableMeta,
    TableStore,
)

log = logging.getLogger(__name__)

_NUMBERED = NUMBERED
MAX_TABLES = 500
MAX_NAME = 40  # table names
MAX_PLAYER_NAME = 24
MAX_COLOUR = 20  # a colour name (the app draws only the names it knows, see ui.style)
MAX_MOVE_TEXT = 200
MAX_RETRIES = 5  # a request answered again after another node wrote first, at most
SEAT_KINDS = (SeatKind.HUMAN, *KINDS)
TIMEOUT_KIND = SeatKind.HEURISTIC.value  # the computer player ("normal") for a seat out of time


def _clean_name(text: str, limit: int) -> str:
    """A table name folded to one line; TableError if it is too long or cannot be shown."""
    name = " ".join(str(text).split())
    if len(name) > limit:
        raise TableError(N_("Table: the table name is longer than {limit} characters"), limit=limit)
    if not name.isprintable():
        raise TableError(N_("Table: the table name has characters that cannot be shown"))
    return name


class Table:
    """One shared game: the :class:`Game`, who holds each seat, who is connected, its file
    (``path``, in a files store) or how many rows of its log the store holds (``events``)."""

    def __init__(
        self,
        table_id: str,
        path: Path | None,
        game: Game,
        meta: TableMeta,
        events: int = 0,
        wall: Callable[[], float] = time.monotonic,
    ) -> None:
        self.id = table_id
        self.path = path
        self.game = game
        self.events = events
        # An unnamed table has no name: each viewer calls it "Table 3" in their own language
        # (protocol.table_name). Tables made before that stored the English, read as none.
        self.name = (
            "" if meta.name == f"Table {table_id[1:]}" and _NUMBERED.fullmatch(table_id) else meta.name
        )
        self.bindings: list[SeatBinding | None] = list(meta.seats)
        self.colours = list(meta.colours)
        self.hints = meta.hints
        self.present = [0] * len(game.setup.players)  # joined connections per seat
        self.handed_back: set[int] = set()  # computer seats whose bot failed (until a restart)
        self.away = {seat for seat in meta.away if 0 <= seat < len(game.setup.players)}
        if game.setup.clock is not None:
            game.timer = GameTime(game.now(), wall=wall, running=False)
            self.refresh_clock()

    def refresh_clock(self) -> None:
        """Run the clock while every human seat is taken and the game goes on; stop it
        otherwise (a table waiting for its players charges no one)."""
        timer = self.game.timer
        if timer is None:
            return
        full = all(
            binding is not None
            for binding, player in zip(self.bindings, self.game.setup.players)
            if player.kind == SeatKind.HUMAN
        )
        if full and not self.game.is_over() and not self.ended():
            timer.resume()
        else:
            timer.pause()

    def ended(self) -> bool:
        """The game ended on time: the seat to act ran out and the setup's rule ends the game."""
        setting = self.game.setup.clock
        if setting is None or setting.on_flag != FlagRule.END or self.game.is_over():
            return False
        clock = self.game.clock()
        return clock is not None and clock.out

    def over(self) -> bool:
        return self.game.is_over() or self.ended()

    def seconds_to_flag(self) -> float | None:
        """Real seconds until the human seat to act runs out of time (0: it has), or ``None``
        when no clock runs for a person (no clock, not running, a computer is to act)."""
        game = self.game
        timer = game.timer
        if timer is None or not timer.running or game.is_over():
            return None  # (a game ended on time has its clock stopped when it is flagged)
        clock = game.clock()
        seat = game.current_player
        if clock is None or clock.deadline is None or self.bot_to_act() is not None:
            return None
        if seat in self.handed_back or self.kind(seat) != SeatKind.HUMAN:
            return None
        return timer.seconds_until(clock.deadline)

    def rebase_clock(self, at: int) -> None:
        """Set the game time to ``at``, a move's stamp from another node: every node then
        counts the time since that move from the same point, so they show the same clocks."""
        timer = self.game.timer
        if timer is not None:
            self.game.timer = GameTime(at, wall=timer.wall, running=timer.running)

    def stamp(self, update: Update) -> Update:
        """The Update with the game times of its moves and the table's game time now."""
        if self.game.timer is not None:
            update.times = self.game.times[update.base : update.base + len(update.moves)]
            update.game_time = self.game.now()
            update.live = self.game.timer.running
        return update

    def kind(self, seat: int) -> str:
        return self.game.setup.players[seat].kind

    def seats_of(self, identity: str) -> list[int]:
        return [i for i, b in enumerate(self.bindings) if b is not None and b.identity == identity]

    def meta(self) -> TableMeta:
        return TableMeta(
            name=self.name,
            seats=list(self.bindings),
            colours=list(self.colours),
            hints=self.hints,
            away=sorted(self.away),
        )

    def seat_name(self, seat: int) -> str:
        return self.game.setup.players[seat].name

    def seats(self) -> list[SeatInfo]:
        out = []
        for seat, player in enumerate(self.game.setup.players):
            binding = self.bindings[seat]
            human = player.kind == SeatKind.HUMAN
            out.append(
                SeatInfo(
                    seat=seat,
                    name=player.name,
                    kind=player.kind,
                    holder=binding.holder if binding else None,
                    connected=self.present[seat] > 0 if human else True,
                    handed_back=seat in self.handed_back,
                    away=seat in self.away,
                )
            )
        return out

    def info(self, identity: str | None = None) -> TableInfo:
        """The lobby's line for this table, as the player ``identity`` sees it (their seats)."""
        game = self.game
        state = game.state
        over = self.over()
        start = game.turn_start()
        begun = game.times[start - 1] if start else 0
        return TableInfo(
            id=self.id,
            name=self.name,
            seats=self.seats(),
            moves=len(game.moves),
            year=state.year,
            round=state.round,
            over=over,
            yours=self.seats_of(identity) if identity else [],
            hints=self.hints,
            to_act=-1 if over else game.current_player,
            waited=max(0, game.now() - begun) if game.timer is not None and not over else 0,
            clock=format_clock(game.setup.clock) if game.setup.clock is not None else "",
        )

    def log(self) -> list[str]:
        return [format_move(m) for m in self.game.moves]

    def bot_to_act(self) -> str | None:
        """The bot kind of the seat to act, or ``None`` (a human's turn, or the game is over)."""
        if self.over():
            return None
        seat = self.game.current_player
        kind = self.kind(seat)
        if seat in self.away:
            return TIMEOUT_KIND
        return None if kind == SeatKind.HUMAN or seat in self.handed_back else kind


class TableService:
    """Every table of one store, loaded at start (a restart resumes them all).

    ``store``: a :class:`TableStore`, or a folder (a :class:`FileStore`). In a shared store
    another node may write first: the change is taken back, the table read again
    (:meth:`sync`, whose Updates wait in :meth:`take_synced` for the Hub to send first) and the
    request answered again as the rules now say.

    Not thread-safe: one call at a time (the Hub makes every call from its one tables thread).
    """

    def __init__(self, store: TableStore | Path, *, wall: Callable[[], float] = time.monotonic) -> None:
        self.store = store if isinstance(store, TableStore) else FileStore(Path(store))
        self.dir = self.store.dir if isinstance(self.store, FileStore) else None
        self.wall = wall  # the clocks' seconds (tests pass a fake one)
        self.tables: dict[str, Table] = {}
        self.problems: list[str] = []  # one line per table that could not be loaded
        self._synced: list[Update] = []
        # A write whose commit was cut off: (row, move, seat name) by table, told once known.
        self._uncertain: dict[str, tuple[int, Move, str]] = {}
        self._load_all()

    # --- loading --------------------------------------------------------------------------
    def _load_all(self) -> None:
        loaded, problems = self.store.load_all()
        self.problems.extend(problems)
        for item in loaded:
            try:
                table = self._table(item)
            except TableError as exc:
                self.problems.append(f"{item.id}.json: {exc}" if self.dir else f"{item.id}: {exc}")
                continue
            self.tables[table.id] = table
        for problem in self.problems:
            log.info("table skipped (left as it is): %s", problem)

    def _table(self, item: Loaded) -> Table:
        """A loaded table checked against what a table must be (its seats and its meta)."""
        game = item.game
        for seat, player in enumerate(game.setup.players):
            if player.kind not in SEAT_KINDS:
                raise TableError(f"seat {seat + 1} has an unknown kind {player.kind!r}")
        if item.meta is None:  # a plain save copied in: every human seat open
            meta = TableMeta(name=item.id, seats=[None] * len(game.setup.players))
        else:
            try:
                meta = msgspec.convert(item.meta, TableMeta)
            except msgspec.ValidationError as exc:
                raise TableError(f"the table entry of its meta is not valid ({exc})") from None
        if len(meta.seats) != len(game.setup.players):
            raise TableError(f"its meta binds {len(meta.seats)} seats for {len(game.setup.players)} players")
        for seat, binding in enumerate(meta.seats):
            if binding is not None and game.setup.players[seat].kind != SeatKind.HUMAN:
                raise TableError(f"seat {seat + 1} is a computer seat but is bound to a player")
        path = self.dir / f"{item.id}.json" if self.dir is not None else None
        return Table(item.id, path, game, meta, item.events, self.wall)

    # --- lookups --------------------------------------------------------------------------
    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError(N_("Table: there is no table {table}"), table=repr(table_id))
        return table

    def list(self, identity: str | None = None) -> list[TableInfo]:
        """Every table, in id order; ``identity``'s own seats marked in each."""
        return [self.tables[key].info(identity) for key in sorted(self.tables, key=_id_order)]

    # --- what other nodes did -------------------------------------------------------------
    def take_synced(self) -> builtins.list[Update]:
        """The Updates read from the store during the last call (another node's changes)."""
        out, self._synced = self._synced, []
        return out

    def _save(self, table: Table) -> None:
        """Store what changed besides the log: the seats away, a clock's game time."""
        self.store.save(table.id, table.game, table.meta())

    def sync(self, table_id: str) -> builtins.list[Update]:
        """Read what other nodes wrote to ``table_id`` since this node last did: a table made
        elsewhere is loaded, new rows are played (each an Update, as if moved here), changed
        seat bindings give a seats Update. A write of ours whose answer was lost is settled
        here: the seat's players are told whether it was kept."""
        table = self.tables.get(table_id)
        if table is None:
            if len(self.tables) < MAX_TABLES and ID_PATTERN.fullmatch(table_id):
                try:
                    loaded = self.store.load(table_id)
                    if loaded is not None:
                        self.tables[table_id] = self._table(loaded)
                except (StoreLost, StoreConflict):
                    raise
                except Exception as exc:  # another node's row is untrusted input too
                    log.error("table %s from the store not loaded: %s", table_id, exc)
            return []
        events, bound = self.store.read(table_id, table.events)
        updates: builtins.list[Update] = []
        if bound is not None:
            bindings = [bound.get(seat) for seat in range(len(table.bindings))]
            if bindings != table.bindings:
                sat = [b for i, b in enumerate(bindings) if b is not None and table.bindings[i] != b]
                table.bindings = bindings
                table.refresh_clock()  # another node sat the last open seat: the clocks start
                if sat:
                    seat = bindings.index(sat[0])
                    updates.append(
                        self.seats_update(
                            table_id,
                            N_("{player} sits at {seat}'s seat"),
                            player=sat[0].holder,
                            seat=table.seat_name(seat),
                        )
                    )
        away = self.store.read_away(table_id)
        if away is not None:
            stored = {seat for seat in away if 0 <= seat < len(table.bindings)}
            if stored != table.away:  # another node flagged a seat, or its player sat again
                flagged = sorted(stored - table.away)
                table.away = stored
                if flagged:
                    updates.append(
                        self.seats_update(table_id, TIME_RAN_OUT_COMPUTER, name=table.seat_name(flagged[0]))
                    )
                else:
                    updates.append(self.seats_update(table_id))
        game = table.game
        uncertain = self._uncertain.pop(table_id, None)
        kept = False
        for event in events:
            if event.seq != table.events:
                break
            base = len(game.moves)
            if event.move is None:
                seat = game.current_player
                move = game.undo()
                if move is None:
                    log.error("table %s: row %d takes back a move from an empty log", table_id, event.seq)
                    break
                update = Update(table_id=table_id, base=base - 1, moves=[], seats=table.seats())
                updates.append(
                    _noted(
                        table.stamp(update),
                        N_("{name} took back {move}"),
                        {"name": table.seat_name(seat), "move": format_move(move)},
                    )
                )
            else:
                seat = game.current_player
                try:
                    game.apply(event.move)
                except IllegalMove as exc:
                    log.error("table %s: row %d breaks the rules (%s); not played", table_id, event.seq, exc)
                    break
                if game.timer is not None and event.at is not None:
                    game.restamp([*game.times[:-1], event.at])  # the time the other node gave it
                    table.rebase_clock(event.at)
                text = format_move(event.move)
                update = Update(table_id=table_id, base=base, moves=[text], seats=table.seats())
                updates.append(
                    _noted(
                        table.stamp(update),
                        N_("{name}: {move}"),
                        {"name": table.seat_name(seat), "move": text},
                    )
                )
            if uncertain is not None and event.seq == uncertain[0]:
                kept = event.move == uncertain[1]
            table.events += 1
            table.refresh_clock()  # the last move stops the clocks
        if uncertain is not None:
            _seq, move, name = uncertain
            note = (
                N_("{name}'s move {move} was kept after all")
                if kept
                else N_("{name}'s move {move} was not kept (the database was lost); play it again")
            )
            updates.append(self.seats_update(table_id, note, name=name, move=format_move(move)))
        return updates

    def sync_all(self) -> builtins.list[Update]:
        """:meth:`sync` for every table, and every table made elsewhere (after a reconnect)."""
        updates: builtins.list[Update] = []
        for table_id in [*self.tables, *(i for i in self.store.table_ids() if i not in self.tables)]:
            updates += self.sync(table_id)
        return updates

    def _resync(self, table_id: str) -> None:
        """Another node wrote first: read what it wrote (the Hub sends it before our answer)."""
        self._synced += self.sync(table_id)

    # --- requests -------------------------------------------------------------------------
    def create(
        self, setup: GameSetup, name: str = "", colours: Sequence[str] | None = None, hints: bool = False
    ) -> Table:
        """A new table with every human seat open, written to its store before it is listed.
        ``colours`` (a distinct colour name per seat) are kept for every session to draw;
        ``hints``: the seated players may ask the strongest bot for a hint on their turn."""
        if len(self.tables) >= MAX_TABLES:
            raise TableError(N_("Table: this server already has {count} tables"), count=MAX_TABLES)
        try:
            validate_setup(setup)
        except SetupError as exc:
            raise TableError(N_("Setup: {reason}"), reason=exc) from None
        for seat, player in enumerate(setup.players):
            if player.kind not in SEAT_KINDS:
                raise TableError(
                    N_("Setup: seat {seat} must be one of {kinds}"),
                    seat=seat + 1,
                    kinds=", ".join(SEAT_KINDS),
                )
            if not player.name.strip():
                raise TableError(N_("Setup: seat {seat} has no name"), seat=seat + 1)
            if len(player.name) > MAX_PLAYER_NAME or not player.name.isprintable():
                raise TableError(
                    N_("Setup: the name of seat {seat} must be at most {limit} printable characters"),
                    seat=seat + 1,
                    limit=MAX_PLAYER_NAME,
                )
        colours = list(colours or [])
        if colours and (
            len(colours) != len(setup.players)
            or len(set(colours)) != len(colours)
            or not all(c.isidentifier() and len(c) <= MAX_COLOUR for c in colours)
        ):
            raise TableError(N_("Setup: colours must be a different colour name for each seat"))
        label = _clean_name(name, MAX_NAME)
        game = Game(setup)
        meta = TableMeta(name=label, seats=[None] * len(setup.players), colours=colours, hints=bool(hints))
        table_id = self.store.create(game, meta)
        path = self.dir / f"{table_id}.json" if self.dir is not None else None
        table = Table(table_id, path, game, meta, 0, self.wall)
        self.tables[table_id] = table
        log.info("table %s created (%s)", table_id, label or "unnamed")
        return table

    def join(self, table_id: str, identity: str, holder: str, seat: int | None) -> Joined:
        """Join as a spectator (``seat`` None) or take a seat: an open human seat is bound to
        ``identity`` for good (stored); your own seat can be rejoined any time. Counts the
        connection as present at the seat until :meth:`leave`. In a shared store the table
        is read first, so a player arriving from another node starts from every stored move."""
        if self.store.shared:
            self._resync(table_id)
        for _attempt in range(MAX_RETRIES):
            try:
                return self._join(table_id, identity, holder, seat)
            except StoreConflict:
                self._resync(table_id)
        raise TableError(N_("Table: too many changes at once; try again"))

    def _join(self, table_id: str, identity: str, holder: str, seat: int | None) -> Joined:
        table = self.get(table_id)
        if seat is not None:
            if not 0 <= seat < len(table.bindings):
                raise TableError(N_("Seat: this table has seats 1 to {count}"), count=len(table.bindings))
            name = table.seat_name(seat)
            if table.kind(seat) != SeatKind.HUMAN:
                raise TableError(N_("Seat: {name}'s seat is played by the computer"), name=name)
            binding = table.bindings[seat]
            if binding is None:
                held = table.seats_of(identity)
                if held:
                    raise TableError(
                        N_("Seat: you already hold {name}'s seat at this table"),
                        name=table.seat_name(held[0]),
                    )
                table.bindings[seat] = SeatBinding(identity=identity, holder=holder)
                table.refresh_clock()  # the last open seat taken: the clocks start
                try:
                    self.store.bind(table.id, table.game, table.meta(), seat)
                except (TableError, StoreConflict):
                    table.bindings[seat] = None
                    table.refresh_clock()
                    raise
                log.info("table %s: seat %d (%s) bound to %s", table_id, seat, name, holder)
            elif binding.identity != identity:
                raise TableError(
                    N_("Seat: {name}'s seat belongs to {holder}"), name=name, holder=binding.holder
                )
            elif seat in table.away:  # back at a seat whose time ran out: it is theirs again
                table.away.discard(seat)
                try:
                    self._save(table)
                except TableError:
                    table.away.add(seat)
                    raise
                log.info(
                    "table %s: %s takes seat %d (%s) back from the computer", table_id, holder, seat, name
                )
            table.present[seat] += 1
        game = table.game
        return Joined(
            table_id=table.id,
            setup=game.setup,
            moves=table.log(),
            seats=table.seats(),
            seat=seat,
            colours=list(table.colours),
            hints=table.hints,
            times=list(game.times) if game.timer is not None else [],
            game_time=game.now(),
            live=game.timer is not None and game.timer.running,
        )

    def leave(self, table_id: str, seat: int | None) -> None:
        """A connection that joined ``seat`` is gone (the binding stays)."""
        table = self.tables.get(table_id)
        if table is not None and seat is not None and table.present[seat] > 0:
            table.present[seat] -= 1

    def seats_update(self, table_id: str, note: str = "", **values: object) -> Update:
        """An Update that changes no move: the seat list now (after a join or a leave), with a
        ``note`` (a message id marked ``N_``) and the values of its placeholders."""
        table = self.get(table_id)
        update = Update(table_id=table.id, base=len(table.game.moves), moves=[], seats=table.seats())
        return _noted(table.stamp(update), note, values)

    def _acting_seat(self, table: Table, identity: str, undo: bool) -> int:
        """The seat to act, if ``identity`` holds it; otherwise the refusal."""
        held = table.seats_of(identity)
        if not held:
            if undo:
                raise TableError(N_("Seat: you have no seat at this table (spectators cannot undo)"))
            raise TableError(N_("Seat: you have no seat at this table (spectators cannot move)"))
        if table.over():
            raise TableError(N_("the game is over"))
        seat = table.game.current_player
        if seat in table.away and seat in held:
            raise TableError(
                N_(
                    "Turn: your time ran out and the computer plays your seat; "
                    "sit down at it again from the lobby to take it back"
                )
            )
        if seat not in held and seat not in table.handed_back:
            who = table.seat_name(seat)
            if table.kind(seat) != SeatKind.HUMAN:
                raise TableError(N_("Turn: it is {name}'s turn (a computer seat), not yours"), name=who)
            raise TableError(N_("Turn: it is {name}'s turn, not yours"), name=who)
        return seat

    def move(self, table_id: str, identity: str, text: str) -> Update:
        """Play ``text`` (move notation) for ``identity``: checked, applied, stored."""
        if len(text) > MAX_MOVE_TEXT:
            raise TableError(N_("Move: longer than {limit} characters"), limit=MAX_MOVE_TEXT)
        for _attempt in range(MAX_RETRIES):
            table = self.get(table_id)
            seat = self._acting_seat(table, identity, undo=False)
            try:
                move = parse_move(text)
            except NotationError as exc:
                raise RuleRefusal(str(exc)) from None
            try:
                return self._play(table, move, seat)
            except StoreConflict:
                self._resync(table_id)  # then answer again, as the rules say now
        raise TableError(N_("Table: too many changes at once; try again"))

    def play_bot(self, table_id: str, move: Move, expected_moves: int) -> Update | None:
        """Play a computer seat's move chosen when the log had ``expected_moves`` moves;
        ``None`` if the table moved on meanwhile (the choice is stale)."""
        table = self.tables.get(table_id)
        if table is None or len(table.game.moves) != expected_moves or table.bot_to_act() is None:
            return None
        try:
            return self._play(table, move, table.game.current_player)
        except StoreConflict:
            self._resync(table_id)
            return None

    def bot_job(self, table_id: str) -> tuple[str, int, Game] | None:
        """What a computer seat needs to choose its move: its kind, the log length and a copy
        of the game; ``None`` when no computer seat is to act."""
        table = self.tables.get(table_id)
        kind = table.bot_to_act() if table is not None else None
        if table is None or kind is None:
            return None
        return kind, len(table.game.moves), table.game.clone()

    def bot_failed(self, table_id: str, seat: int, reason: str) -> Update | None:
        """Hand a computer seat whose bot failed to the players seated at the table (until the
        hub restarts): the Update's note says so in one line."""
        table = self.tables.get(table_id)
        if table is None or table.kind(seat) == SeatKind.HUMAN:
            return None
        table.handed_back.add(seat)
        return self.seats_update(
            table_id,
            N_("{name}'s computer player failed ({reason}); the players at the table play its moves"),
            name=table.seat_name(seat),
            reason=one_line(reason, 200),
        )

    def _play(self, table: Table, move: Move, seat: int) -> Update:
        """Check, apply and store ``move`` of ``seat``; the Update names the seat and the move
        (the notation is the same in every language)."""
        game = table.game
        reason = game.why_illegal(move)
        if reason is not None:
            raise RuleRefusal(reason)
        base = len(game.moves)
        try:
            game.apply(move)
        except IllegalMove as exc:
            raise RuleRefusal(str(exc)) from None
        text = format_move(move)
        name = table.seat_name(seat)
        try:
            table.events = self.store.append(table.id, game, table.meta(), table.events)
        except StoreLost as lost:
            game.undo()
            if lost.kept is None:
                self._uncertain[table.id] = (table.events, move, name)
                raise SaveFailed(
                    N_(
                        "Table: the database was lost while {name}'s move {move} was being saved; "
                        "the table will say whether it was kept when the database is back"
                    ),
                    name=name,
                    move=text,
                ) from None
            raise SaveFailed(
                N_("Table: the database cannot be reached; {name}'s move {move} was not kept"),
                name=name,
                move=text,
            ) from None
        except (TableError, StoreConflict):
            game.undo()
            raise
        table.refresh_clock()  # the last move stops the clocks
        update = table.stamp(Update(table_id=table.id, base=base, moves=[text], seats=table.seats()))
        return _noted(update, N_("{name}: {move}"), {"name": name, "move": text})

    def undo(self, table_id: str, identity: str) -> Update:
        """Take back the last move if it is ``identity``'s own, played in the turn still going."""
        for _attempt in range(MAX_RETRIES):
            try:
                return self._undo(table_id, identity)
            except StoreConflict:
                self._resync(table_id)
        raise TableError(N_("Table: too many changes at once; try again"))

    def _undo(self, table_id: str, identity: str) -> Update:
        table = self.get(table_id)
        game = table.game
        seat = self._acting_seat(table, identity, undo=True)
        count = len(game.moves)
        reason = game.why_no_undo(seat)
        if reason is not None:
            raise RuleRefusal(reason)
        move = game.undo()
        assert move is not None  # the log was not empty
        try:
            table.events = self.store.undo(table.id, game, table.meta(), table.events)
        except (TableError, StoreConflict):
            game.redo()
            raise
        update = table.stamp(Update(table_id=table.id, base=count - 1, moves=[], seats=table.seats()))
        return _noted(
            update, N_("{name} took back {move}"), {"name": table.seat_name(seat), "move": format_move(move)}
        )

    # --- clocks ---------------------------------------------------------------------------
    def seconds_to_flag(self, table_id: str) -> float | None:
        """Real seconds until the table's human seat to act runs out of time (see
        :meth:`Table.seconds_to_flag`); ``None`` when no such clock runs."""
        table = self.tables.get(table_id)
        return None if table is None else table.seconds_to_flag()

    def flag(self, table_id: str) -> Update | None:
        """The seat to act has run out of time: its rule applies and everyone is told
        ("Bo's time ran out ..."). ``None`` if its time has not run out (it moved meanwhile)."""
        table = self.tables.get(table_id)
        if table is None:
            return None
        due = table.seconds_to_flag()
        if due is None or due > 0:
            return None
        seat = table.game.current_player
        name = table.seat_name(seat)
        setting = table.game.setup.clock
        assert setting is not None  # a clock runs
        if setting.on_flag == FlagRule.END:
            self._save(table)  # its game time is past the deadline: it stays ended after a restart
            table.refresh_clock()
            log.info("table %s: %s's time ran out; the game ends", table_id, name)
            note = TIME_RAN_OUT_END
        else:
            table.away.add(seat)
            try:
                self._save(table)
            except TableError:
                table.away.discard(seat)
                raise
            log.info("table %s: %s's time ran out; the computer plays the seat", table_id, name)
            note = TIME_RAN_OUT_COMPUTER
        return self.seats_update(table_id, note, name=name)

    def stop_clocks(self) -> None:
        """The server stops: every running clock stops and its table is written with its game
        time, so the next start charges no one for the time between (docs/clocks.md)."""
        for table in self.tables.values():
            timer = table.game.timer
            if timer is None or not timer.running:
                continue
            timer.pause()
            try:
                self._save(table)
            except TableError as exc:
                log.error("table %s: its clock was not written at the stop (%s)", table.id, exc)


def _noted(update: Update, note: str, values: dict[str, object]) -> Update:
    """``update`` with its note: the English line for logs, the id and values for clients."""
    if note:
        update.note_id = note
        update.note_values = {key: str(value) for key, value in values.items()}
        update.note = note.format(**update.note_values)
    return update


def _id_order(table_id: str) -> tuple[int, int, str]:
    match = _NUMBERED.fullmatch(table_id)
    return (0, int(match.group(1)), "") if match else (1, 0, table_id)
