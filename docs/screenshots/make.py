"""Draw the README's screenshots again: ``python docs/screenshots/make.py [DIR]`` (into
``docs/screenshots`` unless a folder is given).

Each picture is Textual's own SVG screenshot of the app, taken through the test pilot on a
game played by two "normal" computer players from a fixed seed, so the same code draws the
same pictures: the table at 160x48, the network view (both zooms) and the scores chart.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from pipeline_tui import ai
from pipeline_tui.engine import Game, GameSetup, PlayerSetup, SeatKind, Stage
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.screens import EndScreen
from pipeline_tui.ui.table_screen import TableScreen

OUT = Path(__file__).parent
SEED = 2026
MOVES = 110  # into Year 2: a network of several tiles, Contracts taken, markets moved


def played_game(moves: int) -> Game:
    """Two heuristic bots from SEED for at least ``moves`` moves, on to the start of a turn (so
    no tile is left in hand, whatever the bots play), then the game handed to two people at the
    table."""
    setup = GameSetup.default(players=2, seed=SEED)
    game = Game(setup)
    bots = [ai.make_bot(SeatKind.HEURISTIC, seed=SEED + seat) for seat in range(2)]
    while not game.is_over() and (len(game.moves) < moves or not _turn_starts(game)):
        game.apply(bots[game.current_player].choose(game))
    people = tuple(PlayerSetup(p.name) for p in setup.players)
    return Game(GameSetup(seed=setup.seed, players=people, edition=setup.edition), game.moves)


def _turn_starts(game: Game) -> bool:
    turn = game.state.turn
    return turn.stage == Stage.WORK and turn.mains == 0 and not turn.action and not turn.secondary


async def shoot(out: Path = OUT) -> list[Path]:
    written: list[Path] = []
    game = played_game(MOVES)
    finished = played_game(10_000)
    with tempfile.TemporaryDirectory() as saves:
        app = PipelineApp(mode="title", saves_dir=saves)
        async with app.run_test(size=(160, 48)) as pilot:
            table = TableScreen(game, None, colours=["red", "blue"])
            app.push_screen(table)
            await pilot.pause(0.5)
            written.append(Path(app.save_screenshot("table-160x48.svg", str(out))))
            await pilot.press("n")
            await pilot.pause(0.3)
            await pilot.press("tab")  # the first Pipeline highlighted, with its value and grade
            await pilot.pause(0.5)
            written.append(Path(app.save_screenshot("network-view-160x48.svg", str(out))))
            await pilot.press("z")
            await pilot.pause(0.5)
            written.append(Path(app.save_screenshot("network-overview-160x48.svg", str(out))))
            await pilot.press("escape")
            app.push_screen(EndScreen(finished, ["red", "blue"]))
            await pilot.pause(0.3)
            await pilot.press("g")
            await pilot.pause(0.5)
            written.append(Path(app.save_screenshot("scores-chart-160x48.svg", str(out))))
    return written


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else OUT
    for path in asyncio.run(shoot(out)):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
