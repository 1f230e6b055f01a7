"""Game clocks (issue 40): settings, Fischer arithmetic, a flag at exactly zero, undo, a time for
each turn; every clock worked out from the setup and the log with a fake clock (no sleeps)."""

from __future__ import annotations

import msgspec
import pytest

from pipeline_tui.engine import (
    ClockError,
    ClockKind,
    ClockSetting,
    FlagRule,
    Game,
    GameSetup,
    GameTime,
    SetupError,
    format_clock,
    format_duration,
    parse_clock,
)
from pipeline_tui.engine.moves import EndTurn
from pipeline_tui.engine.setup import validate_setup
from pipeline_tui.storage import SaveError, load_game, save_game


class FakeWall:
    """Seconds that pass only when a test says so."""

    def __init__(self) -> None:
        self.seconds = 1000.0

    def __call__(self) -> float:
        return self.seconds

    def wait(self, seconds: float) -> None:
        self.seconds += seconds


def clocked(text: str, players: int = 2, seed: int = 5) -> tuple[Game, FakeWall]:
    game = Game(GameSetup.default(players=players, seed=seed, clock=parse_clock(text)))
    wall = FakeWall()
    game.timer = GameTime(0, wall=wall)
    return game, wall


def finish_turn(game: Game) -> None:
    """Play the seat to act's first legal moves (``end`` as soon as it may) until its turn
    passes."""
    while True:
        moves = game.legal_moves()
        end = [m for m in moves if isinstance(m, EndTurn)]
        game.apply(end[0] if end else moves[0])
        if game.turn_start() == len(game.moves):
            return


@pytest.mark.parametrize(
    "text,kind,time_ms,increment_ms",
    [
        ("20m+30s", ClockKind.FISCHER, 1_200_000, 30_000),
        ("3s+0s", ClockKind.FISCHER, 3000, 0),
        ("1h30m", ClockKind.FISCHER, 5_400_000, 0),
        ("2d/move", ClockKind.PER_TURN, 172_800_000, 0),
        (" 12H/turn ", ClockKind.PER_TURN, 43_200_000, 0),
    ],
)
def test_settings_are_read(text, kind, time_ms, increment_ms):
    setting = parse_clock(text)
    assert (setting.kind, setting.time_ms, setting.increment_ms) == (kind, time_ms, increment_ms)
    assert parse_clock(format_clock(setting)) == setting
    assert setting.on_flag == FlagRule.COMPUTER


@pytest.mark.parametrize(
    "text,words",
    [
        ("5x", "write a time bank"),
        ("", "write a time bank"),
        ("20m+", "write a time bank"),
        ("-5m+0s", "cannot be negative"),
        ("5m+-1s", "cannot be negative"),
        ("0s+5s", "more than zero"),
        ("0d/move", "more than zero"),
        ("400d/move", "365 days"),
        ("99999999999d", "write a time bank"),
    ],
)
def test_bad_settings_get_one_line(text, words):
    with pytest.raises(ClockError) as caught:
        parse_clock(text)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_setup_with_a_bad_clock_is_refused():
    setup = GameSetup.default(players=2, seed=1, clock=ClockSetting(ClockKind.FISCHER, 0))
    with pytest.raises(SetupError, match="more than zero"):
        validate_setup(setup)
    odd = GameSetup.default(players=2, seed=1, clock=ClockSetting("sundial", 1000))
    with pytest.raises(SetupError, match="unknown kind"):
        validate_setup(odd)


def test_readings():
    assert [
        format_duration(ms) for ms in (0, 1, 999, 1000, 59_001, 3_600_000, 86_400_000 * 2 + 3_600_000 * 4)
    ] == [
        "0:00",
        "0:01",
        "0:01",
        "0:01",
        "1:00",
        "1:00:00",
        "2d 4h",
    ]


def test_fischer_takes_each_turn_from_the_bank_and_adds_the_increment():
    game, wall = clocked("1m+10s")
    first = game.current_player
    other = 1 - first
    clock = game.clock()
    assert clock is not None and clock.remaining == (60_000, 60_000) and clock.running == first
    wall.wait(25)
    assert game.clock().remaining[first] == 35_000
    finish_turn(game)  # the five starting Tanks: one turn
    clock = game.clock()
    assert clock.remaining == ((45_000, 60_000) if first == 0 else (60_000, 45_000))
    assert clock.running == other and clock.deadline == 25_000 + 60_000
    wall.wait(70.5)  # past the bank: the other seat's time runs out
    clock = game.clock()
    assert clock.out and clock.remaining[other] == 0 and clock.running == other
    finish_turn(game)
    clock = game.clock()
    assert clock.flags[other] == 1 and clock.remaining[other] == 60_000  # the bank again
    assert clock.remaining[first] == 45_000 and clock.running == first


