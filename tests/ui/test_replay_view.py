"""The replay viewer names who made each move, keeps its Move log at the replay's position,
and its footer fits 80 columns without cutting a word (pilot tests)."""

from __future__ import annotations

from pathlib import Path

from pipeline_tui.engine.moves import format_move
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.seats import Replay
from pipeline_tui.ui.table_screen import TableScreen
from pipeline_tui.ui.widgets import MoveList, MoveLog

SAVE = Path(__file__).parents[1] / "fixtures" / "saves" / "v1-midgame-3p.json"


async def test_the_replay_list_names_the_players_and_the_log_follows_the_position(tmp_path):
    app = PipelineApp(mode="replay", file=SAVE, saves_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = app.screen
        assert isinstance(screen, TableScreen) and isinstance(screen.policy, Replay)
        game = screen.game
        names = [game.setup.players[seat].name for seat in game.movers()]
        entries = screen.query_one("#moves", MoveList)
        for i in (1, 6, len(game.moves)):
            text = entries.get_option_at_index(i).prompt.plain
            assert text.split() == [str(i), names[i - 1], *format_move(game.moves[i - 1]).split()]
        await pilot.press("right", "right", "right")
        await pilot.pause()
        log = [line.plain for line in screen.query_one(MoveLog).lines]
        assert len(log) == 3
        assert log[-1].split()[:2] == ["3", names[2]]
        await pilot.press("end")
        await pilot.pause()
        lines = [line.plain for line in screen.query_one(MoveLog).lines]
        moves = [line for line in lines if not line.startswith("     ")]  # not a Year's Refresh line
        assert len(moves) == len(game.moves)
        assert any("Refresh Phase, Year 2 begins" in line for line in lines)  # the Years it passed


async def test_the_replay_footer_fits_80_columns(tmp_path):
    app = PipelineApp(mode="replay", file=SAVE, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one("Footer")
        keys = [w for w in footer.query("FooterKey") if w.display]
        right = max(w.region.right for w in keys)
        assert right <= 80
        for key in keys:  # each label drawn whole
            assert key.region.width >= len(key.description) + len(key.key_display) + 1
