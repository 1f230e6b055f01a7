"""The arena: seeded games between bots, to measure their strength and the game's balance.

Game ``g`` uses setup seed ``seed + g`` and rotates the seats by ``g``, so every bot plays every
seat in turn. A bot's "games" are the games it sat in and its "wins" the games one of its seats
won (with two seats of one bot, either winning counts once). Results are the same for a seed
whatever ``jobs`` is, apart from timings.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field

from ..data.editions import PRINTED_EDITION
from ..engine import moves as M
from ..engine import Game, GameSetup, PlayerSetup, PlayerState, Stage
from ..i18n import _, quoted
from . import KINDS, make_bot


@dataclass
class SeatRecord:
    bot: str
    score: int
    rank: int
    decisions: int = 0
    turns: int = 0
    seconds: float = 0.0
    actions: Counter[str] = field(default_factory=Counter)  # Main and Secondary Actions taken
    parts: Counter[str] = field(default_factory=Counter)  # score by step, Valuation cards as "cards"
    machines: int = 0  # Machines placed (bought or received as a grant)
    contract_money: int = 0  # dollars paid by Contract deliveries and Orders fulfilled
    idle_turns: int = 0  # the most turns in a row it began where the last one began


@dataclass
class GameRecord:
    seed: int
    seats: list[SeatRecord]
    moves: int


def seat_bots(bots: list[str], players: int, game_index: int) -> list[str]:
    """The bot in each seat of game ``game_index``: names cycled to fill the seats, then rotated."""
    names = [bots[i % len(bots)] for i in range(players)]
    shift = game_index % players
    return names[shift:] + names[:shift]


def action_name(move: M.Move) -> str | None:
    """The Action a move takes, for counting: a cross space, Government, a run or a pass."""
    match move:
        case M.Action():
            return move.action
        case M.Secondary():
            return f"second {move.action}"
        case M.Government():
            return "government"
        case M.RunNetwork():
            return "network"
        case M.RunMachine():
            return "machine"
        case M.Pass():
            return "pass"
    return None


def play_game(
    bots: list[str],
    seed: int,
    seconds: float | None = None,
    samples: int | None = None,
    edition: int = PRINTED_EDITION,
) -> GameRecord:
    """One game between ``bots`` (one per seat) from setup seed ``seed``, with the components
    of ``edition`` (the printed ones unless told)."""
    setup = GameSetup(
        seed=seed,
        players=tuple(PlayerSetup(f"{bot}-{i + 1}", bot) for i, bot in enumerate(bots)),
        edition=edition,
    )
    game = Game(setup)
    records = [SeatRecord(bot, 0, 0) for bot in bots]
    players = [make_bot(bot, seed=seed, seconds=seconds, samples=samples) for bot in bots]
    # each seat's position when its last turn began
    began: list[tuple[object, ...] | None] = [None] * len(bots)
    idle = [0] * len(bots)
    turn: tuple[int, int, int] | None = None
    while not game.is_over():
        seat = game.current_player
        state = game.state
        if state.turn.stage != Stage.SETUP and (state.year, state.round, state.turn_index) != turn:
            turn = (state.year, state.round, state.turn_index)
            now = _position(state.players[seat])
            idle[seat] = idle[seat] + 1 if now == began[seat] else 0
            records[seat].idle_turns = max(records[seat].idle_turns, idle[seat])
            began[seat] = now
        started = time.perf_counter()
        move = players[seat].choose(game)
        records[seat].seconds += time.perf_counter() - started
        records[seat].decisions += 1
        if move not in game.legal_moves():
            raise RuntimeError(f"bot {bots[seat]} chose an illegal move {move!r} (seed {seed})")
        records[seat].turns += type(move) is M.EndTurn
        name = action_name(move)
        if name:
            records[seat].actions[name] += 1
        records[seat].machines += type(move) is M.PlaceMachine
        paid = type(move) in (M.Deliver, M.FulfilOrder)
        before = game.state.players[seat].money
        game.apply_trusted(move)
        if paid:
            records[seat].contract_money += game.state.players[seat].money - before
    for score in game.scores():
        records[score.seat].score = score.total
        records[score.seat].rank = score.rank
        for line in score.lines:
            step = "cards" if line.step.startswith("card:") else line.step
            records[score.seat].parts[step] += line.amount
    return GameRecord(seed, records, len(game.moves))


def _position(player: PlayerState) -> tuple[object, ...]:
    """What a player owns, to tell a turn that changed nothing: cash, barrels, Pipe tiles,
    Machines, Tanks, Contracts, Orders and Upgrades."""
    return (
        player.money,
        tuple(map(tuple, player.oil)),
        len(player.tiles),
        len(player.machines),
        tuple(player.tanks),
        len(player.contracts),
        len(player.orders),
        tuple(player.upgrades),
    )


Job = tuple[list[str], int, int, int, float | None, int | None, int]
"""One game of a run: the bots, the players a game seats, the first seed, the game's index,
seconds, samples and edition (:func:`_play_indexed`)."""


def _play_indexed(job: Job) -> GameRecord:
    bots, players, seed, index, seconds, samples, edition = job
    return play_game(seat_bots(bots, players, index), seed + index, seconds, samples, edition)


def run_games(
    bots: list[str],
    players: int,
    games: int,
    seed: int,
    jobs: int = 1,
    seconds: float | None = None,
    samples: int | None = None,
    edition: int = PRINTED_EDITION,
) -> list[GameRecord]:
    """Play the arena's games, in ``jobs`` processes; records in game order."""
    unknown = [b for b in bots if b not in KINDS]
    if unknown:
        raise ValueError(
            _("unknown bot {name} (one of {kinds})").format(name=quoted(unknown[0]), kinds=", ".join(KINDS))
        )
    if players not in (2, 3, 4):
        raise ValueError(_("Pipeline is for 2 to 4 players, not {n}").format(n=players))
    if len(bots) > players:
        raise ValueError(_("{bots} bots named for {seats} seats").format(bots=len(bots), seats=players))
    if games < 1:
        raise ValueError(_("play at least 1 game"))
    work = [(bots, players, seed, i, seconds, samples, edition) for i in range(games)]
    if jobs <= 1 or games == 1:
        return [_play_indexed(job) for job in work]
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        return pool.map(_play_indexed, work, chunksize=1)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate, in 0..1 (``wins`` may count a tie as half)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class BotStats:
    bot: str
    games: int = 0
    wins: int = 0
    score_total: int = 0
    seats: int = 0
    decisions: int = 0
    turns: int = 0
    seconds: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def summarise(records: list[GameRecord]) -> list[BotStats]:
    """Per bot: games sat in, games won, mean seat score, time per decision."""
    stats: dict[str, BotStats] = {}
    for record in records:
        for bot in dict.fromkeys(s.bot for s in record.seats):
            entry = stats.setdefault(bot, BotStats(bot))
            entry.games += 1
            entry.wins += any(s.rank == 1 for s in record.seats if s.bot == bot)
        for seat in record.seats:
            entry = stats[seat.bot]
            entry.seats += 1
            entry.score_total += seat.score
            entry.decisions += seat.decisions
            entry.turns += seat.turns
            entry.seconds += seat.seconds
    return list(stats.values())


