"""The move list (widgets.MoveList): what it shows, how it is driven, and what it costs.

It replaces Textual's OptionList for the legal moves and the replay's moves: the same keys and
mouse, but an entry is wrapped and rendered only when it comes into sight, and a new list lays
the screen out only when its scrollbar comes or goes (issue 5: every seat within 200 ms).
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text
from textual.app import App, ComposeResult

from pipeline_tui.ui.widgets import Choice, MoveList


class ListApp(App):
    CSS = "MoveList { width: 24; height: 8; }"

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[tuple[str, str | None, int]] = []

    def compose(self) -> ComposeResult:
        yield MoveList()

    def on_move_list_highlighted(self, event: MoveList.Highlighted) -> None:
        self.messages.append(("highlighted", event.option.id, event.option_index))

    def on_move_list_selected(self, event: MoveList.Selected) -> None:
        self.messages.append(("selected", event.option.id, event.option_index))


def entries(count: int, heading_every: int = 0) -> list[Choice]:
    out = []
    for i in range(count):
        if heading_every and i % heading_every == 0:
            out.append(Choice(Text(f"Group {i}", style="bold underline"), disabled=True))
        prompt = Text(f"place {i},0 r1", style="bold")
        prompt.append("  ")
        prompt.append(f"tile on {i},0, south", style="dim")  # two lines at ListApp's width
        out.append(Choice(prompt, id=f"m{i}"))
    return out


def shown(move_list: MoveList) -> list[str]:
    return [move_list.render_line(y).text.rstrip() for y in range(move_list.size.height)]


def row_of(move_list: MoveList, start: str) -> int:
    """The line in sight that begins with ``start``."""
    return next(y for y, line in enumerate(shown(move_list)) if line.startswith(start))


async def test_each_entry_wraps_to_the_lines_rich_would_give_it():
    app = ListApp()
    async with app.run_test() as pilot:
        move_list = app.query_one(MoveList)
        options = entries(12) + [
            Choice(Text("done"), id="done"),
            Choice(Text("油" * 12), id="wide"),
        ]  # 12 characters, 24 cells
        move_list.set_options(options)
        await pilot.pause()
        width = move_list.scrollable_content_region.width
        console = Console(width=200)
        expected = [line.plain.rstrip() for option in options for line in option.prompt.wrap(console, width)]
        assert move_list.virtual_size.height == len(expected) > len(options)
        for top in range(0, len(expected), move_list.size.height):
            move_list.scroll_to(y=top, animate=False, immediate=True)
            await pilot.pause()
            top = round(move_list.scroll_y)  # the last screenful stops at the end
            sight = expected[top : top + move_list.size.height]
            assert shown(move_list)[: len(sight)] == sight


async def test_only_the_entries_in_sight_are_rendered():
    app = ListApp()
    async with app.run_test() as pilot:
        move_list = app.query_one(MoveList)
        move_list.set_options(entries(80))
        await pilot.pause()
        rendered = {index for index, _line, _kind in move_list._strips}
        assert rendered and max(rendered) < 8  # 8 lines in sight, 2 lines an entry
        assert len(move_list._wrapped) < 8


async def test_keys_skip_the_headings_stop_at_the_ends_and_enter_chooses():
    app = ListApp()
    async with app.run_test() as pilot:
        move_list = app.query_one(MoveList)
        move_list.set_options(entries(6, heading_every=3))  # H m0 m1 m2 H m3 m4 m5
        move_list.focus()
        move_list.highlighted = 1
        await pilot.pause()
        ids = lambda: move_list.get_option_at_index(move_list.highlighted).id  # noqa: E731
        await pilot.press("down", "down", "down")
        assert ids() == "m3"  # the heading between m2 and m3 is passed over
        await pilot.press("up")
        assert ids() == "m2"
        await pilot.press("end")
        assert ids() == "m5"
        await pilot.press("down")
        assert ids() == "m5"  # the last entry stays: no wrap round to the top (issue 37)
        await pilot.press("home", "up")
        assert ids() == "m0"  # nor from the first to the last
        await pilot.press("home", "pagedown")
        assert move_list.highlighted > 1 and not move_list.options[move_list.highlighted].disabled
        app.messages.clear()
        await pilot.press("home", "enter")
        await pilot.pause()
        assert app.messages == [("highlighted", "m0", 1), ("selected", "m0", 1)]


async def test_a_click_chooses_the_entry_and_a_heading_cannot_be_chosen():
    app = ListApp()
    async with app.run_test() as pilot:
        move_list = app.query_one(MoveList)
        move_list.set_options(entries(3, heading_every=3))  # H m0 m1 m2
        await pilot.pause()
        await pilot.click(MoveList, offset=(3, 0))  # the heading
        await pilot.pause()
        assert app.messages == []
        await pilot.click(MoveList, offset=(3, row_of(move_list, "place 1,0")))
        await pilot.pause()
        assert app.messages == [("highlighted", "m1", 2), ("selected", "m1", 2)]


async def test_the_highlight_follows_into_sight_and_a_new_list_starts_at_the_top():
    app = ListApp()
    async with app.run_test() as pilot:
        move_list = app.query_one(MoveList)
        move_list.set_options(entries(30))
        move_list.highlighted = 20
        await pilot.pause()
        assert row_of(move_list, "place 20,0") >= 0
        move_list.set_options(entries(30))
        await pilot.pause()
        assert move_list.scroll_y == 0 and move_list.highlighted is None
        assert move_list.vertical_scrollbar.position == 0  # the scrollbar shows the top too


async def test_a_heading_and_the_highlight_keep_their_styles():
    app = ListApp()
    async with app.run_test() as pilot:
        move_list = app.query_one(MoveList)
        move_list.set_options(entries(2, heading_every=2))  # H m0 m1
        move_list.highlighted = 2
        app.set_focus(None)
        await pilot.pause()
        heading = move_list.render_line(0)
        assert heading.text.startswith("Group 0")
        first = next(iter(heading)).style
        assert first.bold and first.underline  # the heading's own style is kept
        plain = move_list.render_line(row_of(move_list, "place 0,0"))
        lit = move_list.render_line(row_of(move_list, "place 1,0"))
        assert next(iter(plain)).style.bgcolor != next(iter(lit)).style.bgcolor
        move_list.focus()  # the highlight turns to the focused cursor's colours
        await pilot.pause()
        focused = move_list.render_line(row_of(move_list, "place 1,0"))
        assert next(iter(focused)).style.bgcolor != next(iter(lit)).style.bgcolor
        assert lit.cell_length == plain.cell_length == move_list.scrollable_content_region.width


async def test_a_new_list_lays_the_screen_out_only_when_the_scrollbar_comes_or_goes(layouts):
    app = ListApp()
    async with app.run_test() as pilot:
        move_list = app.query_one(MoveList)
        move_list.set_options(entries(2))
        await pilot.pause()
        assert not move_list.show_vertical_scrollbar
        layouts.clear()
        move_list.set_options(entries(3))  # still fits
        move_list.highlighted = 0
        await pilot.pause()
        assert not layouts and not move_list.show_vertical_scrollbar
        move_list.set_options(entries(20))  # the scrollbar comes
        await pilot.pause()
        assert layouts and move_list.show_vertical_scrollbar
        layouts.clear()
        for count in (25, 40, 10):
            move_list.set_options(entries(count))
            await pilot.pause()
            assert move_list.vertical_scrollbar.window_virtual_size == move_list.virtual_size.height
        assert not layouts
        move_list.set_options([])  # the scrollbar goes
        await pilot.pause()
        assert layouts and not move_list.show_vertical_scrollbar
        assert shown(move_list) == [""] * move_list.size.height
