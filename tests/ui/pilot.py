"""Shared helpers for driving the app in pilot tests: the move list, the prompt, the hint."""

from __future__ import annotations

import contextlib

from textual.widgets import Input

from pipeline_tui.engine.moves import format_move
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.table_screen import TableScreen
from pipeline_tui.ui.widgets import MoveList, TextPanel


async def settled(pilot) -> None:
    """Until the screen has drawn all it was asked to draw so far (events, not time): a
    callback after its next frame runs once the callbacks queued before it have run, and a
    second one once what those changed has been drawn too."""
    await pilot.pause()
    for _ in range(2):
        await pilot.app.screen.wait_for_refresh()


def hint(app) -> str:
    return str(app.screen.query_one("#hint", TextPanel).render())


async def choose(pilot, text: str) -> None:
    """Pick the move written ``text`` in the move list with the keyboard."""
    screen = pilot.app.screen
    option_list = screen.query_one("#moves", MoveList)
    option_list.focus()
    wanted = [format_move(m) for m in screen.shown_moves].index(text)
    index = next(
        i
        for i in range(option_list.option_count)
        if option_list.get_option_at_index(i).id == f"m{screen.listing}-{wanted}"
    )
    option_list.highlighted = index
    await pilot.press("enter")
    await pilot.pause()


async def type_move(pilot, text: str, keys: bool = False) -> None:
    """Focus the prompt with ':' and enter ``text`` (key by key when ``keys``)."""
    await pilot.press("colon")
    prompt = pilot.app.screen.query_one("#prompt", Input)
    assert pilot.app.focused is prompt
    if keys:
        prompt.value = ""
        await pilot.press(*text)
    else:
        prompt.value = text
    await pilot.press("enter")
    await pilot.pause()


@contextlib.asynccontextmanager
async def table_for(game, saves, size):
    """A running app showing ``game`` (as a test set it up) at a TableScreen: (app, pilot)."""
    app = PipelineApp(mode="title", saves_dir=saves)
    async with app.run_test(size=size) as pilot:
        app.push_screen(TableScreen(game, saves))
        await pilot.pause()
        yield app, pilot