def headings(*cells: tuple[str, str]) -> str:
    """A table's heading line: each heading (translated by the caller) padded by its format spec,
    one space between, as the rows below it are.

    >>> headings(("bot", "<5"), ("wins", ">6"))
    'bot     wins'
    """
    return " ".join(format(text, spec) for text, spec in cells)


def report(stats: list[BotStats]) -> list[str]:
    """The arena table, one line per bot (its headings in the current language)."""
    lines = [
        headings(
            (_("bot"), "<10"),
            (_("games"), ">6"),
            (_("wins"), ">6"),
            (_("win %"), ">6"),
            (_("95% CI"), ">13"),
            (_("avg score"), ">10"),
            (_("ms/decision"), ">12"),
            (_("ms/turn"), ">8"),
        )
    ]
    for s in stats:
        low, high = wilson(s.wins, s.games)
        ms = 1000 * s.seconds / s.decisions if s.decisions else 0.0
        per_turn = 1000 * s.seconds / s.turns if s.turns else 0.0
        lines.append(
            f"{s.bot:<10} {s.games:>6} {s.wins:>6} {100 * s.win_rate:>6.1f} "
            f"{100 * low:>6.1f}-{100 * high:<6.1f} {s.score_total / max(1, s.seats):>10.1f} "
            f"{ms:>12.2f} {per_turn:>8.1f}"
        )
    return lines


