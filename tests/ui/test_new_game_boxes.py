"""The new-game screen's boxes show X only when ticked, so a seat's state reads without colour."""

from __future__ import annotations

from textual.widgets import Checkbox

from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.screens import NewGameScreen

NARROW = (80, 24)


def box_of(app, widget_id: str) -> str:
    """The box part of a checkbox as drawn (the label after it has no X)."""
    return str(app.screen.query_one(widget_id, Checkbox).render()).split(" Seat")[0]


async def test_a_box_shows_x_only_when_ticked(tmp_path):
    app = PipelineApp(mode="new", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        assert isinstance(app.screen, NewGameScreen)
        assert "X" in box_of(app, "#seat-0")
        assert "X" not in box_of(app, "#seat-2")
        app.screen.query_one("#seat-2", Checkbox).focus()
        await pilot.press("space")
        assert app.screen.query_one("#seat-2", Checkbox).value
        assert "X" in box_of(app, "#seat-2")
        await pilot.press("space")
        assert "X" not in box_of(app, "#seat-2")
        first = str(app.screen.query_one("#first-game", Checkbox).render())
        assert first.startswith("▐ ▌")  # not ticked: an empty box
