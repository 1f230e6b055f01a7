"""Game clocks: a time bank with an increment (Fischer) or a fixed time for each turn
(correspondence), worked out from the setup and the move log alone.

A clocked game stamps every move of its log with the game's own time (``LogEntry.at``,
milliseconds): the time the game has been open in a running program since it began. A game
that is saved, or whose server stops, stands still until it is opened again (docs/clocks.md,
"Restarts"), so no one is charged for the time it was closed. Every clock is then a pure
function of the setting, the log's turns and stamps, and the game time now (:func:`clock_state`):
replay, undo and a restarted server find the same clocks.

A turn (rulebook, "Turn Order": a player's turn is its Work Phase and Machine Phase, ended by
``end``; in the Setup, the five starting Tanks) runs from the move that ended the turn before
it. Its time is charged from that moment to the move that ends it, so taking back a move within
a turn gives back no time.

>>> parse_clock("20m+30s")
ClockSetting(kind='fischer', time_ms=1200000, increment_ms=30000, on_flag='computer')
>>> format_clock(parse_clock("2d/move")), format_duration(61_000), format_duration(90_061_000)
('2d/move', '1:01', '1d 1h')
"""

from __future__ import annotations

import re
import time
from enum import StrEnum
from typing import Callable, Sequence

import msgspec

from ..i18n import _