# --- The ladder: a round robin of 2-player pairings --------------------------------------------


@dataclass
class Pairing:
    """One pairing of a round robin: ``first`` against ``second`` over the same seeded games."""

    first: str
    second: str
    records: list[GameRecord]

    def tally(self) -> tuple[int, int, int]:
        """Games won by ``first``, won by ``second``, and tied (both ranked first)."""
        first = second = ties = 0
        for record in self.records:
            winners = {s.bot for s in record.seats if s.rank == 1}
            if len(winners) > 1:
                ties += 1
            elif self.first in winners:
                first += 1
            else:
                second += 1
        return first, second, ties


def round_robin(
    bots: list[str],
    games: int,
    seed: int,
    jobs: int = 1,
    seconds: float | None = None,
    samples: int | None = None,
    edition: int = PRINTED_EDITION,
) -> list[Pairing]:
    """Every pair of ``bots`` plays ``games`` 2-player games on seeds ``seed`` onwards, seats
    rotated each game (every pairing meets the same seeds)."""
    if len(set(bots)) != len(bots) or len(bots) < 2:
        raise ValueError(_("a round robin needs at least 2 different bots, each named once"))
    return [
        Pairing(a, b, run_games([a, b], 2, games, seed, jobs, seconds, samples, edition))
        for i, a in enumerate(bots)
        for b in bots[i + 1 :]
    ]


PRIOR_TIES = 1.0  # virtual drawn games added to each pairing, so every rating is finite


def bradley_terry(pairings: list[Pairing], iterations: int = 1000) -> dict[str, float]:
    """Bradley-Terry ratings on the Elo scale (400 points = odds of 10 to 1), mean 0.

    The strengths ``p`` maximise the likelihood of the results, where ``a`` beats ``b`` with
    probability ``p[a] / (p[a] + p[b])``; a tie counts half a win to each, and each pairing gets
    :data:`PRIOR_TIES` virtual ties. Found by the MM iteration of Hunter (2004):
    ``p[i] = W[i] / sum_j n[i,j] / (p[i] + p[j])``.
    """
    bots = list(dict.fromkeys(b for p in pairings for b in (p.first, p.second)))
    wins = dict.fromkeys(bots, 0.0)
    played: dict[tuple[str, str], float] = {}
    for pairing in pairings:
        first, second, ties = pairing.tally()
        half = (ties + PRIOR_TIES) / 2
        wins[pairing.first] += first + half
        wins[pairing.second] += second + half
        n = first + second + ties + PRIOR_TIES
        for key in ((pairing.first, pairing.second), (pairing.second, pairing.first)):
            played[key] = played.get(key, 0.0) + n
    strength = dict.fromkeys(bots, 1.0)
    for _step in range(iterations):
        new = {}
        for bot in bots:
            total = sum(
                n / (strength[bot] + strength[other]) for (one, other), n in played.items() if one == bot
            )
            new[bot] = wins[bot] / total if total else 1.0
        centre = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        new = {bot: v / centre for bot, v in new.items()}
        done = max(abs(new[b] - strength[b]) for b in bots) < 1e-12
        strength = new
        if done:
            break
    return {bot: 400 * math.log10(strength[bot]) for bot in bots}


