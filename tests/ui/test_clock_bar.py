"""The clock bar at a hot-seat table (issue 40): each seat's time, the running one marked, the
last minute in red; a time that runs out hands the seat to the computer until b takes it back.
A fake clock drives it (no sleeps)."""

from __future__ import annotations

from pipeline_tui.engine import GameTime, parse_clock
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.clock import ClockBar

SIZE = (120, 40)


class FakeWall:
    def __init__(self) -> None:
        self.seconds = 100.0

    def __call__(self) -> float:
        return self.seconds


async def test_the_bar_shows_the_times_marks_the_last_minute_and_a_flag_hands_the_seat_over(
    tmp_path, monkeypatch
):
    monkeypatch.setattr("pipeline_tui.ui.table_screen.BOT_DELAY", 0.001)
    app = PipelineApp(mode="new", players=2, seed=4, saves_dir=tmp_path, clock=parse_clock("2m+0s"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        game = screen.game
        wall = FakeWall()
        game.timer = GameTime(0, wall=wall)
        bar = screen.query_one(ClockBar)
        seat = game.current_player
        name = game.setup.players[seat].name
        bar.tick()
        text = bar.render_clock(game.clock())
        assert bar.display and f"\u25b6 {name} 2:00" in text.plain and "Clock 2m+0s:" in text.plain
        assert not any("red" in str(span.style) for span in text.spans)
        wall.seconds += 61  # 59 s left: the last minute
        text = bar.render_clock(game.clock())
        assert f"{name} 0:59" in text.plain and any("red" in str(span.style) for span in text.spans)
        wall.seconds += 59  # exactly zero
        bar.tick()
        assert screen.clock_away == {seat}
        for _ in range(100):  # the computer plays the rest of the turn, move by move
            if game.current_player != seat:
                break
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert game.current_player != seat and len(game.moves) == 5
        await pilot.press("b")
        assert screen.clock_away == set()


async def test_a_table_without_a_clock_shows_no_bar(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=4, saves_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not app.screen.query_one(ClockBar).display
        assert app.screen.game.timer is None
