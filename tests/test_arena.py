"""The ``arena`` command: its table, determinism for a seed, seat rotation and one-line errors."""

from __future__ import annotations

import pytest

import math

from pipeline_tui.ai import arena, make_bot
from pipeline_tui.ai.arena import (
    IDLE_TURNS,
    PRIOR_TIES,
    GameRecord,
    Pairing,
    SeatRecord,
    bradley_terry,
    economy,
    economy_report,
    play_game,
    run_games,
    seat_bots,
    summarise,
    wilson,
)
from pipeline_tui.cli import main
from pipeline_tui.data import components as C
from pipeline_tui.engine import moves as M

COLUMNS = ["bot", "games", "wins", "win", "%", "95%", "CI", "avg", "score", "ms/decision", "ms/turn"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _without_timings(out: str) -> list[str]:
    lines = [line for line in out.splitlines() if not line.startswith("total time")]
    return [line.rsplit(maxsplit=2)[0] if line else line for line in lines]


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
    assert lines[4] == "" and lines[5].split()[:4] == ["bot", "games", "machine", "%"]
    assert lines[-1].startswith("total time ") and lines[-1].endswith(" s")
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


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (("arena", "--bots", "oracle"), "unknown bot 'oracle'"),
        (("arena", "--players", "2", "--bots", "random,random,random"), "3 bots named for 2 seats"),
        (("arena", "--games", "0"), "--games"),
        (("arena", "--players", "5"), "--players"),
        (("arena", "--jobs", "x"), "--jobs"),
        (("arena", "--round-robin", "--players", "3", "--bots", "random,heuristic"), "2-player"),
        (("arena", "--round-robin", "--bots", "random,random"), "2 different bots"),
        (("arena", "--round-robin", "--bots", "random"), "2 different bots"),
        (("arena", "--round-robin", "--bots", "random,heuristic", "--balance"), "--balance"),
    ],
)
def test_arena_errors_are_one_line(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code != 0 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and fragment in lines[0] and "Traceback" not in err


def test_balance_tables(capsys):
    code, out, _ = run(capsys, "arena", "--players", "3", "--games", "2", "--bots", "random", "--balance")
    assert code == 0
    assert "2 games, 2 winners, 4 other seats" in out
    for heading in (
        "Action (per game)",
        "winning score: mean",
        "winner's margin over second",
        "Score part (mean)",
        "Plan (most used)",
    ):
        assert heading in out
    assert "(a seat's fair share is 33.3%)" in out


def _pairing(first: str, second: str, wins: int, losses: int, ties: int = 0) -> Pairing:
    """A pairing with these results (scores and seeds made up)."""
    results = [(1, 2)] * wins + [(2, 1)] * losses + [(1, 1)] * ties
    return Pairing(
        first,
        second,
        [
            GameRecord(i, [SeatRecord(first, 0, a), SeatRecord(second, 0, b)], 0)
            for i, (a, b) in enumerate(results)
        ],
    )


def test_a_pairing_counts_wins_losses_and_ties():
    assert _pairing("a", "b", 5, 3, 2).tally() == (5, 3, 2)


def test_bradley_terry_with_two_bots_is_their_odds():
    ratings = bradley_terry([_pairing("a", "b", 30, 10)])
    half = PRIOR_TIES / 2
    odds = (30 + half) / (10 + half)
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(odds), abs=1e-6)
    assert ratings["a"] + ratings["b"] == pytest.approx(0, abs=1e-6)


def test_bradley_terry_orders_a_ladder_and_stays_finite_for_a_bot_that_never_wins():
    ratings = bradley_terry([_pairing("c", "b", 0, 20), _pairing("c", "a", 0, 20), _pairing("b", "a", 4, 16)])
    assert ratings["a"] > ratings["b"] > ratings["c"]
    assert all(math.isfinite(r) for r in ratings.values())
    even = bradley_terry([_pairing("x", "y", 7, 7, 6)])
    assert even["x"] == pytest.approx(even["y"], abs=1e-6)