def ladder_report(pairings: list[Pairing]) -> list[str]:
    """The round robin's tables: each pairing's win rate with its Wilson 95% interval, then each
    bot's Bradley-Terry rating, record and time per decision, strongest first."""
    lines = [
        headings(
            (_("pairing"), "<24"),
            (_("games"), ">6"),
            (_("wins"), ">5"),
            (_("losses"), ">6"),
            (_("ties"), ">5"),
            (_("win %"), ">6"),
            (_("95% CI"), ">13"),
        )
    ]
    for pairing in pairings:
        first, second, ties = pairing.tally()
        n = len(pairing.records)
        rate = (first + ties / 2) / n
        low, high = wilson(first + ties / 2, n)
        name = _("{first} v {second}").format(first=pairing.first, second=pairing.second)
        lines.append(
            f"{name:<24} {n:>6} {first:>5} {second:>6} {ties:>5} {100 * rate:>6.1f} "
            f"{100 * low:>6.1f}-{100 * high:<6.1f}"
        )
    ratings = bradley_terry(pairings)
    stats = {s.bot: s for s in summarise([r for p in pairings for r in p.records])}
    lines += [
        "",
        headings(
            (_("bot"), "<10"),
            (_("rating"), ">7"),
            (_("games"), ">6"),
            (_("wins"), ">6"),
            (_("win %"), ">6"),
            (_("ms/decision"), ">12"),
            (_("ms/turn"), ">8"),
        ),
    ]
    for bot in sorted(ratings, key=lambda b: -ratings[b]):
        s = stats[bot]
        ms = 1000 * s.seconds / s.decisions if s.decisions else 0.0
        per_turn = 1000 * s.seconds / s.turns if s.turns else 0.0
        lines.append(
            f"{bot:<10} {ratings[bot]:>7.0f} {s.games:>6} {s.wins:>6} "
            f"{100 * s.win_rate:>6.1f} {ms:>12.2f} {per_turn:>8.1f}"
        )
    return lines


# --- The economy: what each bot did with Machines, Contracts and Orders ------------------------


IDLE_TURNS = 4  # turns in a row that began as the one before: a seat that sat the game out


@dataclass
class EconomyStats:
    """Per bot, over the games it sat in: games where one of its seats placed a Machine (bought
    or received) or was paid by Contracts or Orders, and its winning scores with their parts."""

    bot: str
    games: int = 0
    with_machine: int = 0
    with_contract_money: int = 0
    contract_money: int = 0
    idle: int = 0  # games where one of its seats began IDLE_TURNS turns in a row unchanged
    wins: int = 0
    win_score: int = 0
    win_parts: Counter[str] = field(default_factory=Counter)


def economy(records: list[GameRecord]) -> list[EconomyStats]:
    """Per bot: how often it used Machines and Contracts or Orders, and how it won (a win is a
    game one of its seats ranked first; the winning seat's score and parts are counted)."""
    stats: dict[str, EconomyStats] = {}
    for record in records:
        for bot in dict.fromkeys(s.bot for s in record.seats):
            seats = [s for s in record.seats if s.bot == bot]
            entry = stats.setdefault(bot, EconomyStats(bot))
            entry.games += 1
            entry.with_machine += any(s.machines for s in seats)
            entry.with_contract_money += any(s.contract_money > 0 for s in seats)
            entry.contract_money += sum(s.contract_money for s in seats)
            entry.idle += any(s.idle_turns >= IDLE_TURNS for s in seats)
            winner = next((s for s in seats if s.rank == 1), None)
            if winner is not None:
                entry.wins += 1
                entry.win_score += winner.score
                entry.win_parts.update(winner.parts)
    return list(stats.values())


def economy_report(records: list[GameRecord]) -> list[str]:
    """The economy table: per bot, the share of its games with a Machine and with money from
    Contracts or Orders, that money per game, and its mean winning score with the mean parts."""
    stats = economy(records)
    lines = [
        f"{'bot':<10} {'games':>6} {'machine %':>10} {'contract/order $ %':>19} "
        f"{'$ a game':>9} {'idle %':>7} {'wins':>5} {'win score':>10}"
    ]
    for s in stats:
        n = max(1, s.games)
        mean_win = s.win_score / s.wins if s.wins else 0.0
        lines.append(
            f"{s.bot:<10} {s.games:>6} {100 * s.with_machine / n:>10.1f} "
            f"{100 * s.with_contract_money / n:>19.1f} {s.contract_money / n:>9.1f} "
            f"{100 * s.idle / n:>7.1f} {s.wins:>5} {mean_win:>10.1f}"
        )
    for s in stats:
        if s.wins:
            parts = ", ".join(f"{k} {v / s.wins:.1f}" for k, v in sorted(s.win_parts.items()))
            lines.append(f"{s.bot} winning score parts (mean): {parts}")
    return lines
