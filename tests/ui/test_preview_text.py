"""The hint's preview of a move, worded: money, barrels, a run's reach, full card texts."""

from pipeline_tui.data.reference import contract_text, upgrade_text
from pipeline_tui.engine import moves as M
from pipeline_tui.ui.preview import preview_text

from tests.helpers import EXAMPLE_COSTS, build, legal, new_game, play, setup_player, straight_row


def test_a_buy_says_its_cost_the_money_after_and_the_barrel() -> None:
    game = new_game()
    setup_player(game, tanks=[2, 2, 2, 2], money=40)
    play(game, "act crude")
    buy = next(m for m in legal(game) if isinstance(m, M.Buy))
    text = preview_text(game.state, buy).plain
    assert text.startswith("Costs $") and "$40 → $" in text
    assert "In: 1 × " in text and "Crude" in text


def test_a_network_run_says_how_far_it_refines_and_for_how_much() -> None:
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    setup_player(game, tiles=build(*straight_row("O", 3)), tanks=[2, 2, 2, 2], oil={"OC": 2})
    run = next(m for m in legal(game) if isinstance(m, M.RunNetwork))
    text = preview_text(game.state, run).plain
    assert "Can refine: Orange Crude → " in text and "sells for up to $" in text


def test_a_contract_and_an_upgrade_show_their_full_text() -> None:
    game = new_game()
    setup_player(game, tanks=[2, 2, 2, 2], money=60)
    play(game, "act contracts")
    take = next(m for m in legal(game) if isinstance(m, M.TakeContract))
    tile = game.state.contract_rows[take.row - 1][take.slot]
    assert contract_text(tile) in preview_text(game.state, take).plain
    game = new_game()
    setup_player(game, tanks=[2, 2, 2, 2], money=60)
    play(game, "act upgrades")
    buy = next(m for m in legal(game) if isinstance(m, M.BuyUpgrade))
    assert upgrade_text(buy.family, 1) in preview_text(game.state, buy).plain


def test_a_move_that_changes_nothing_has_no_preview() -> None:
    game = new_game()
    setup_player(game, tanks=[2, 2, 2, 2], money=40)
    play(game, "act crude")
    done = next(m for m in legal(game) if isinstance(m, M.EndAction))
    assert preview_text(game.state, done) is None


async def test_highlighting_a_move_previews_it_in_the_hint(tmp_path) -> None:
    from pipeline_tui.engine import format_move
    from pipeline_tui.ui.widgets import MoveList
    from tests.ui.pilot import hint, table_for

    game = new_game()
    setup_player(game, tanks=[2, 2, 2, 2], money=40)
    play(game, "act crude")
    async with table_for(game, tmp_path, (160, 48)) as (app, pilot):
        screen = app.screen
        option_list = screen.query_one("#moves", MoveList)
        wanted = next(i for i, m in enumerate(screen.shown_moves) if isinstance(m, M.Buy))
        index = next(
            i
            for i in range(option_list.option_count)
            if option_list.get_option_at_index(i).id == f"m{screen.listing}-{wanted}"
        )
        option_list.highlighted = index
        await pilot.pause()
        text = hint(app)
        assert "Costs $" in text and "$40 → $" in text and "In: 1 × " in text
        assert format_move(screen.shown_moves[wanted]).startswith("buy C-")
