"""Keys typed at once are handled in the order typed (issue 37, point 10). A terminal hands the
app a burst of keys together; the App handles priority keys (":") at once and leaves the others
to the focused widget's queue, so "n", escape, ":" and a move typed quickly let the move
overtake the network view: its letters and Enter reached the view as it closed, and the tile
went where the ghost stood. Here the keys are posted to the app together, as a terminal sends
them (Pilot's ``press`` waits after each key, and so never saw it)."""

from __future__ import annotations

import pytest
from textual import events
from textual.keys import _character_to_key

from pipeline_tui.engine.moves import format_move, parse_move
from pipeline_tui.i18n import set_language
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.table_screen import TableScreen

from tests.ui.pilot import settled
from tests.ui.test_ghost_and_enter import tile_in_hand

NARROW = (80, 24)
NAMED = {"escape": "\x1b", "enter": "\r"}


def burst(app, keys: list[str]) -> None:
    """Post ``keys`` to the app together, as a terminal's driver does with fast typing."""
    for key in keys:
        char = NAMED.get(key, key)
        app.post_message(events.Key(key if key in NAMED else _character_to_key(char), char))


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_move_typed_at_once_after_the_network_view_is_the_one_played(tmp_path, language):
    set_language(language)
    try:
        app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
        async with app.run_test(size=NARROW) as pilot:
            screen, game = app.screen, app.screen.game
            await tile_in_hand(pilot)
            await settled(pilot)
            ghost = f"place {screen.ghost.x},{screen.ghost.y} r{screen.ghost.rot}"
            wanted = next(
                text
                for text in map(format_move, game.legal_moves())
                if text.startswith("place ") and text != ghost
            )
            burst(app, ["n", "escape", ":", *wanted, "enter"])
            await settled(pilot)
            await settled(pilot)
            assert isinstance(app.screen, TableScreen)
            assert format_move(game.moves[-1]) == wanted  # not the ghost's place
    finally:
        set_language("en")


async def test_n_typed_in_the_prompt_is_a_letter_of_the_move(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        game = app.screen.game
        await tile_in_hand(pilot)
        await settled(pilot)
        prompt = app.screen.query_one("#prompt")
        burst(app, [":", *"done"])  # a word with an n, typed fast
        await settled(pilot)
        assert isinstance(app.screen, TableScreen) and prompt.value == "done"
        assert game.state.turn.hand_tile >= 0


@pytest.mark.parametrize("first", ["escape", "f2", "f3", "f5", "h"])
async def test_a_move_typed_at_once_after_a_key_that_moves_the_focus_is_played(tmp_path, first):
    """Escape, ":act crude", Enter typed at once played the move list's "pass": the escape ran
    after the ":" and took the focus back to the list, where the Enter landed."""
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen, game = app.screen, app.screen.game
        for _ in range(10):
            assert screen.play(parse_move("start-tank C"))
        await settled(pilot)
        count = len(game.moves)
        burst(app, [first, ":", *"act crude", "enter"])
        await settled(pilot)
        await settled(pilot)
        assert [format_move(m) for m in game.moves[count:]] == ["act crude"]


async def test_digits_and_letters_typed_in_the_prompt_stay_text(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        burst(app, [":", *"h n 0 1 2"])
        await settled(pilot)
        assert app.screen.query_one("#prompt").value == "h n 0 1 2"
        assert app.screen.seat_shown is None and not app.screen.advising
