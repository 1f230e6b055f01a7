"""The table stays cheap to redraw (issue 3's keypress target, issue 5's 200 ms to every seat):
the Footer is rebuilt only when the keys it shows change, the Pipe Network writes its own keys
on its border, the move log renders only the lines in sight, and a move lays the screen out
again only when something changes size."""

from __future__ import annotations

import inspect
from pathlib import Path

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.css.stylesheet import Stylesheet
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets._footer import FooterKey

from pipeline_tui.engine.moves import format_move
from pipeline_tui.net.protocol import Joined, SeatInfo
from pipeline_tui.net.remote import RemoteGame
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.lobby import SharedApp
from pipeline_tui.ui.seats import SharedSeat
from pipeline_tui.ui.network_panel import GROWTH, NetworkGrid, NetworkPanel
from pipeline_tui.ui.table_screen import TableScreen
from pipeline_tui.ui.widgets import MoveList, MoveLog, MovePrompt, SteadyFooter, TextPanel

from tests.helpers import build, new_game, setup_player, straight_row
from tests.ui.pilot import settled, table_for
from tests.ui.test_table import NARROW, WIDE, choose, new_app, place_starting_tanks


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


def shown(app: App) -> list[str]:
    return [k.description for k in keys(app) if k.display]


async def test_footer_rebuilds_for_a_new_key_and_hides_one_that_goes():
    app = FooterApp()
    async with app.run_test() as pilot:
        app.query_one("#one").focus()
        await pilot.pause()
        app.query_one("#three").focus()
        await pilot.pause()
        assert sorted(shown(app)) == ["Bell", "Shown key", "palette"]
        built = keys(app)
        app.query_one("#two").focus()
        await pilot.pause()
        assert shown(app) == ["Bell", "palette"]
        assert keys(app) == built  # hidden, not rebuilt
        app.query_one("#three").focus()
        await pilot.pause()
        assert sorted(shown(app)) == ["Bell", "Shown key", "palette"]
        assert keys(app) == built


