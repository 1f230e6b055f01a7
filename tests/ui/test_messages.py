"""What the table says: prices in the move descriptions, the rulebook's names in the header,
each player's own Penalty markers on the score sheet, a refusal cleared once the player moves
on, and a warning before paying to run Machines that would refine nothing (pilot tests)."""

from __future__ import annotations

from textual.widgets import DataTable, Markdown

from pipeline_tui.engine import moves as M
from pipeline_tui.engine.moves import format_move
from pipeline_tui.ui import panels
from pipeline_tui.ui.describe import describe
from pipeline_tui.ui.screens import EndScreen
from pipeline_tui.ui.widgets import MoveList

from tests.helpers import (
    build,
    in_the_machine_phase,
    me,
    new_game,
    play,
    setup_player,
    straight_row,
)
from tests.test_rules_messages import machine_cut_network
from tests.ui.pilot import choose, hint, table_for

NARROW = (80, 24)


def test_descriptions_give_the_prices_the_moves_do_not_name():
    game = new_game()
    state = game.state
    assert describe(M.Government(quadrant=0, space=1), state) == "Buy Government tile 1.2 for $5"
    assert describe(M.RunMachines(), state) == (
        "Pay $15 to run every Pipeline attached to your Machines (Machines II: $5)"
    )
    play(game, "act tanks")
    assert describe(M.BuyPipe(index=0), state) == "Buy shop Pipe tile 1 for $15"
    assert describe(M.Secondary(action="crude"), state) == ("Secondary Action: Crude Market for $10")
    assert describe(M.BuyUpgrade(family="ENG"), state).startswith("Buy an Engineering upgrade")
    assert describe(M.BuyUpgrade(family="HR"), state).startswith("Buy a Human Resources upgrade")
    refine = M.Refine(x=0, y=0, k=0, from_grade=0, to_grade=1)
    assert "needs Refinement Value" in describe(refine, state)
    assert "(cost" not in describe(refine, state)


def test_the_header_names_the_machine_phase_as_the_rulebook_does():
    game = new_game()
    setup_player(game, tiles=build(*straight_row("O", 3)), machines=[(0, 0), (5, 0)], oil={"OC": 1}, money=40)
    play(game, "pass", "machines")
    header = str(panels.status(game.state))
    assert "Machine Phase (running Machines)" in header and "machines_phase" not in header


async def test_the_score_sheet_shows_each_players_own_penalty_markers(tmp_path):
    game = new_game()
    game.state.players[0].penalties = 1
    game.state.players[1].penalties = 2
    async with table_for(game, tmp_path, NARROW) as (app, pilot):
        await pilot.press("f6")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        table = app.screen.query_one("#scores", DataTable)
        rows = [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]
        penalties = next(row for row in rows if row[0] == "Penalties")
        cells = sorted(penalties[1:])
        assert cells == ["1 marker\n-$20", "2 markers\n-$50"], penalties


async def test_a_refusal_leaves_the_hint_once_the_player_moves_on_in_the_list(tmp_path):
    game = new_game()
    async with table_for(game, tmp_path, NARROW) as (app, pilot):
        await pilot.press("colon", *"buy C-OC#1", "enter")
        assert "Not allowed" in hint(app)
        app.screen.query_one("#moves", MoveList).focus()
        await pilot.pause()
        assert "Not allowed" in hint(app)  # a change of focus alone is not moving on
        await pilot.press("down")
        assert "Not allowed" not in hint(app)


async def test_running_machines_that_refine_nothing_asks_first(tmp_path):
    game = in_the_machine_phase(oil={}, money=15)
    async with table_for(game, tmp_path, NARROW) as (app, pilot):
        await choose(pilot, "machines")
        assert me(game).money == 15 and game.moves[-1] == M.Pass()
        assert "Nothing to gain" in hint(app) and "costs $15" in hint(app)
        await choose(pilot, "machines")
        assert me(game).money == 0
        assert format_move(game.moves[-1]) == "machines"


async def test_running_machines_that_can_refine_plays_at_once(tmp_path):
    game = in_the_machine_phase(oil={"OC": 2, "TC": 1}, money=40)
    async with table_for(game, tmp_path, NARROW) as (app, pilot):
        await pilot.press("colon", *"machines", "enter")
        assert me(game).money == 25
        assert "Nothing to gain" not in hint(app)


async def test_a_run_where_every_pipeline_is_connected_to_a_machine_warns_before_the_worker_goes(tmp_path):
    game = machine_cut_network({"OC": 2, "TC": 1})
    async with table_for(game, tmp_path, NARROW) as (app, pilot):
        moves = app.screen.query_one("#moves", MoveList)
        moves.focus()
        wanted = [format_move(m) for m in app.screen.shown_moves].index("run 2,0")
        moves.highlighted = next(
            i
            for i in range(moves.option_count)
            if moves.get_option_at_index(i).id == f"m{app.screen.listing}-{wanted}"
        )
        await pilot.pause()
        assert "Nothing to gain" in hint(app)  # said while it is only highlighted
        count = len(game.moves)
        await choose(pilot, "run 2,0")
        assert len(game.moves) == count  # not played: the worker stays
        text = " ".join(hint(app).split())
        assert "connected to a Machine" in text and "Choose it again" in text
        await choose(pilot, "run 2,0")
        assert format_move(game.moves[-1]) == "run 2,0"


async def test_without_the_money_the_machine_phase_says_why_machines_is_not_offered(tmp_path):
    game = in_the_machine_phase(oil={"OC": 2}, money=3)
    async with table_for(game, tmp_path, NARROW) as (app, pilot):
        assert "machines" not in [format_move(m) for m in app.screen.shown_moves]
        text = " ".join(hint(app).split())
        assert "Machine Phase: running your Machines costs $15; you have $3." in text


async def test_the_machine_phase_names_its_price_where_machines_is_offered_and_in_f1(tmp_path):
    game = in_the_machine_phase(oil={"OC": 2}, money=40)
    async with table_for(game, tmp_path, NARROW) as (app, pilot):
        assert "Run your Machines ($15), or 'end' your turn." in " ".join(hint(app).split())
        await pilot.press("f1")
        await pilot.pause()
        text = " ".join(app.screen.query_one(Markdown).source.split())
        assert "one payment of $15 ($5 with Machines II) runs every Pipeline attached" in text