def test_the_flag_falls_at_exactly_zero_and_not_a_millisecond_before():
    game, wall = clocked("3s+0s")
    wall.wait(2.999)
    clock = game.clock()
    assert not clock.out and clock.remaining[clock.running] == 1
    wall.wait(0.001)
    clock = game.clock()
    assert clock.out and clock.remaining[clock.running] == 0 and clock.deadline == game.now() == 3000


def test_undo_within_a_turn_gives_back_no_time():
    game, wall = clocked("1m+0s")
    seat = game.current_player
    wall.wait(10)
    game.apply(game.legal_moves()[0])
    wall.wait(10)
    game.apply(game.legal_moves()[0])
    assert game.clock().remaining[seat] == 40_000
    assert game.undo() is not None and game.undo() is not None
    assert game.moves == [] and game.clock().remaining[seat] == 40_000
    wall.wait(5)
    assert game.clock().remaining[seat] == 35_000


def test_a_time_for_each_turn_starts_again_each_turn_and_has_a_deadline():
    game, wall = clocked("2d/move")
    first = game.current_player
    wall.wait(86_400 * 1.5)
    assert game.clock().remaining[first] == 86_400_000 // 2
    finish_turn(game)
    clock = game.clock()
    second = clock.running
    assert second != first and clock.remaining == (172_800_000, 172_800_000)
    assert clock.deadline == game.now() + 172_800_000
    wall.wait(86_400 * 2 - 1)
    assert not game.clock().out
    wall.wait(1)
    assert game.clock().out and game.clock().remaining[second] == 0


def test_the_clocks_are_the_logs_a_copy_with_the_stamps_reads_the_same():
    game, wall = clocked("5m+5s")
    for seconds in (3, 7, 11):
        wall.wait(seconds)
        finish_turn(game)
    now = game.now()
    again = Game(game.setup, game.moves, game.times)
    assert again.times == game.times and again.clock(now) == game.clock(now)
    assert [entry.at for entry in again.entries] == game.times
    copy = game.clone()
    wall.wait(60)
    assert copy.clock() == game.clock(now)  # a copy keeps the stamps; no time runs for it


def test_stamps_never_go_back_and_a_game_without_a_clock_has_none():
    game, _wall = clocked("5m+5s")
    for _ in range(3):
        game.apply(game.legal_moves()[0])
    again = Game(game.setup, game.moves, [500, 100])
    assert again.times == [500, 500, 500]
    plain = Game(GameSetup.default(players=2, seed=1))
    plain.apply(plain.legal_moves()[0])
    assert plain.clock() is None and plain.times == [0]
    assert msgspec.structs.replace(plain.setup, clock=None) == plain.setup


def test_a_save_keeps_the_clock_each_moves_time_and_the_game_time(tmp_path):
    game, wall = clocked("20m+30s")
    wall.wait(12)
    finish_turn(game)
    wall.wait(4.25)
    game.apply(game.legal_moves()[0])
    wall.wait(30)
    path = tmp_path / "clocked.json"
    save_game(game, path)
    raw = msgspec.json.decode(path.read_bytes())
    assert raw["setup"]["clock"] == {
        "kind": "fischer",
        "time_ms": 1_200_000,
        "increment_ms": 30_000,
        "on_flag": "computer",
    }
    assert [entry["at"] for entry in raw["moves"]] == game.times and raw["game_time"] == 46_250
    loaded = load_game(path)
    assert loaded.times == game.times and loaded.setup == game.setup
    assert loaded.now() == 46_250 and loaded.clock() == game.clock()


def test_a_save_without_a_clock_is_written_as_before(tmp_path):
    game = Game(GameSetup.default(players=2, seed=3))
    game.apply(game.legal_moves()[0])
    save_game(game, tmp_path / "plain.json")
    text = (tmp_path / "plain.json").read_text()
    assert '"clock"' not in text and '"at"' not in text and "game_time" not in text
    assert load_game(tmp_path / "plain.json").timer is None


def test_a_restart_charges_no_one_for_the_time_the_game_was_closed(tmp_path):
    """The stated rule: a closed game's clocks stand still. A game saved with 10 s left on
    the running clock, opened again hours later, still has 10 s, and then runs on."""
    game, wall = clocked("1m+0s")
    seat = game.current_player
    wall.wait(50)
    save_game(game, tmp_path / "g.json")
    wall.wait(6 * 3600)  # the server is down for six hours
    loaded = load_game(tmp_path / "g.json")
    loaded.timer = GameTime(loaded.now(), wall=wall)
    clock = loaded.clock()
    assert not clock.out and clock.remaining[seat] == 10_000
    wall.wait(10)
    assert loaded.clock().out


def test_stamps_in_a_hand_made_save_are_checked(tmp_path):
    game, wall = clocked("1m+0s")
    game.apply(game.legal_moves()[0])
    save_game(game, tmp_path / "g.json")
    text = (tmp_path / "g.json").read_text().replace('"at":0', '"at":"soon"')
    (tmp_path / "g.json").write_text(text)
    with pytest.raises(SaveError, match="save format"):
        load_game(tmp_path / "g.json")
