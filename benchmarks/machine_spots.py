"""Where a Machine would pay in the expert's networks, by Year, and what one more Machine would
add at the end of a game without one (``docs/bots.md``, "Two tries at the Machine").

``python benchmarks/machine_spots.py [--root PATH] [--seed S] [--games N] [--samples K]`` imports
the package from ``--root`` (default: this checkout; a ``git archive`` copy of another commit
compares the two) and plays N 2-player games of the expert against the heuristic with the printed
components from seeds S, S+1, ..., the expert in seat 0 in even games and seat 1 in odd ones
(as ``pipeline-tui arena --bots expert,heuristic`` seats them), each bot seeded with the game's
seed and playing ``samples`` rounds a turn.

At the end of each Year (after its last move: the Refresh changes no network) and of the game
it measures the expert's network: its Pipelines that refine Crude to Low or better and to Mid
or better, and, for every half of its Pipe tiles not under a Machine, what one Machine Phase
would refine through a Machine placed there, at sale prices, before the $15 it costs
(``expert._run_gain``; no new tile is laid). At the game's end, if the expert owns no Machine,
it also scores the final position again with one more Machine on each half in turn and keeps
the best gain (the Valuation tile and cards, less the Pipelines the Machine cuts).

It prints a line per game (with the expert's result, Machines placed and Contract or Order money,
counted as the arena counts them), then the expert's wins and the games with a Machine and with
Contract or Order money, then per Year: Pipelines to Low and to Mid a game; the games with a
half where a Machine nets at least $5 and at least $10 a Phase (the expert's bar for its first
Machine, ``expert.MACHINE_COMMIT``), and of those ($10) the games without a Machine; the games
owning a Machine. Then the end-of-game gains of the games that ended without a Machine.
"""

from __future__ import annotations

from collections import Counter

import duel


def main() -> None:
    args = duel.arguments(__doc__ or "", games=40)
    from pipeline_tui.ai import expert as X
    from pipeline_tui.data import components as C
    from pipeline_tui.engine import moves as M
    from pipeline_tui.engine import (
        Game,
        State,
        build_map,
        clone_state,
        highest_grade_from_crude,
        network_map,
        score_player,
        tile_cells,
    )

    def halves(state: State, seat: int) -> set[tuple[int, int]]:
        player = state.players[seat]
        cells = {cell for _tile, x, y, rot in player.tiles for cell in tile_cells(x, y, rot)}
        return cells - {(m[0], m[1]) for m in player.machines}

    def shape(state: State, seat: int) -> tuple[int, int, int, int]:
        """(Pipelines to Low or better, to Mid or better, the best one-Machine run gain,
        Machines owned)."""
        player = state.players[seat]
        eng = player.level("ENG")
        pipelines = network_map(player).pipelines
        grades = [highest_grade_from_crude(state, p.colour, p.value(eng)) for p in pipelines]
        best = 0
        for cell in halves(state, seat):
            laid = build_map(list(player.tiles), [*player.machines, cell]).pipelines
            best = max(best, X._run_gain(state, laid, eng))
        low = sum(1 for g in grades if g >= 1)
        mid = sum(1 for g in grades if g >= 2)
        return low, mid, best, len(player.machines)

    def total(state: State, seat: int) -> int:
        return sum(line.amount for line in score_player(state, state.players[seat]))

    def end_gain(state: State, seat: int) -> int:
        """The best score gain of one more Machine at the end (0 if none adds anything)."""
        base, best = total(state, seat), 0
        for cell in halves(state, seat):
            placed = clone_state(state)
            placed.players[seat].machines.append(cell)
            best = max(best, total(placed, seat) - base)
        return best

    run_cost = C.MACHINE_RUN_COST
    years: list[list[tuple[int, int, int, int]]] = [[] for _ in C.ROUNDS_PER_YEAR]
    gains: Counter[int] = Counter()
    wins = with_machine = with_money = 0
    for index in range(args.games):
        ends: list[tuple[int, int, int, int]] = []
        placed = [0]

        def watch(game: Game, seat: int, mover: int, move: M.Move) -> None:
            if mover == seat:
                placed[0] += type(move) is M.PlaceMachine
            if game.state.year != len(ends) + 1:  # the Year's last move: its network, as the Refresh keeps it
                ends.append(shape(game.state, seat))

        game, seat, money = duel.play(args, index, after=watch)
        machines = placed[0]
        ends.append(shape(game.state, seat))
        for n, measured in enumerate(ends):
            years[n].append(measured)
        won, outcome = duel.result(game, seat)
        wins += won
        with_machine += machines > 0
        with_money += money > 0
        line = " | ".join(
            f"Y{n + 1} low {a} mid {b} best {c} machines {d}" for n, (a, b, c, d) in enumerate(ends)
        )
        line += f" | {outcome}, placed {machines}, C/O ${money}"
        if not game.state.players[seat].machines:
            gain = end_gain(game.state, seat)
            gains[gain] += 1
            line += f" | no Machine: one more at the end adds ${gain}"
        print(f"{args.seed + index} {line}", flush=True)

    print()
    print(
        f"expert: {wins} wins of {args.games}, a Machine placed in {with_machine}, "
        f"Contract or Order money in {with_money}"
    )
    print("End of | Low+ a game | Mid+ a game | nets $5 | nets $10 | of those, no Machine | own a Machine")
    for n, rows in enumerate(years):
        five = [r for r in rows if r[2] - run_cost >= 5]
        ten = [r for r in rows if r[2] - run_cost >= 10]
        print(
            f"Year {n + 1} | {sum(r[0] for r in rows) / len(rows):.2f} | {sum(r[1] for r in rows) / len(rows):.2f}"
            f" | {len(five)} | {len(ten)} | {sum(1 for r in ten if not r[3])} | {sum(1 for r in rows if r[3])}"
        )
    ended = sum(gains.values())
    said = ", ".join(f"${gain}: {count}" for gain, count in sorted(gains.items()))
    print(f"{ended} of {args.games} games ended without a Machine; one more at the end adds {said or '-'}")


if __name__ == "__main__":
    main()
