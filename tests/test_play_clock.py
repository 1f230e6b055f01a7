"""The plain-text game with a clock (issue 40): the mover's time at each prompt, a time that runs
out, the computer taking over and the player taking back, the game ending on time, and a real
``play --clock 3s+0s`` whose first seat waits (its save records the clock and passes check)."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline_tui.cli import main
from pipeline_tui.cli.hotseat import TIMEOUT, HotSeat
from pipeline_tui.engine import Game, GameSetup, GameTime, parse_clock
from pipeline_tui.storage import read_save

ROOT = Path(__file__).resolve().parents[1]


class FakeWall:
    def __init__(self) -> None:
        self.seconds = 50.0

    def __call__(self) -> float:
        return self.seconds


def scripted(wall: FakeWall, items: list[str | float]):
    """Input lines; a number is seconds the player waits first (the prompt gives up when the
    mover's time runs out meanwhile)."""

    def lines(seconds: float | None):
        while items:
            item = items.pop(0)
            if isinstance(item, str):
                return item
            if seconds is not None and item >= seconds:
                wall.seconds += seconds
                return TIMEOUT
            wall.seconds += item
        return None

    return lines


def hot_seat(
    tmp_path: Path, clock: str, script: list[str | float], on_flag: str = "computer"
) -> tuple[HotSeat, Game]:
    game = Game(GameSetup.default(players=2, seed=4, clock=parse_clock(clock, on_flag)))
    wall = FakeWall()
    game.timer = GameTime(0, wall=wall)
    return HotSeat(game, tmp_path / "saves", scripted(wall, script)), game


def test_the_computer_plays_a_seat_whose_time_ran_out_until_a_player_types_back(tmp_path, capsys):
    probe = Game(GameSetup.default(players=2, seed=4))
    first_seat = probe.current_player
    first, second = probe.setup.players[first_seat].name, probe.setup.players[1 - first_seat].name
    # first waits 30 s, places a Tank, waits 40 s more (its minute runs out); the computer
    # places the rest; second types back while placing its five; first's next turn is its own.
    script: list[str | float] = [30.0, "1", 40.0, *["1"] * 4, "back", "1", "quit"]
    seat, game = hot_seat(tmp_path, "1m+0s", script)
    assert seat.run(sys.stdin) == 0
    out = capsys.readouterr().out
    assert f"{first} (1:00)> " in out and f"{first} (0:30)> " in out  # the mover's time at each prompt
    assert f"{first}'s time ran out" in out
    assert out.count(f"{first} (computer): start-tank") >= 4  # the rest of the flagged turn
    assert f"{first}: back from the computer" in out
    # Back at the seat, its next turn starts with the whole bank again.
    assert out.rindex(f"{first} (1:00)> ") > out.index(f"{first}: back from the computer")
    clock = game.clock()
    assert clock is not None and clock.flags[first_seat] == 1 and clock.flags[1 - first_seat] == 0
    assert f"{second} (1:00)> " in out
    # Leaving writes the game's time: opened again, the time spent until the quit counts.
    saved = read_save(seat.autosaved)
    assert saved.game_time == game.now() == 60_000 and not game.timer.running


def test_with_on_timeout_end_the_game_ends_with_the_scores_as_they_stand(tmp_path, capsys):
    seat, game = hot_seat(tmp_path, "10s+0s", [4.0, "1", 11.0], on_flag="end")
    assert seat.run(sys.stdin) == 0
    out = capsys.readouterr().out
    assert "time ran out" in out and "the game ends with the scores as they stand" in out
    assert not game.is_over() and len(game.moves) == 1 and game.clock().out
    assert "(computer)" not in out


@pytest.mark.parametrize("clock", ["5x", "-5m", "0s+0s", "0d/move"])
def test_bad_clocks_are_one_line_errors(capsys, clock):
    code = main(["play", "--clock", clock])
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1 and "clock" in err


def _read_until(proc: subprocess.Popen[bytes], text: str, seconds: float) -> str:
    """stdout of ``proc`` up to ``text`` (waiting on the pipe, at most ``seconds``)."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    seen = b""
    end = time.monotonic() + seconds
    while text.encode() not in seen:
        left = end - time.monotonic()
        assert left > 0, f"no {text!r} within {seconds} s; got {seen.decode()[-500:]!r}"
        ready, _w, _x = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 65536)
            assert chunk, f"the game ended before {text!r}: {seen.decode()[-500:]!r}"
            seen += chunk
    return seen.decode()


def test_play_with_a_3s_clock_tells_a_first_seat_that_waits_its_time_ran_out(tmp_path, capsys):
    saves = tmp_path / "saves"
    env = dict(os.environ, PYTHONPATH=str(ROOT), PIPELINE_TUI_LANG="en")
    probe = Game(GameSetup.default(players=2, seed=9))
    first = probe.state.players[probe.current_player].name
    started = time.monotonic()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pipeline_tui",
            "play",
            "--clock",
            "3s+0s",
            "--seed",
            "9",
            "--saves",
            str(saves),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        shown = _read_until(proc, f"{first}'s time ran out", 60)
        waited = time.monotonic() - started
        assert f"{first} (0:03)> " in shown and "Clock 3s+0s:" in shown
        shown += _read_until(proc, "> ", 60)  # the computer played the turn; the next prompt
        out, err = proc.communicate(b"quit\n", timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0 and b"Traceback" not in err
    assert f"{first} (computer): start-tank" in shown and waited >= 3
    autosaves = list(saves.glob("autosave-9*.json"))
    assert len(autosaves) == 1
    save = read_save(autosaves[0])
    assert save.setup.clock == parse_clock("3s+0s") and len(save.times) == len(save.moves) == 5
    assert all(at is not None and at >= 3000 for at in save.times)  # stamped after the flag
    capsys.readouterr()
    assert main(["check", str(autosaves[0])]) == 0
    assert capsys.readouterr().out.startswith("ok: ")


def test_until_a_player_types_back_the_computer_plays_the_seats_later_turns(tmp_path, capsys):
    probe = Game(GameSetup.default(players=2, seed=4))
    first = probe.setup.players[probe.current_player].name
    seat, game = hot_seat(tmp_path, "1m+0s", [61.0, *["1"] * 5, "quit"])
    assert seat.run(sys.stdin) == 0
    out = capsys.readouterr().out
    assert out.count(f"{first}'s time ran out") == 1
    assert f"{first} (computer): end" in out  # its first turn of play, by the computer too
