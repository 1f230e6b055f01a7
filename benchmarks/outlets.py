"""What the expert could put on Contracts and Orders, Year by Year (``docs/bots.md``,
"Contracts on purpose").

``python benchmarks/outlets.py [--root PATH] [--seed S] [--games N] [--samples K]`` plays N
2-player games of the expert against the heuristic with the printed components from seeds S,
S+1, ... (the expert in seat 0 in even games, seat 1 in odd ones, as ``pipeline-tui arena
--bots expert,heuristic`` seats them; each bot seeded with the game's seed, the expert playing
``samples`` rounds a turn), importing the package from ``--root`` (default: this checkout).

At the start of each of the expert's turns it counts, per Year: the turns; the turns with a
Contract on the display whose every need one of the expert's Pipelines refines Crude to (that
colour, that grade or better), and the same for an Order; the Crude and the refined barrels it
holds. It prints a line per game (the result and the Contract or Order money, counted as the
arena counts it) and the totals per Year.
"""

from __future__ import annotations

from collections import Counter

import duel


def main() -> None:
    args = duel.arguments(__doc__ or "", games=20)
    from pipeline_tui.ai.expert import _reaches as reaches
    from pipeline_tui.data import components as C
    from pipeline_tui.engine import Game, Stage

    def fed(rows: list[list[int]], reach: list[int]) -> bool:
        """Whether a tile on these display rows has every need within ``reach``."""
        return any(
            all(reach[colour] >= grade for colour, grade in C.contract_tile(tile).needs)
            for row in rows
            for tile in row
            if tile >= 0
        )

    years = len(C.ROUNDS_PER_YEAR)
    totals: Counter[str] = Counter()
    with_money = 0
    for index in range(args.games):
        counts: Counter[str] = Counter()
        seen: set[tuple[int, int]] = set()  # (Year, Round): a turn's first decision only

        def look(game: Game, seat: int) -> None:
            state = game.state
            if game.current_player != seat or state.turn.stage != Stage.WORK:
                return
            if (state.year, state.round) in seen:
                return
            seen.add((state.year, state.round))
            reach, oil, year = reaches(state, seat), state.players[seat].oil, state.year
            counts[f"turns {year}"] += 1
            counts[f"contract {year}"] += fed(state.contract_rows, reach)
            counts[f"order {year}"] += fed(state.order_rows, reach)
            counts[f"crude {year}"] += sum(oil[0])
            counts[f"refined {year}"] += sum(sum(oil[grade]) for grade in range(1, 4))

        game, seat, money = duel.play(args, index, before=look)
        _won, outcome = duel.result(game, seat)
        with_money += money > 0
        totals.update(counts)
        parts = " | ".join(
            f"Y{y}: Contract {counts[f'contract {y}']}/{counts[f'turns {y}']}, Order {counts[f'order {y}']}"
            for y in range(1, years + 1)
        )
        print(f"{args.seed + index} {outcome}, C/O ${money} | {parts}", flush=True)
    print()
    print(f"Contract or Order money in {with_money} of {args.games} games")
    print("Year | turns | a Contract its Pipelines feed | an Order | Crude held a turn | refined held a turn")
    for y in range(1, years + 1):
        turns = max(1, totals[f"turns {y}"])
        print(
            f"{y} | {totals[f'turns {y}']} | {totals[f'contract {y}']} | {totals[f'order {y}']}"
            f" | {totals[f'crude {y}'] / turns:.2f} | {totals[f'refined {y}'] / turns:.2f}"
        )


if __name__ == "__main__":
    main()