def test_round_robin_prints_pairings_and_ratings(capsys):
    argv = ("arena", "--round-robin", "--games", "2", "--seed", "6", "--bots", "easy,heuristic")
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("round robin: 2 players, 2 games a pairing, seeds 6-7, bots random, heuristic")
    assert lines[1].split() == ["pairing", "games", "wins", "losses", "ties", "win", "%", "95%", "CI"]
    row = lines[2].split()
    assert row[:3] == ["random", "v", "heuristic"] and row[3] == "2"
    wins, losses, ties = int(row[4]), int(row[5]), int(row[6])
    assert wins + losses + ties == 2
    low, high = (float(x) for x in row[8].split("-"))
    assert low <= float(row[7]) <= high
    assert lines[4].split() == ["bot", "rating", "games", "wins", "win", "%", "ms/decision", "ms/turn"]
    table = {line.split()[0]: line.split() for line in lines[5:7]}
    assert set(table) == {"random", "heuristic"}
    assert int(table["random"][1]) + int(table["heuristic"][1]) == 0
    assert (int(table["heuristic"][1]) > 0) == (losses > wins)
    assert lines[7] == "" and lines[8].split()[:4] == ["bot", "games", "machine", "%"]
    assert lines[-1].startswith("total time ")
    again = run(capsys, *argv)[1].splitlines()
    assert again[:5] == lines[:5]
    assert [line.split()[:5] for line in again[5:7]] == [line.split()[:5] for line in lines[5:7]]


def _seat(bot: str, rank: int, score: int, machines: int = 0, money: int = 0, idle: int = 0) -> SeatRecord:
    seat = SeatRecord(bot, score, rank, machines=machines, contract_money=money, idle_turns=idle)
    seat.parts.update({"cash": score - 10, "contracts": 10})
    return seat


def test_economy_counts_machines_contract_money_and_winning_scores():
    records = [
        GameRecord(1, [_seat("expert", 1, 200, machines=1, money=45), _seat("heuristic", 2, 150)], 0),
        GameRecord(2, [_seat("heuristic", 1, 180, money=30), _seat("expert", 2, 170, machines=2)], 0),
        GameRecord(3, [_seat("expert", 1, 260, money=20, idle=3), _seat("heuristic", 2, 100, idle=9)], 0),
    ]
    stats = {s.bot: s for s in economy(records)}
    expert, heuristic = stats["expert"], stats["heuristic"]
    assert (expert.games, expert.with_machine, expert.with_contract_money) == (3, 2, 2)
    assert (heuristic.with_machine, heuristic.with_contract_money, heuristic.contract_money) == (0, 1, 30)
    assert expert.wins == 2 and expert.win_score == 460 and expert.win_parts["contracts"] == 20
    lines = economy_report(records)
    row = lines[1].split()
    assert (expert.idle, heuristic.idle) == (0, 1)  # 4 turns in a row unchanged count, 3 do not
    assert (
        row[0] == "expert" and row[1:4] == ["3", "66.7", "66.7"] and row[4:8] == ["21.7", "0.0", "2", "230.0"]
    )
    assert lines[2].split()[5] == "33.3"
    assert "expert winning score parts (mean): cash 220.0, contracts 10.0" in lines


class _Passer:
    """A bot that passes whenever it may (and places its starting Tanks as listed)."""

    def choose(self, game):
        legal = game.legal_moves()
        return next((m for m in legal if type(m) is M.Pass), legal[0])


def test_a_seat_that_changes_nothing_counts_every_turn_idle(monkeypatch):
    """``idle_turns`` is the longest run of turns that began where the one before began: a seat
    that passes each turn of the 18 begins 17 of them unchanged, one that plays does not."""
    monkeypatch.setattr(
        arena, "make_bot", lambda kind, **_: _Passer() if kind == "random" else make_bot(kind)
    )
    record = play_game(["random", "heuristic"], seed=3)
    passer, player = record.seats
    assert passer.idle_turns == sum(C.ROUNDS_PER_YEAR) - 1
    assert player.idle_turns < IDLE_TURNS
