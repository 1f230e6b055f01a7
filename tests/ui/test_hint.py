"""The hint key (issue 16, point 5): h asks the strongest bot what it would play now for the
seat to act; the move and a one-line reason show in the hint panel and nothing is played."""

from __future__ import annotations

import threading

from pipeline_tui import ai
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.state import clone_state

from tests.helpers import new_game
from tests.ui.pilot import hint, table_for


async def test_the_hint_key_shows_a_move_and_a_reason_and_plays_nothing(tmp_path):
    game = new_game(players=2, seed=4)
    game.play("act crude")
    async with table_for(game, tmp_path, (160, 48)) as (app, pilot):
        screen = app.screen
        screen.advisor = ai.make_bot(ai.STRONGEST, samples=2, seed=game.setup.seed)
        expected = ai.make_bot(ai.STRONGEST, samples=2, seed=game.setup.seed).advise(game.clone())
        before, count = clone_state(game.state), len(game.moves)
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = hint(app)
        assert "Hint: " + M.format_move(expected.move) in shown
        assert expected.reason[:30] in shown.replace("\n", " ")
        assert len(game.moves) == count and game.state == before
        game_move = next(m for m in game.legal_moves() if isinstance(m, M.EndAction))
        screen.play(game_move)
        await pilot.pause()
        assert "Hint: " not in hint(app)  # a move clears it


async def test_no_hint_while_a_computer_player_is_to_move(tmp_path):
    game = new_game(players=2, seed=4)
    async with table_for(game, tmp_path, (160, 48)) as (app, pilot):
        app.screen.bot_kind = lambda: "heuristic"  # as if a computer seat were to act here
        await pilot.press("h")
        await pilot.pause()
        assert "a computer player is to move" in hint(app)
        assert not app.screen.advising


async def test_a_hint_for_a_position_already_left_is_not_shown(tmp_path):
    """A move made while the bot thinks: its hint (for the old position) is dropped."""
    game = new_game(players=2, seed=4)
    release = threading.Event()

    class SlowAdvisor:
        def advise(self, table):
            release.wait(10)
            return ai.Advice(move=table.legal_moves()[0], reason="slow")

    async with table_for(game, tmp_path, (160, 48)) as (app, pilot):
        screen = app.screen
        screen.advisor = SlowAdvisor()
        await pilot.press("h")
        await pilot.pause()
        assert "Asking the strongest computer player" in hint(app)
        screen.play(game.legal_moves()[0])
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "Hint: " not in hint(app) and not screen.advising
