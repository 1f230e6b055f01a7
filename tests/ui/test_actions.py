"""One turn of every kind of move, played through the table screen (move list, prompt, ghost).

Each test builds a short scenario with the rules-test helpers (money, oil, tiles set on the
state before the table opens), then plays only through the UI. The Crude Market, pass and the
end of a turn are played in ``test_table.test_starting_tanks_market_buy_and_end_turn``.
"""

from __future__ import annotations

from contextlib import asynccontextmanager

from pipeline_tui.engine.game import Game
from pipeline_tui.engine.moves import format_move
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.network_panel import NetworkPanel
from pipeline_tui.ui.table_screen import TableScreen

from tests.helpers import EXAMPLE_COSTS, build, me, new_game, oil, setup_player, straight_row, use_families
from tests.ui.pilot import choose, hint, type_move

NARROW = (80, 24)


@asynccontextmanager
async def table(tmp_path, game: Game):
    """The app with ``game`` open at the table (scenario edits are made before this)."""
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        app.push_screen(TableScreen(game, tmp_path))
        await pilot.pause()
        yield pilot, app.screen


def listed(screen) -> list[str]:
    """The move list as notation."""
    return [format_move(m) for m in screen.shown_moves]


async def test_each_refined_market_sells_then_buys_and_refuses_selling_after(tmp_path):
    game = new_game(players=3)
    deals = {
        "1": ("sell 1-OL#1 OL", "buy 1-TC#1", "sell 1-SL#1 SL"),
        "2": ("sell 2-TL#1 TL", "buy 2-SC#1", "sell 2-OL#1 OL"),
        "3": ("sell 3-SL#1 SL", "buy 3-OC#1", "sell 3-TL#1 TL"),
    }
    for seat, (sell, _, late_sell) in zip(game.state.turn_order, deals.values()):
        setup_player(
            game, game.state.players[seat], money=100, oil={sell.split()[-1]: 1, late_sell.split()[-1]: 1}
        )
    async with table(tmp_path, game) as (pilot, screen):
        for key, (sell, buy, late_sell) in deals.items():
            player = me(game)
            await choose(pilot, f"act refined{key}")
            assert "(visiting)" in screen.query_one(f"#market-{key}").border_title
            await choose(pilot, sell)
            sold = sell.split()[-1]
            assert oil(player, sold) == 0 and player.money > 100
            money = player.money
            await choose(pilot, buy)
            assert player.money < money
            assert late_sell not in listed(screen)
            await type_move(pilot, late_sell)
            assert "Not allowed" in hint(pilot.app)
            assert "complete all your selling before purchasing" in hint(pilot.app)
            assert oil(player, late_sell.split()[-1]) == 1
            await choose(pilot, "done")
            await choose(pilot, "end")


async def test_upgrades_buy_grant_decline_free_flip_and_turn_order(tmp_path):
    game = new_game()
    use_families(game, ["GOV", "SHOP", "HR", "ENG", "RM"])
    player = setup_player(game, money=200)
    async with table(tmp_path, game) as (pilot, screen):
        await choose(pilot, "act upgrades")
        await choose(pilot, "upgrade GOV")
        assert game.state.turn.grants and listed(screen)[-1] == "decline"
        assert all(m.startswith(("take-gov", "decline")) for m in listed(screen))
        await choose(pilot, "take-gov 1.1")
        assert isinstance(pilot.app.focused, NetworkPanel) and screen.ghost.legal
        await pilot.press("enter")
        await pilot.pause()
        assert len(player.tiles) == 1
        await choose(pilot, "decline")
        assert not game.state.turn.grants and len(player.tiles) == 1
        await choose(pilot, "upgrade ENG")
        await choose(pilot, "flip HR")
        rows = game.state.upgrade_families
        assert player.level("GOV") == 1 and player.level("ENG") == 1 and player.money == 160
        assert game.state.upgrade_tokens[rows.index("HR")] is False
        assert "HR   Human Resources    DOWN" in str(screen.query_one("#upgrades").render())
        await choose(pilot, "done")
        seat = game.current_player
        await choose(pilot, "order-place 1")
        assert game.state.next_order[0] == seat


