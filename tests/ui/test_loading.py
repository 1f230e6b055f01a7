"""Loading (issue 37, point 9): a finished game opens on the board of the person at the table,
not the computer's; the title's "Continue latest autosave (...)" stays on one line."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from textual.widgets import OptionList

from pipeline_tui.engine import Game, SeatKind
from pipeline_tui.i18n import set_language
from pipeline_tui.storage import load_game, save_game
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.title import TitleScreen

from tests.ui.pilot import settled

FIXTURES = Path(__file__).parent.parent / "fixtures" / "saves"


async def test_a_finished_game_opens_on_the_persons_board(tmp_path):
    played = load_game(FIXTURES / "v2-ed2-finished-2p.json")
    assert played.is_over()
    last = played.state.turn.player  # the seat the state names when nobody is to act
    person = 1 - last
    players = tuple(
        msgspec.structs.replace(p, kind=SeatKind.HUMAN if i == person else SeatKind.HEURISTIC)
        for i, p in enumerate(played.setup.players)
    )
    game = Game(msgspec.structs.replace(played.setup, players=players), played.moves)
    path = tmp_path / "finished.json"
    save_game(game, path)
    app = PipelineApp(mode="load", file=path, saves_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await settled(pilot)
        await pilot.press("escape")  # from the scores back to the table
        await settled(pilot)
        name = game.state.players[person].name
        assert app.screen.query_one("#board-view").border_title == f"Player board {person + 1}: {name}"


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_continue_latest_autosave_stays_on_one_line(tmp_path, language):
    set_language(language)
    try:
        (tmp_path / "autosave-2147483647-2.json").write_bytes(
            (FIXTURES / "v2-ed2-midgame-3p.json").read_bytes()
        )
        app = PipelineApp(mode="title", saves_dir=tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await settled(pilot)
            assert isinstance(app.screen, TitleScreen)
            menu = app.screen.query_one("#title-menu", OptionList)
            option = menu.get_option("continue")
            assert "autosave-2147483647-2.json" in str(option.prompt)
            assert len(str(option.prompt)) <= menu.scrollable_content_region.width - 2  # its padding
    finally:
        set_language("en")
