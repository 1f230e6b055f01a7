"""One table screen, three seat policies: hot-seat, replay (and shared seat, in
tests/server/test_remote.py). The policy chosen when the screen is made decides what the footer
offers, what undo does and whether the game is saved (pilot tests)."""

from __future__ import annotations

from pipeline_tui import storage
from pipeline_tui.engine.moves import parse_move
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.seats import HotSeat, Replay
from pipeline_tui.ui.table_screen import TableScreen
from tests.ui.pilot import hint

NARROW = (80, 24)


def offered(screen) -> list[str]:
    """The descriptions of the keys the footer shows."""
    return [active.binding.description for active in screen.active_bindings.values() if active.binding.show]


async def test_hot_seat_and_replay_are_one_screen_with_their_own_keys(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW):
        table = app.screen
        assert type(table) is TableScreen and type(table.policy) is HotSeat
        for text in ("start-tank L", "start-tank M"):
            assert table.play(parse_move(text))
        keys = offered(table)
        assert "Undo" in keys and "Redo" in keys and "Type a move" in keys
        assert "Step" not in keys and "Play on" not in keys
    path = tmp_path / f"{storage.AUTOSAVE_PREFIX}7.json"
    written = path.read_bytes()
    app = PipelineApp(mode="replay", file=path, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.pause()
        replay = app.screen
        assert type(replay) is TableScreen and type(replay.policy) is Replay
        keys = offered(replay)
        assert "Step" in keys and "Play on" in keys
        assert "Undo" not in keys and "Redo" not in keys and "Type a move" not in keys
        await pilot.press("end", "ctrl+z", "colon")
        await pilot.pause()
        assert replay.policy.position == 2 and len(replay.game.moves) == 2  # nothing undone
        assert app.focused is not replay.query_one("#prompt")
        assert hint(app).startswith("Replay: move 2 of 2")
    assert path.read_bytes() == written  # a replay writes nothing
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]