async def test_tanks_and_pipes_with_the_ghost_a_secondary_then_machines_and_pipes(tmp_path):
    game = new_game()
    first = setup_player(game, money=100)
    second = game.state.players[1 - game.current_player]
    setup_player(game, second, money=100, tiles=build(*straight_row("O", 1)))
    async with table(tmp_path, game) as (pilot, screen):
        player = first
        await choose(pilot, "act tanks")
        await choose(pilot, "tank 1 L")
        assert player.tanks[1] == 2 and player.money < 100
        await choose(pilot, "pipe 1")
        assert game.state.turn.hand_tile >= 0 and screen.ghost is not None
        assert "OK: may go here" in hint(pilot.app)
        await pilot.press("r")
        await pilot.pause()
        rot = screen.ghost.rot
        await pilot.press("enter")
        await pilot.pause()
        assert len(player.tiles) == 1 and player.tiles[0][1:] == (0, 0, rot)
        assert screen.ghost is None
        await choose(pilot, "done")
        money = player.money
        await choose(pilot, "second refined1")
        assert player.money == money - 10 and player.worker == "refined1"
        assert "(visiting)" in screen.query_one("#market-1").border_title
        await choose(pilot, "done")
        await choose(pilot, "end")
        assert me(game) is second
        await choose(pilot, "act machines")
        await choose(pilot, "machine 1")
        assert listed(screen) == ["put-machine 0,0", "put-machine 1,0"]
        await choose(pilot, "put-machine 1,0")
        assert second.machines == [(1, 0)] and second.money == 80
        assert "machines 1" in str(screen.query_one("#board").render())


async def test_contracts_active_deferred_loan_then_a_delivery(tmp_path):
    game = new_game()
    game.state.contract_rows[0] = [6, -1]  # OL TL SL
    player = setup_player(game, money=0, oil={"OL": 1, "TL": 1, "SL": 1})
    async with table(tmp_path, game) as (pilot, screen):
        await choose(pilot, "act contracts")
        await choose(pilot, "contract CL.1")
        await choose(pilot, "contract CM.2 deferred")
        await choose(pilot, "loan")
        assert [h.deferred for h in player.contracts] == [False, True]
        assert (player.money, player.penalties) == (15, 1)
        assert "deliver 1.2 L" not in listed(screen)
        await choose(pilot, "done")
        board = str(screen.query_one("#board").render())
        assert "Active" in board and "Deferred" in board
        await choose(pilot, "deliver 1.2 L")
        assert player.money == 35 and player.contracts[0].filled[1] >= 0
        assert "TL+" in str(screen.query_one("#board").render())


async def test_government_tile_and_an_adjacent_one(tmp_path):
    game = new_game()
    player = setup_player(game, money=100)
    async with table(tmp_path, game) as (pilot, screen):
        await choose(pilot, "gov 2.1")
        assert player.money == 95 and screen.ghost is not None
        await pilot.press("enter")
        await pilot.pause()
        assert len(player.tiles) == 1
        assert {m for m in listed(screen) if m.startswith("gov-more")} == {
            "gov-more 2",
            "gov-more 4",
            "gov-more 5",
        }
        await choose(pilot, "gov-more 2")
        assert screen.ghost is not None and screen.ghost.legal
        await pilot.press("enter")
        await pilot.pause()
        assert len(player.tiles) == 2 and game.state.government[1][:2] == [-1, -1]
        await choose(pilot, "done")
        assert "Q2 open" in str(screen.query_one("#government").render())


async def test_running_the_network_then_the_machine_phase_after_an_order(tmp_path):
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    game.state.order_rows[0] = [100, -1]  # OL TL SL
    runner = setup_player(game, tanks=[2, 2, 2, 2], oil={"OC": 2}, tiles=build(*straight_row("O", 3)))
    player = setup_player(
        game,
        game.state.players[1 - game.current_player],
        money=40,
        tanks=[2, 2, 2, 2],
        oil={"OC": 2, "OL": 1, "TL": 1, "SL": 1},
        tiles=build(*straight_row("O", 3)),
        machines=[(0, 0), (5, 0)],
    )
    async with table(tmp_path, game) as (pilot, screen):
        await choose(pilot, "run 2,0")
        assert runner.worker == "run 2,0"
        assert screen.query_one("#network-view").has_class("-active")
        refine = next(m for m in listed(screen) if m.startswith("refine") and m.endswith("C>L"))
        await choose(pilot, refine)
        assert oil(runner, "OC") == 1 and oil(runner, "OL") == 1 and runner.money == 40
        await choose(pilot, "done")
        await choose(pilot, "end")
        assert me(game) is player
        await choose(pilot, "act crude")
        await choose(pilot, "done")
        await choose(pilot, "fulfil O3.1 LLL")
        assert len(player.orders) == 1 and game.state.order_rows[0][0] == -1
        money = player.money
        await choose(pilot, "machines")
        assert player.money == money - 15
        refine = next(m for m in listed(screen) if m.startswith("refine") and m.endswith("C>L"))
        await choose(pilot, refine)
        assert oil(player, "OL") == 1 and oil(player, "OC") == 1