async def test_typing_a_move_dims_the_board_keys_without_rebuilding_the_footer(tmp_path):
    """The prompt takes digits as text, so "1-4 Boards" is disabled while it has the focus and
    enabled again after; the footer dims and brightens that key in place, its keys not made
    anew nor moved (two rebuilds per move typed at a shared table's seat, issue 38)."""
    app = new_app(tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        await place_starting_tanks(pilot)
        before = keys(app)
        places = [k.region for k in before]
        boards = next(k for k in before if k.description == "Boards")
        assert not boards.has_class("-disabled")
        await pilot.press("colon", "a", "1")
        await pilot.pause()
        assert isinstance(app.focused, MovePrompt) and app.focused.value == "a1"
        assert boards.has_class("-disabled") and boards.display
        assert keys(app) == before and [k.region for k in before] == places
        assert not any(k.has_class("-disabled") for k in before if k is not boards)
        await pilot.press("escape")
        await pilot.pause()
        assert not boards.has_class("-disabled")
        assert keys(app) == before and [k.region for k in before] == places


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


class PanelApp(App):
    CSS = "#box { width: 20; height: auto; } TextPanel { height: auto; }"

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield TextPanel()


async def test_a_text_panel_lays_the_screen_out_only_when_its_height_changes(layouts):
    app = PanelApp()
    async with app.run_test(size=(40, 10)) as pilot:
        panel = app.query_one(TextPanel)
        assert panel.show(Text("one"))
        await pilot.pause()
        assert panel.size.height == 1
        assert not panel.show(Text("one"))  # the same text: nothing to do
        layouts.clear()
        assert panel.show(Text("two, as high"))
        await pilot.pause()
        assert not layouts and "two, as high" in str(panel.render())
        panel.show(Text("three\nfour"))
        await pilot.pause()
        assert layouts and panel.size.height == 2
        layouts.clear()
        panel.show(Text("a line of thirty characters..."))  # wraps at 20: still two lines
        await pilot.pause()
        assert not layouts and panel.size.height == 2
        panel.show(Text("five"))
        await pilot.pause()
        assert layouts and panel.size.height == 1


class MinHeightApp(App):
    CSS = "TextPanel { height: auto; min-height: 3; max-height: 4; border: round red; }"

    def compose(self) -> ComposeResult:
        yield TextPanel()


async def test_a_text_panel_held_by_its_minimum_height_needs_no_layout(layouts):
    """With a border, 1 line of text is 3 high, as its minimum; so is no line at all."""
    app = MinHeightApp()
    async with app.run_test(size=(40, 10)) as pilot:
        panel = app.query_one(TextPanel)
        panel.show(Text("one"))
        await pilot.pause()
        layouts.clear()
        for text, laid_out, height in (
            ("", False, 3),
            ("one", False, 3),
            ("one\ntwo", True, 4),
            ("1\n2\n3", False, 4),
            ("one", True, 3),
        ):
            panel.show(Text(text))
            await pilot.pause()
            assert (bool(layouts), panel.outer_size.height) == (laid_out, height), text
            assert str(panel.render()) == text
            layouts.clear()


async def test_a_text_panel_redraws_only_the_lines_that_changed(monkeypatch, layouts):
    app = PanelApp()
    async with app.run_test(size=(40, 10)) as pilot:
        panel = app.query_one(TextPanel)
        panel.show(Text("Money $25\nOil 2\nTanks 3"))
        await pilot.pause()
        drawn: list[int] = []
        real = TextPanel.render_line
        monkeypatch.setattr(TextPanel, "render_line", lambda self, y: (drawn.append(y), real(self, y))[1])
        layouts.clear()
        kept = dict(panel._strips)
        panel.show(Text("Money $15\nOil 2\nTanks 3"))
        await pilot.pause()
        assert drawn == [0] and not layouts
        assert panel._strips[1] is kept[1] and panel._strips[2] is kept[2]
        assert panel.render_line(0).text.startswith("Money $15")
        drawn.clear()
        panel.show(Text("Money $15\nOil 2\nTanks 3\nPipes 1"))  # one line more: laid out
        await pilot.pause()
        assert layouts and panel.size.height == 4 and sorted(set(drawn)) == [0, 1, 2, 3]


class WrapApp(App):
    CSS = "Vertical { width: 20; height: auto; } TextPanel, Static { height: auto; }"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield TextPanel()
            yield Static(id="static")


async def test_a_text_panel_wraps_its_lines_as_a_static_does():
    app = WrapApp()
    async with app.run_test(size=(40, 20)) as pilot:
        text = Text("Pipe tile in hand at 0,0 r0\nNot here: the tile must touch your network.\n")
        text.append("Arrows move, r turns, enter places.", style="dim")
        app.query_one(TextPanel).show(text)
        app.query_one(Static).update(text)
        await pilot.pause()
        panel, static = app.query_one(TextPanel), app.query_one(Static)
        assert panel.size.height == static.size.height == 7
        ours = [panel.render_line(y).text.rstrip() for y in range(panel.size.height)]
        theirs = [static.render_line(y).text.rstrip() for y in range(static.size.height)]
        assert ours == theirs


class PromptApp(App):
    CSS = "MovePrompt { width: 12; height: 3; }"

    def compose(self) -> ComposeResult:
        yield MovePrompt()
        yield Static("below", id="below")


async def test_typing_in_the_move_prompt_does_not_lay_the_screen_out(layouts):
    app = PromptApp()
    async with app.run_test(size=(40, 10)) as pilot:
        prompt = app.query_one(MovePrompt)
        prompt.focus()
        await pilot.pause()
        layouts.clear()
        await pilot.press(*"contract CH.3 deferred")
        await pilot.pause()
        assert prompt.value == "contract CH.3 deferred" and not layouts
        assert prompt.scroll_x > 0  # the text is wider than the prompt: the cursor stays in sight
        prompt.value = ""
        await pilot.pause()
        assert not layouts and prompt.scroll_x == 0
        prompt.display = False  # a real change of size still lays the screen out
        await pilot.pause()
        assert layouts and app.query_one("#below").region.y == 0


async def test_a_longer_move_log_does_not_lay_the_screen_out(layouts):
    app = LogApp()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(MoveLog)
        lines = [Text(f"{i:>4} move {i}") for i in range(1, 31)]
        log.set_lines(lines[:5])  # fits: no scrollbar yet
        await pilot.pause()
        assert not log.show_vertical_scrollbar
        log.set_lines(lines[:20])  # the scrollbar comes: that takes a layout
        await pilot.pause()
        assert log.show_vertical_scrollbar and log.scroll_y == log.max_scroll_y > 0
        layouts.clear()
        for count in range(21, 31):
            log.set_lines(lines[:count])
            await pilot.pause()
            assert log.scroll_y == log.max_scroll_y == count - log.scrollable_content_region.height
            assert log.vertical_scrollbar.window_virtual_size == count
        assert not layouts


async def test_a_network_in_its_panel_lays_out_only_when_it_outgrows_it(tmp_path, layouts):
    game = new_game()
    player = setup_player(game, tiles=build(*straight_row("O", 1)))
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        app.push_screen(TableScreen(game, tmp_path))
        await pilot.press("f4")
        await pilot.pause()
        panel = app.screen.query_one(NetworkPanel)
        grid = app.screen.query_one("#net-grid", NetworkGrid)
        view = panel.scrollable_content_region
        assert grid.size == view.size  # a small network: the grid fills the panel
        layouts.clear()
        player.tiles = build(*straight_row("O", 2))  # bigger, still inside the panel
        panel.show(player, None, None, game.state)
        await pilot.pause()
        assert not layouts and "─" in str(grid.render())
        player.tiles = build(*straight_row("*", 12))  # wider than the panel: it scrolls
        panel.show(player, None, None, game.state)
        await pilot.pause()
        assert layouts and grid.size.width == panel.grid.width + GROWTH[0] > view.width
        assert panel.max_scroll_x > 0
        wide = grid.size
        await pilot.pause(0.1)  # the new scrollbar's styles settle
        layouts.clear()
        player.tiles = build(*straight_row("*", 13))  # a cell wider: inside the room it was given
        panel.show(player, None, None, game.state)
        await pilot.pause()
        assert not layouts and grid.size == wide and panel.grid.width > view.width
        assert grid.render().plain.split("\n")[0].rstrip().endswith(str(panel.grid.max_x))
        await pilot.pause(0.1)  # the new scrollbar's styles settle
        layouts.clear()
        player.tiles = build(*straight_row("O", 2))  # back to a smaller one: the grid keeps its size
        panel.show(player, None, None, game.state)
        await pilot.pause()
        assert not layouts and grid.size == wide and panel.max_scroll_x > 0
        lines = grid.render().plain.split("\n")  # the smaller network, blank to the largest's size
        assert (len(lines[0]), len(lines)) == panel.floor and panel.floor[0] == wide.width
        assert panel.grid.width < wide.width


async def test_the_network_grid_redraws_only_the_rows_that_changed(tmp_path, monkeypatch):
    game = new_game()
    player = setup_player(game, tiles=build(*straight_row("O", 1), *straight_row("T", 1, y=3)))
    async with table_for(game, tmp_path, WIDE) as (app, pilot):
        panel = app.screen.query_one(NetworkPanel)
        grid = app.screen.query_one("#net-grid", NetworkGrid)
        drawn: list[int] = []
        real = NetworkGrid.render_line
        monkeypatch.setattr(NetworkGrid, "render_line", lambda self, y: (drawn.append(y), real(self, y))[1])
        before = grid.render().plain.split("\n")
        player.tiles = build(
            *straight_row("O", 1), *straight_row("T", 1, y=3), *straight_row("S", 1, y=1)
        )  # a tile inside the same bounds
        panel.show(player, None, None, game.state)
        await pilot.pause()
        after = grid.render().plain.split("\n")
        changed = {y for y, (was, now) in enumerate(zip(before, after)) if was != now}
        assert changed and len(after) == len(before)
        assert set(drawn) == changed and len(changed) < len(after) // 2  # the other rows stay


async def test_the_pipelines_list_is_filled_when_it_is_shown(tmp_path):
    """A hidden list is not refilled on every change (that laid the screen out for nothing)."""
    game = new_game()
    player = setup_player(game, tiles=build(*straight_row("O", 3)))
    async with table_for(game, tmp_path, NARROW) as (app, pilot):
        panel = app.screen.query_one(NetworkPanel)
        pipelines = app.screen.query_one("#pipelines", OptionList)
        assert pipelines.option_count == 0  # hidden: not filled yet
        await pilot.press("f4", "v")
        await pilot.pause()
        first = [str(pipelines.get_option_at_index(i).prompt) for i in range(pipelines.option_count)]
        assert first[0].startswith("O  6 seg")
        await pilot.press("v")
        player.tiles = build(*straight_row("O", 2))
        panel.show(player, None, None, game.state)
        await pilot.pause()
        assert str(pipelines.get_option_at_index(0).prompt) == first[0]  # hidden: left as it was
        await pilot.press("v")
        await pilot.pause()
        assert str(pipelines.get_option_at_index(0).prompt).startswith("O  4 seg")


async def test_a_view_switch_restyles_and_repaints_only_the_views_whose_focus_changes(tmp_path, monkeypatch):
    """Textual restyled a focused widget with all its children and repainted it whole: F2 to
    the Table restyled its dozen panels and repainted 82 x 46 cells whose look had not changed
    (``StyledFocus``). Showing another board leaves the log alone."""
    app = new_app(tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        await place_starting_tanks(pilot)
        await settled(pilot)
        restyled: set[str | None] = set()
        repainted: set[str | None] = set()
        real_apply, real_refresh = Stylesheet.apply, Screen._compositor_refresh

        def apply(stylesheet, node, **kwargs):
            if isinstance(node, Widget):
                restyled.add(node.id)
            return real_apply(stylesheet, node, **kwargs)

        def compositor_refresh(screen):
            repainted.update(widget.id for widget in screen._dirty_widgets)
            return real_refresh(screen)

        monkeypatch.setattr(Stylesheet, "apply", apply)
        monkeypatch.setattr(Screen, "_compositor_refresh", compositor_refresh)
        expected = {  # key: (restyled, repainted), from the move list
            "f3": ({"moves", "board-view"}, {"moves", "board-view"}),
            "f2": ({"board-view", "table-view"}, {"board-view"}),  # the Table has no focus border
            "f4": ({"table-view", "network-view"}, {"network-view"}),
            "f5": ({"network-view", "log-view"}, {"network-view", "log-view"}),
            "escape": ({"log-view", "moves"}, {"log-view", "moves"}),
        }
        other = "2" if app.screen.shown_seat == 0 else "1"  # another player's board
        expected[other] = (set(), {"board", "board-view", "network-view"})
        for key, (styled, painted) in expected.items():
            restyled.clear()
            repainted.clear()
            await pilot.press(key)
            await settled(pilot)
            # (None: the scrollbars of the widgets named)
            assert (restyled - {None}, repainted - {None}) == (styled, painted), key


async def test_the_move_list_shows_its_focus_by_redrawing_only_the_highlighted_entry(tmp_path, monkeypatch):
    """Focus shows in the highlighted entry's colours alone; Textual repainted the whole list
    when it took or lost focus, the slowest part of F3 and escape (docs/benchmarks.md)."""
    app = new_app(tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        await place_starting_tanks(pilot)
        await settled(pilot)
        moves = app.screen.query_one("#moves", MoveList)
        assert moves.has_focus and moves.highlighted is not None
        first = moves._first_row[moves.highlighted] - moves.scroll_offset.y
        rows = set(range(first, first + len(moves._lines_of(moves.highlighted))))
        focused = moves.render_line(first)
        drawn: list[int] = []
        real = MoveList.render_line

        def render_line(self, y):
            drawn.append(y)
            return real(self, y)

        monkeypatch.setattr(MoveList, "render_line", render_line)
        await pilot.press("f3")
        await settled(pilot)
        assert not moves.has_focus
        assert set(drawn) == rows
        blurred = real(moves, first)
        assert blurred.text == focused.text and blurred != focused  # the same words, other colours
        drawn.clear()
        await pilot.press("escape")
        await settled(pilot)
        assert moves.has_focus and set(drawn) == rows and real(moves, first) == focused


class TallPanelApp(App):
    CSS = "TextPanel { width: 100%; height: 6; }"

    def compose(self) -> ComposeResult:
        yield TextPanel()


async def test_the_lines_below_a_panels_text_follow_its_width():
    """The blank line below the text is made once, and made again at a new width."""
    app = TallPanelApp()
    async with app.run_test(size=(40, 10)) as pilot:
        panel = app.query_one(TextPanel)
        panel.show(Text("two\nlines"))
        await pilot.pause()
        assert panel.render_line(4) is panel.render_line(5)
        assert panel.render_line(5).cell_length == 40
        await pilot.resize_terminal(30, 10)
        await pilot.pause()
        assert panel.render_line(5).cell_length == 30


class HiddenApp(App):
    CSS = "#box { width: 20; height: auto; } #box.-hidden { display: none; } TextPanel { height: auto; }"

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield TextPanel()
            yield MoveLog()


async def test_a_panel_out_of_sight_lays_nothing_out_and_shows_its_latest_text(layouts):
    """A panel in a view not shown (the board on an 80-column table) asks for no layout, and
    its view, once shown, draws the text it was given last at its height."""
    app = HiddenApp()
    async with app.run_test(size=(40, 10)) as pilot:
        box, panel = app.query_one("#box"), app.query_one(TextPanel)
        panel.show(Text("Money $25"))
        await pilot.pause()
        box.add_class("-hidden")
        await pilot.pause()
        layouts.clear()
        assert panel.show(Text("Money $15\nOil 2\nTanks 3"))
        await pilot.pause()
        assert not layouts
        box.remove_class("-hidden")
        await pilot.pause()
        assert panel.size.height == 3
        assert [panel.render_line(y).text.rstrip() for y in range(3)] == ["Money $15", "Oil 2", "Tanks 3"]
        assert "Tanks 3" in "".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_a_move_log_out_of_sight_is_drawn_as_it_is_shown(monkeypatch):
    """Lines set while the log is out of sight touch neither its scrollbars nor the screen
    (their repaints made each frame map every widget again); ``catch_up`` sizes and scrolls it."""
    app = HiddenApp()
    async with app.run_test(size=(40, 10)) as pilot:
        box, log = app.query_one("#box"), app.query_one(MoveLog)
        lines = [Text(f"{i:>4} move {i}") for i in range(1, 31)]
        log.set_lines(lines[:20])
        await pilot.pause()
        box.add_class("-hidden")
        await pilot.pause()
        refreshed: list[Widget] = []
        real = Widget.refresh
        monkeypatch.setattr(
            Widget, "refresh", lambda self, *a, **k: (refreshed.append(self), real(self, *a, **k))[1]
        )
        log.set_lines(lines)
        assert not refreshed and log.virtual_size.height == 20
        log.catch_up()
        box.remove_class("-hidden")
        await pilot.pause()
        assert log.virtual_size.height == 30 and log.scroll_y == log.max_scroll_y > 0
        assert log.render_line(log.scrollable_content_region.height - 1).text.startswith("  30 move 30")


async def test_at_80_columns_a_move_lays_out_no_hidden_view_and_each_view_shows_it(tmp_path, monkeypatch):
    """On a narrow table the board, network and log views are out of sight: a move changing
    the board's height asks for no layout (each one laid every watcher's screen out), and F3 and
    F5 then show the board and the log as they are after the move."""
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        await place_starting_tanks(pilot)
        await settled(pilot)
        board = screen.query_one("#board", TextPanel)
        before = str(board.render())
        hidden = [screen.query_one(f"#{view}") for view in ("board-view", "network-view", "log-view")]
        asked: list[Widget] = []  # widgets in a hidden view that asked for a layout or a repaint
        real = Widget.refresh

        def refresh(self, *regions, layout=False, **kwargs):
            if any(view in self.ancestors_with_self for view in hidden) and (layout or self.display):
                asked.append(self)
            return real(self, *regions, layout=layout, **kwargs)

        monkeypatch.setattr(Widget, "refresh", refresh)
        await choose(pilot, "act crude")
        buy = next(format_move(m) for m in screen.shown_moves if format_move(m).startswith("buy"))
        await choose(pilot, buy)
        await settled(pilot)
        assert str(board.render()) != before  # the board changed...
        assert not asked  # ...out of sight
        monkeypatch.undo()
        await pilot.press("f3")
        await settled(pilot)
        shown = [board.render_line(y).text.rstrip() for y in range(board.size.height)]
        lines = [line.rstrip() for line in str(board.render()).splitlines()]
        assert shown[: len(lines)] == lines and not any(shown[len(lines) :])  # it fills its view
        await pilot.press("f5")
        await settled(pilot)
        log = screen.query_one(MoveLog)
        assert log.scroll_y == log.max_scroll_y
        assert buy in log.lines[-1].plain
        assert buy in log.render_line(len(log.lines) - 1 - int(log.scroll_y)).text


async def test_the_player_board_fills_its_view_so_a_shorter_or_longer_board_lays_nothing_out(
    tmp_path, layouts
):
    """At 160 columns the end of a turn shows the next player's board, often a line or two
    shorter or longer: while it fits its view the screen is not laid out again."""
    async with table_for(new_game(3, seed=7), tmp_path, WIDE) as (app, pilot):
        await settled(pilot)
        board = app.screen.query_one("#board", TextPanel)
        view = app.screen.query_one("#board-view")
        assert board.size.height == view.scrollable_content_region.height
        layouts.clear()
        for text in ("Ada\nMoney $25", "Bo\nMoney $25\nContracts\n CH.1\n CL.2", "Cy"):
            board.show(Text(text))
            await pilot.pause()
            assert not layouts and board.size.height == view.scrollable_content_region.height
        fits = board.size.height
        board.show(Text("\n".join(f"row {i}" for i in range(fits + 3))))  # outgrows it
        await pilot.pause()
        assert layouts and board.size.height == fits + 3 and view.max_scroll_y == 3


class Watching(SharedApp):
    """The session's app watching a table, joined at once without a Hub (as benchmarks/
    bench_redraw.py runs it)."""

    CSS_PATH = str(Path(inspect.getfile(SharedApp)).parent / SharedApp.CSS_PATH)

    def __init__(self, joined: Joined) -> None:
        super().__init__(Path("/nonexistent"), "token")
        self.joined = joined

    async def on_mount(self, event) -> None:
        event.prevent_default()
        self.remote = RemoteGame(None, self.joined)
        self.push_screen(TableScreen(self.remote, policy=SharedSeat()))


async def test_a_watchers_hint_keeps_its_height_for_a_move_of_two_lines(layouts):
    """ "Ada played: contract CL.2 deferred" takes two lines of the hint at 160 columns, as does
    whose turn it is: the watcher's hint is as high as both, so such a move lays no watcher's
    screen out (nor the next, shorter one)."""
    setup = new_game(2, seed=7).setup
    seats = [
        SeatInfo(seat=i, name=p.name, kind="human", holder=f"p{i}", connected=True)
        for i, p in enumerate(setup.players)
    ]
    app = Watching(Joined(table_id="t1", setup=setup, moves=[], seats=seats, seat=None))
    async with app.run_test(size=WIDE) as pilot:
        await settled(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.has_class("-watching")
        hint = screen.query_one("#hint", TextPanel)
        layouts.clear()
        for played in ("contract CL.2 deferred", "done"):
            screen.message = Text(f"{setup.players[0].name} played: {played}")
            screen.refresh_table()
            await settled(pilot)
            assert hint.outer_size.height == 6 and not layouts, played
