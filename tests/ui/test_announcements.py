"""The table says when a Round or a Year begins and what the Refresh Phase did, and names the
Machine Phase in the hint, a Penalty marker at a Year's end in the log; F1 says what a Deferred Contract is (pilot tests)."""

from __future__ import annotations

from textual.widgets import Input, Markdown

from pipeline_tui.engine import Game
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.state import HeldContract
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.table_screen import TableScreen
from pipeline_tui.ui.widgets import MoveList, MoveLog

from tests.helpers import new_game, pass_round, pass_turn, play
from tests.ui.pilot import choose, hint, settled, table_for

NARROW = (80, 24)


def notices(app) -> list[str]:
    return [n.message for n in app._notifications]


def to_last_turn_of_round(game) -> None:
    """Everyone passes until the last player of the Round is to end their turn."""
    for _ in range(len(game.state.players) - 1):
        pass_turn(game)
    game.apply(M.Pass())


async def test_a_new_round_is_announced_with_its_turn_order(tmp_path):
    game = new_game()
    to_last_turn_of_round(game)
    async with table_for(game, tmp_path, NARROW) as (app, pilot):
        assert "Machine Phase" in hint(app) and "'end'" in hint(app)
        assert notices(app) == []
        await choose(pilot, "end")
        assert game.state.round == 2
        order = " > ".join(game.state.players[s].name for s in game.state.turn_order)
        assert f"Round 2 of Year 1 begins. Turn order: {order}." in notices(app)


async def test_the_round_notice_leaves_the_move_log_the_move_list_and_the_prompt_in_sight(tmp_path):
    """The notice sat bottom right, over the move log's newest lines, for its 4 s: the next
    move's log line showed on no screen until it went (the 4 s moves of docs/benchmarks.md)."""
    game = new_game()
    to_last_turn_of_round(game)
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=(160, 50), notifications=True) as pilot:
        app.push_screen(TableScreen(game, tmp_path))
        await settled(pilot)
        await choose(pilot, "end")
        await settled(pilot)
        toasts = list(app.screen.query("Toast"))  # Textual names the notice widget so
        assert game.state.round == 2 and len(toasts) == 1
        notice = toasts[0].region
        for widget in (MoveLog, MoveList, Input):
            shown = app.screen.query_one(widget).region
            assert shown.area and not notice.overlaps(shown), widget.__name__


async def test_a_new_year_says_what_the_refresh_phase_did_to_each_player(tmp_path):
    game = new_game()
    for _ in range(7):
        pass_round(game)
    to_last_turn_of_round(game)
    ada, bo = game.state.players
    ada.contracts = [
        HeldContract(tile=3, filled=[-1, -1]),
        HeldContract(tile=21, deferred=True, filled=[-1, -1]),
    ]
    async with table_for(game, tmp_path, NARROW) as (app, pilot):
        await choose(pilot, "end")
        assert game.state.year == 2
        text = next(n.message for n in app._notifications if n.title == "Year 2 begins")
        assert text.startswith("Refresh Phase.")
        assert f"Penalty markers for unfinished Contracts: {ada.name} +1, {bo.name} +0." in text
        assert f"Deferred Contracts now Active: {ada.name} 1." in text
        assert "Contracts slid one column" in text


async def test_undo_back_over_a_new_round_announces_nothing(tmp_path):
    game = new_game()
    to_last_turn_of_round(game)
    async with table_for(game, tmp_path, NARROW) as (app, pilot):
        await choose(pilot, "end")
        count = len(notices(app))
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert game.state.round == 1
        assert len(notices(app)) == count


async def test_help_says_what_deferred_means(tmp_path):
    game = new_game()
    async with table_for(game, tmp_path, NARROW) as (app, pilot):
        await pilot.press("f1")
        await pilot.pause()
        text = app.screen.query_one(Markdown).source
        assert "**Deferred**" in text and "becomes Active" in text


def log_text(app) -> str:
    return "\n".join(line.plain for line in app.screen.query_one(MoveLog).lines)


async def test_a_penalty_at_the_end_of_a_year_has_its_line_in_the_log_and_the_hint(tmp_path):
    game = new_game()
    for _ in range(7):
        pass_round(game)
    late = game.state.players[game.state.turn.player].name
    play(game, "act contracts", "contract CL.1", "done")  # Active, and never fulfilled
    pass_turn(game)
    game.apply(M.Pass())  # the last seat of the last Round of Year 1, to end its turn
    async with table_for(game, tmp_path, NARROW) as (app, pilot):
        await choose(pilot, "end")
        assert game.state.year == 2
        line = f"Refresh Phase, Year 2 begins: Penalty markers for unfinished Contracts: {late} +1."
        assert line in hint(app).replace("\n", " ")
        assert line in " ".join(log_text(app).split())
    loaded = Game(game.setup, game.moves)  # a loaded game says it too, worked out from its log
    async with table_for(loaded, tmp_path, NARROW) as (app, pilot):
        assert line in " ".join(log_text(app).split())
        assert line not in hint(app).replace("\n", " ")  # said once, when it happened


async def test_at_80x24_a_notice_leaves_the_newest_lines_of_the_move_log_in_sight(tmp_path):
    """On a narrow terminal F5 puts the move log in the left area, where a notice at the bottom
    hid its newest lines for its 4 s; with the log shown the notice goes to the top."""
    game = new_game()
    to_last_turn_of_round(game)
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=NARROW, notifications=True) as pilot:
        app.push_screen(TableScreen(game, tmp_path))
        await settled(pilot)
        await pilot.press("f5")
        await settled(pilot)
        await choose(pilot, "end")
        await settled(pilot)
        toasts = list(app.screen.query("Toast"))
        assert game.state.round == 2 and len(toasts) == 1
        notice = toasts[0].region
        log = app.screen.query_one(MoveLog).region
        newest = log.intersection(log.translate((0, log.height - 4)))  # its bottom 4 rows
        assert log.area and notice.overlaps(log.intersection(notice))
        assert not notice.overlaps(newest)
        for widget in (MoveList, Input):
            shown = app.screen.query_one(widget).region
            assert not shown.area or not notice.overlaps(shown), widget.__name__
        await pilot.press("f2")  # the table's view: the notice goes back to the bottom
        await settled(pilot)
        assert not app.screen.query_one("#textual-toastrack").has_class("-top")
