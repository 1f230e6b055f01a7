"""The ``arena`` command: its table, determinism for a seed, seat rotation and one-line errors."""

from __future__ import annotations

import pytest

from pipeline_tui.ai.arena import play_game, run_games, seat_bots, summarise, wilson
from pipeline_tui.cli import main

COLUMNS = ["bot", "games", "wins", "win", "%", "95%", "CI", "avg", "score", "ms/decision", "ms/turn"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _without_timings(out: str) -> list[str]:
    lines = [line for line in out.splitlines() if not line.startswith("total time")]
    return [line.rsplit(maxsplit=2)[0] for line in lines]


def test_arena_prints_the_table_and_is_deterministic_for_a_seed(capsys):
    argv = ("arena", "--players", "2", "--games", "2", "--seed", "4", "--bots", "heuristic,random")
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("arena: 2 players, 2 games, seeds 4-5, bots heuristic, random")
    assert lines[1].split() == COLUMNS
    rows = {line.split()[0]: line.split() for line in lines[2:4]}
    assert set(rows) == {"heuristic", "random"}
    for row in rows.values():
        games, wins, rate = int(row[1]), int(row[2]), float(row[3])
        assert games == 2 and 0 <= wins <= 2 and rate == pytest.approx(100 * wins / games)
        low, high = (float(x) for x in row[4].split("-"))
        assert 0 <= low <= rate <= high <= 100
        assert float(row[6]) >= 0 and float(row[7]) >= float(row[6])
    assert int(rows["heuristic"][2]) + int(rows["random"][2]) == 2
    assert lines[4].startswith("total time ") and lines[4].endswith(" s")
    assert _without_timings(run(capsys, *argv)[1]) == _without_timings(out)


def test_two_processes_give_the_same_results():
    one = run_games(["random"], 3, 4, seed=9, jobs=1)
    two = run_games(["random"], 3, 4, seed=9, jobs=2)
    strip = [[(s.bot, s.score, s.rank, s.decisions, dict(s.actions)) for s in r.seats] for r in one]
    assert strip == [[(s.bot, s.score, s.rank, s.decisions, dict(s.actions)) for s in r.seats] for r in two]


def test_seats_rotate_and_names_cycle():
    assert seat_bots(["search", "heuristic"], 4, 0) == ["search", "heuristic", "search", "heuristic"]
    assert seat_bots(["heuristic", "random"], 3, 1) == ["random", "heuristic", "heuristic"]
    assert seat_bots(["a", "b", "c"], 3, 5) == ["c", "a", "b"]


def test_a_bot_with_two_seats_wins_a_game_once():
    record = play_game(["random", "random"], seed=2)
    stats = summarise([record])
    assert len(stats) == 1 and stats[0].games == 1 and stats[0].wins == 1 and stats[0].seats == 2
    assert sum(sum(s.actions.values()) for s in record.seats) > 0


def test_wilson_interval():
    assert wilson(0, 10)[0] == 0 and wilson(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)
    assert wilson(10, 10)[0] == pytest.approx(0.7225, abs=1e-4) and wilson(10, 10)[1] == 1
    low, high = wilson(150, 200)
    assert low == pytest.approx(0.6858, abs=1e-3) and high == pytest.approx(0.8048, abs=1e-3)


@pytest.mark.parametrize("argv, fragment", [
    (("arena", "--bots", "oracle"), "unknown bot 'oracle'"),
    (("arena", "--players", "2", "--bots", "random,random,random"), "3 bots named for 2 seats"),
    (("arena", "--games", "0"), "--games"),
    (("arena", "--players", "5"), "--players"),
    (("arena", "--jobs", "x"), "--jobs"),
])
def test_arena_errors_are_one_line(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code != 0 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and fragment in lines[0] and "Traceback" not in err


def test_balance_tables(capsys):
    code, out, _ = run(capsys, "arena", "--players", "3", "--games", "2", "--bots", "random",
                       "--balance")
    assert code == 0
    assert "2 games, 2 winners, 4 other seats" in out
    for heading in ("Action (per game)", "winning score: mean", "winner's margin over second",
                    "Score part (mean)", "Plan (most used)"):
        assert heading in out
    assert "(a seat's fair share is 33.3%)" in out
