"""Autosaves at the table belong to one line of play: a game loaded from a save, or a new game
with a seed already played, never writes an older state over a newer autosave."""

from __future__ import annotations

from textual.widgets import Input

from pipeline_tui import storage
from pipeline_tui.engine.moves import format_move
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.table_screen import TableScreen

from tests.ui.pilot import choose

NARROW = (80, 24)


async def play_first(pilot, count: int) -> None:
    """Play the first legal move ``count`` times from the move list."""
    for _ in range(count):
        await choose(pilot, format_move(pilot.app.screen.shown_moves[0]))


async def test_loading_an_earlier_save_and_quitting_keeps_the_longer_autosave(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await play_first(pilot, 5)
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.screen.query_one("#save-name", Input).value = "snap"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        await play_first(pilot, 3)
        await pilot.press("ctrl+q")
        await pilot.pause()
    auto = tmp_path / f"{storage.AUTOSAVE_PREFIX}7.json"
    assert len(storage.load_game(auto).moves) == 8
    app = PipelineApp(mode="load", file=tmp_path / "snap.json", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        assert isinstance(app.screen, TableScreen)
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert len(storage.load_game(auto).moves) == 8
    assert len(storage.load_game(tmp_path / "snap.json").moves) == 5
    assert len(storage.load_game(tmp_path / f"{storage.AUTOSAVE_PREFIX}7-2.json").moves) == 5


async def test_a_new_game_on_a_played_seed_autosaves_beside_it_and_says_so(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await play_first(pilot, 4)
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await play_first(pilot, 1)
        notices = [n.message for n in app._notifications]
        assert any("autosave-7.json holds another game" in n and "autosave-7-2.json" in n for n in notices), (
            notices
        )
        await play_first(pilot, 1)
    assert len(storage.load_game(tmp_path / f"{storage.AUTOSAVE_PREFIX}7.json").moves) == 4
    assert len(storage.load_game(tmp_path / f"{storage.AUTOSAVE_PREFIX}7-2.json").moves) == 2
