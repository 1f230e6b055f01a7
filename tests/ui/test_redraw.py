"""The table stays cheap to redraw (issue 3's keypress target, issue 5's 200 ms to every seat):
the Footer is rebuilt only when the keys it shows change, the Pipe Network writes its own keys
on its border, and the move log renders only the lines in sight."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from rich.text import Text
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from pipeline_tui.ui.network_panel import NetworkPanel
from pipeline_tui.ui.widgets import MoveLog, SteadyFooter

from tests.ui.test_table import WIDE, choose, new_app, place_starting_tanks


class Plain(Static, can_focus=True):
    BINDINGS = [Binding("x", "noop", "Hidden", show=False)]

    def action_noop(self) -> None:
        pass


class Keyed(Static, can_focus=True):
    BINDINGS = [Binding("k", "noop", "Shown key")]

    def action_noop(self) -> None:
        pass


class FooterApp(App):
    BINDINGS = [Binding("f9", "bell", "Bell")]

    def compose(self) -> ComposeResult:
        yield Plain("one", id="one")
        yield Plain("two", id="two")
        yield Keyed("three", id="three")
        yield SteadyFooter()


def keys(app: App) -> list[FooterKey]:
    return list(app.screen.query(FooterKey))


async def test_footer_keeps_its_keys_while_the_shown_keys_stay_the_same():
    app = FooterApp()
    async with app.run_test() as pilot:
        app.query_one("#one").focus()
        await pilot.pause()
        before = keys(app)
        assert [k.description for k in before] == ["Bell", "palette"]
        app.query_one("#two").focus()
        await pilot.pause()
        assert keys(app) == before  # the very same widgets: no rebuild


async def test_footer_rebuilds_when_the_shown_keys_change():
    app = FooterApp()
    async with app.run_test() as pilot:
        app.query_one("#one").focus()
        await pilot.pause()
        app.query_one("#three").focus()
        await pilot.pause()
        assert sorted(k.description for k in keys(app)) == ["Bell", "Shown key", "palette"]
        app.query_one("#two").focus()
        await pilot.pause()
        assert [k.description for k in keys(app)] == ["Bell", "palette"]


async def test_switching_views_keeps_the_footer_and_the_network_names_its_keys(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        await place_starting_tanks(pilot)
        before = keys(app)
        assert before
        for key in ("f3", "f4", "f5", "f2", "escape"):
            await pilot.press(key)
            await pilot.pause()
            assert keys(app) == before, key
        network = app.screen.query_one(NetworkPanel)
        assert network.border_subtitle == "v pipelines"
        await choose(pilot, "act tanks")
        await choose(pilot, "pipe 1")
        assert app.focused is network
        assert network.border_subtitle == "r rotate · enter place · v pipelines"


class LogApp(App):
    def compose(self) -> ComposeResult:
        yield MoveLog()


async def test_move_log_renders_only_the_lines_in_sight_and_follows_the_end():
    app = LogApp()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(MoveLog)
        lines = [Text(f"{i:>4} move {i}") for i in range(1, 501)]
        log.set_lines(lines)
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y > 0
        shown = {index for index in log._strips}
        # the screenful drawn before the scroll took effect, then the last one: never all 500
        assert shown and max(shown) == 499 and len(shown) <= 20
        kept = dict(log._strips)
        log.set_lines(lines[:-1] + [Text(" 500 undone")])
        await pilot.pause()
        assert all(log._strips.get(i) is strip for i, strip in kept.items() if i < 499)
        assert log.lines[-1].plain == " 500 undone"
