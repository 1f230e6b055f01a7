"""The ':' prompt: it opens empty and focused, Escape closes it, a refused move stays for
editing, and after a move the keys go back to the table (pilot tests)."""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.widgets import Input

from pipeline_tui.engine.moves import format_move
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.widgets import MoveList

from tests.ui.pilot import hint

NARROW = (80, 24)


def new_app(tmp_path: Path) -> PipelineApp:
    return PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)


def prompt_of(app) -> Input:
    return app.screen.query_one("#prompt", Input)


async def test_colon_reopens_the_prompt_empty_after_a_refused_move(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("colon", *"buy C-OC#4", "enter")
        assert "Not allowed" in hint(app)
        assert prompt_of(app).value == "buy C-OC#4"  # left for editing
        assert app.focused is prompt_of(app)
        await pilot.press("colon")
        assert prompt_of(app).value == ""
        assert app.focused is prompt_of(app)
        await pilot.press(*"start-tank C", "enter")
        assert [format_move(m) for m in app.screen.game.moves] == ["start-tank C"]


async def test_keys_typed_right_after_colon_land_in_the_prompt(tmp_path):
    """Keys arriving together (a fast typist, tmux, one SSH packet) are queued before ':' is
    handled; the prompt takes the focus at once, so none of them goes to the move list."""
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("down")  # focus on the move list, as after a move chosen there
        assert isinstance(app.focused, MoveList)
        for key, character in [("colon", ":"), ("e", "e"), ("n", "n"), ("d", "d")]:
            app.post_message(events.Key(key, character))
        await pilot.pause()
        assert app.focused is prompt_of(app)
        assert prompt_of(app).value == "end"


async def test_escape_closes_the_prompt_clearing_its_text_and_the_refusal(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("colon", *"start-tank Q", "enter")
        assert "Not allowed" in hint(app)
        await pilot.press("escape")
        assert isinstance(app.focused, MoveList)
        assert prompt_of(app).value == ""
        assert "Not allowed" not in hint(app)


async def test_after_a_move_from_the_prompt_the_number_keys_show_boards(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("colon", *"start-tank C", "enter")
        assert len(app.screen.game.moves) == 1
        assert isinstance(app.focused, MoveList)
        await pilot.press("2")
        assert app.screen.seat_shown == 1
        assert prompt_of(app).value == ""