MAX_CLOCK_MS = 365 * 86_400_000  # a year: longer settings are surely a slip
_UNIT_MS = {"s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}
_DURATION = r"(?:[0-9]{1,9}[smhd])+"
_FISCHER = re.compile(rf"({_DURATION})(?:\+({_DURATION}))?")
_PER_TURN = re.compile(rf"({_DURATION})/(?:move|turn)")
_PART = re.compile(r"([0-9]+)([smhd])")


class ClockKind(StrEnum):
    """The two kinds of clock (saves hold the value)."""

    FISCHER = "fischer"  # a time bank, and an increment added at the end of each turn
    PER_TURN = "turn"  # a fixed time for each turn (correspondence); nothing carries over


class FlagRule(StrEnum):
    """What happens when a seat's time runs out, chosen at setup (saves hold the value)."""

    COMPUTER = "computer"  # the computer (normal) plays the seat until its player takes it back
    END = "end"  # the game ends with the scores as they stand


class ClockSetting(msgspec.Struct, frozen=True):
    """A game's clock: its kind, the bank (Fischer) or the time for each turn, the increment
    (Fischer) and the rule when time runs out (:class:`FlagRule`)."""

    kind: str
    time_ms: int
    increment_ms: int = 0
    on_flag: str = FlagRule.COMPUTER.value


class ClockError(ValueError):
    """A clock setting that cannot be read or played; one line for the user."""


def _duration(text: str) -> int:
    return sum(int(n) * _UNIT_MS[unit] for n, unit in _PART.findall(text))


def parse_clock(text: str, on_flag: str = FlagRule.COMPUTER.value) -> ClockSetting:
    """``20m+30s`` (a bank plus an increment each turn; ``20m`` alone: no increment) or
    ``2d/move`` (a time for each turn). Units s, m, h, d, which may be combined (``1h30m``).
    Raises :class:`ClockError` with one line naming what is wrong."""
    given = text.strip().lower().replace(" ", "")
    if "-" in given:
        raise ClockError(_("clock {clock}: times cannot be negative").format(clock=text.strip()))
    fischer = _FISCHER.fullmatch(given)
    per_turn = _PER_TURN.fullmatch(given)
    if fischer:
        setting = ClockSetting(
            ClockKind.FISCHER.value,
            _duration(fischer.group(1)),
            _duration(fischer.group(2) or ""),
            str(on_flag),
        )
    elif per_turn:
        setting = ClockSetting(ClockKind.PER_TURN.value, _duration(per_turn.group(1)), 0, str(on_flag))
    else:
        raise ClockError(
            _(
                "clock {clock}: write a time bank and an increment like 20m+30s, or a time for "
                "each turn like 2d/move (units s, m, h, d)"
            ).format(clock=text.strip() or '""')
        )
    check_clock(setting, text.strip())
    return setting


def check_clock(setting: ClockSetting, shown: str | None = None) -> None:
    """Raise :class:`ClockError` for a setting no game can be played with."""
    name = shown or format_clock(setting)
    if setting.kind not in tuple(ClockKind):
        raise ClockError(_("clock: unknown kind {kind}").format(kind=repr(setting.kind)))
    if setting.on_flag not in tuple(FlagRule):
        raise ClockError(
            _("clock: unknown rule {rule} for a time that runs out").format(rule=repr(setting.on_flag))
        )
    if setting.time_ms < 0 or setting.increment_ms < 0:
        raise ClockError(_("clock {clock}: times cannot be negative").format(clock=name))
    if setting.time_ms == 0:
        raise ClockError(_("clock {clock}: the time must be more than zero").format(clock=name))
    if setting.time_ms > MAX_CLOCK_MS or setting.increment_ms > MAX_CLOCK_MS:
        raise ClockError(_("clock {clock}: a time of at most 365 days").format(clock=name))
    if setting.kind == ClockKind.PER_TURN and setting.increment_ms:
        raise ClockError(_("clock {clock}: a time for each turn takes no increment").format(clock=name))


def _short(ms: int) -> str:
    """A setting's time in its largest whole units: ``1h30m``, ``45s``."""
    if ms == 0:
        return "0s"
    parts = []
    for unit in "dhms":
        size = _UNIT_MS[unit]
        if ms >= size:
            parts.append(f"{ms // size}{unit}")
            ms %= size
    return "".join(parts) + (f"{ms}ms" if ms else "")


def format_clock(setting: ClockSetting) -> str:
    """The setting as it is written on the command line (``20m+30s``, ``2d/move``)."""
    if setting.kind == ClockKind.PER_TURN:
        return f"{_short(setting.time_ms)}/move"
    return f"{_short(setting.time_ms)}+{_short(setting.increment_ms)}"


def format_duration(ms: int) -> str:
    """A clock's reading: ``0:07``, ``19:42``, ``1:02:03``; a day or more as ``2d 4h``
    (seconds rounded up, so a clock shows 0:00 only once its time is out)."""
    seconds = max(0, -(-ms // 1000))
    if seconds >= 86_400:
        return f"{seconds // 86_400}d {seconds % 86_400 // 3600}h"
    hours, rest = divmod(seconds, 3600)
    if hours:
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
    return f"{rest // 60}:{rest % 60:02d}"


class ClockState(msgspec.Struct, frozen=True):
    """Every seat's clock at one moment of game time.

    ``remaining``: each seat's time left, in ms (never below 0); ``running``: the seat whose
    clock runs (the seat to act; ``None`` once the game is over); ``deadline``: the game time at
    which the running seat's time runs out; ``out``: it has run out in this turn (at exactly
    zero too); ``flags``: how many times each seat's time has run out in the turns played."""

    remaining: tuple[int, ...]
    running: int | None
    deadline: int | None
    out: bool
    flags: tuple[int, ...]

    def last_minute(self, seat: int) -> bool:
        """The seat's clock runs and less than a minute is left."""
        return self.running == seat and self.remaining[seat] < 60_000


def clock_state(
    setting: ClockSetting,
    seats: int,
    turns: Sequence[tuple[object, int]],
    times: Sequence[int],
    current: tuple[object, int] | None,
    now: int,
) -> ClockState:
    """Every clock, from the log alone (a pure function).

    ``turns``: for each move of the log, its turn and seat (moves of one turn are consecutive
    and share it); ``times``: each move's game time in ms; ``current``: the turn being played
    now and its seat (``None`` once the game is over); ``now``: the game time now.

    Fischer: each seat starts with the bank; a turn's time is taken from it and, if some is
    left, the increment is added when the turn ends. A fixed time for each turn: each turn
    starts with it, and nothing carries over. A turn whose time ran out (at zero or below) is
    counted in ``flags``; the seat's next turn starts from the full setting again (Fischer: the
    bank), since the computer played on for it (docs/clocks.md).
    """
    full = setting.time_ms
    fischer = setting.kind == ClockKind.FISCHER
    remaining = [full] * seats
    flags = [0] * seats
    start = 0
    count = len(turns)
    index = 0
    while index < count:
        turn = turns[index][0]
        last = index
        while last + 1 < count and turns[last + 1][0] == turn:
            last += 1
        if last == count - 1 and current is not None and current[0] == turn:
            break  # the turn still being played: it runs below
        seat = turns[index][1]
        available = remaining[seat] if fischer else full
        spent = max(0, times[last] - start)
        if spent >= available:
            flags[seat] += 1
            remaining[seat] = full
        elif fischer:
            remaining[seat] = min(available - spent + setting.increment_ms, MAX_CLOCK_MS)
        start = max(start, times[last])
        index = last + 1
    if current is None:
        return ClockState(tuple(remaining), None, None, False, tuple(flags))
    seat = current[1]
    available = remaining[seat] if fischer else full
    left = available - max(0, now - start)
    remaining[seat] = max(0, left)
    return ClockState(tuple(remaining), seat, start + available, left <= 0, tuple(flags))


class GameTime:
    """A game's own time while it is open: ``now()`` in ms, starting from where the game's
    time stood when it was opened (its last stamp or its saved time) and running with the
    process's monotonic clock. ``pause``/``resume`` stop and start it (a shared table waits
    for its seats). ``wall`` returns seconds; tests pass a fake one (no sleeps)."""

    def __init__(
        self, start_ms: int = 0, *, wall: Callable[[], float] = time.monotonic, running: bool = True
    ) -> None:
        self.wall = wall
        self._base = max(0, int(start_ms))
        self._since: float | None = wall() if running else None

    @property
    def running(self) -> bool:
        return self._since is not None

    def now(self) -> int:
        if self._since is None:
            return self._base
        return self._base + max(0, int((self.wall() - self._since) * 1000))

    def pause(self) -> None:
        if self._since is not None:
            self._base = self.now()
            self._since = None

    def resume(self) -> None:
        if self._since is None:
            self._since = self.wall()

    def seconds_until(self, game_ms: int) -> float:
        """Real seconds until the game time reaches ``game_ms`` (if it runs)."""
        return max(0.0, (game_ms - self.now()) / 1000)
