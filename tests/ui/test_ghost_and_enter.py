"""With a Pipe tile in hand, Enter places it where the ghost shows (or says why not), from the
network or from the move list, and the hint names the keys that work where the focus is."""

from __future__ import annotations

from pipeline_tui.engine.moves import parse_move
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.network_panel import NetworkPanel
from pipeline_tui.ui.widgets import MoveList

from tests.ui.pilot import choose, hint

NARROW = (80, 24)


async def tile_in_hand(pilot) -> int:
    for _ in range(10):
        assert pilot.app.screen.play(parse_move("start-tank C"))
    await pilot.pause()
    seat = pilot.app.screen.game.current_player
    await choose(pilot, "act tanks")
    await choose(pilot, "pipe 1")
    return seat


async def test_enter_in_the_move_list_places_where_the_ghost_shows_or_says_why_not(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen, game = app.screen, app.screen.game
        seat = await tile_in_hand(pilot)
        assert isinstance(app.focused, NetworkPanel)
        assert "Arrows move, r turns" in hint(app)
        await pilot.press("right")
        await pilot.pause()
        assert not screen.ghost.legal
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.focused, MoveList)
        assert "Arrows move" not in hint(app)
        assert "F4 to move it" in hint(app)
        await pilot.press("enter")
        await pilot.pause()
        assert game.state.players[seat].tiles == []  # not the list's stale place 0,0
        assert "Not allowed" in hint(app) and "first tile" in hint(app)
        await pilot.press("f4", "left")
        await pilot.pause()
        assert screen.ghost.legal
        spot = (screen.ghost.x, screen.ghost.y, screen.ghost.rot)
        await pilot.press("escape", "enter")
        await pilot.pause()
        assert game.state.players[seat].tiles[0][1:] == spot


async def test_a_tile_taken_from_the_prompt_gives_the_arrows_to_the_ghost(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        for _ in range(10):
            assert screen.play(parse_move("start-tank C"))
        await pilot.press("colon", *"act tanks", "enter")
        await pilot.press("colon", *"pipe 1", "enter")
        await pilot.pause()
        assert screen.ghost is not None
        assert isinstance(app.focused, NetworkPanel)
        assert "Arrows move, r turns" in hint(app)
        x = screen.ghost.x
        await pilot.press("right")
        await pilot.pause()
        assert screen.ghost.x == x + 1
