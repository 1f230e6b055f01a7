"""The new-game form by keys alone (issue 14): it opens on you against one computer player,
Enter starts from any field, Tab and Shift+Tab reach every field of the seats in play, space
ticks the box, and a key typed into a name adds to it."""

from __future__ import annotations

from textual.widgets import Checkbox, Input, Select

from pipeline_tui.engine import SeatKind, parse_clock
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.screens import NewGameScreen
from pipeline_tui.ui.table_screen import TableScreen

NARROW = (80, 24)


def box_of(app, widget_id: str) -> str:
    """The box part of a checkbox as drawn (the label after it has no X)."""
    return str(app.screen.query_one(widget_id, Checkbox).render()).split(" First")[0]


async def test_enter_enter_from_the_title_starts_you_against_a_computer(tmp_path):
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        kinds = [p.kind for p in app.screen.game.setup.players]
        assert kinds[0] == SeatKind.HUMAN and len(kinds) == 2
        assert kinds[1] == SeatKind.HEURISTIC  # the "normal" level


async def test_tab_and_shift_tab_reach_every_field_of_the_seats_in_play(tmp_path):
    app = PipelineApp(mode="new", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        assert app.focused is screen.query_one("#players", Select)
        seen = []
        for _ in range(12):
            await pilot.press("tab")
            seen.append(app.focused.id)
        assert seen == [
            "name-0", "kind-0", "colour-0", "name-1", "kind-1", "colour-1",
            "seed", "clock", "on-flag", "first-game", "start", "players",
        ]  # fmt: skip
        await pilot.press("shift+tab")
        assert app.focused.id == "start"


async def test_three_players_bring_the_third_seat_and_enter_starts_from_a_name(tmp_path):
    app = PipelineApp(mode="new", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        assert not screen.query_one("#seat-2").display
        screen.query_one("#players", Select).value = 3
        await pilot.pause()
        assert screen.query_one("#seat-2").display and not screen.query_one("#seat-3").display
        screen.query_one("#name-0", Input).focus()
        await pilot.press("end", "space", "Z")
        assert screen.query_one("#name-0", Input).value == "Ada Z"  # typed, nothing erased
        await pilot.press("enter")
        await pilot.pause()
        setup = app.screen.game.setup
        assert [p.name for p in setup.players] == ["Ada Z", "Bo", "Cy"]


async def test_space_ticks_the_first_game_box_and_shows_x_only_when_ticked(tmp_path):
    app = PipelineApp(mode="new", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        assert isinstance(app.screen, NewGameScreen)
        assert "X" not in box_of(app, "#first-game")
        app.screen.query_one("#first-game", Checkbox).focus()
        await pilot.press("space")
        assert app.screen.query_one("#first-game", Checkbox).value
        assert "X" in box_of(app, "#first-game")
        await pilot.press("space")
        assert "X" not in box_of(app, "#first-game")


async def test_enter_in_an_open_list_picks_from_it(tmp_path):
    app = PipelineApp(mode="new", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        await pilot.press("space")  # opens the Players list
        await pilot.pause()
        assert screen.query_one("#players", Select).expanded
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert screen.query_one("#players", Select).value == 3


async def test_the_clock_field_sets_the_games_clock_and_a_bad_one_is_refused(tmp_path):
    app = PipelineApp(mode="new", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        screen.query_one("#clock", Input).value = "5x"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert "clock 5x: write a time bank" in str(screen.query_one("#new-error").render())
        screen.query_one("#clock", Input).value = "2d/move"
        screen.query_one("#on-flag", Select).value = "end"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.game.setup.clock == parse_clock("2d/move", "end")


async def test_a_new_game_has_no_clock_unless_asked(tmp_path):
    app = PipelineApp(mode="new", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.game.setup.clock is None
        assert not app.screen.query_one("#clock").display
