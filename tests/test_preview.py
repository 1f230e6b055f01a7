"""preview(): what a move does for its mover, played on a copy by the rules' own effects."""

from pipeline_tui.engine import best_sale, format_move, preview
from pipeline_tui.engine import moves as M

from tests.helpers import EXAMPLE_COSTS, build, in_the_machine_phase, legal, me, new_game, oil, play
from tests.helpers import setup_player, straight_row

ORANGE, TEAL, SILVER = 0, 1, 2


def move_named(game, text: str) -> M.Move:
    return next(m for m in legal(game) if format_move(m) == text)


def test_buying_crude_costs_its_price_and_gains_the_barrel() -> None:
    game = new_game()
    setup_player(game, tanks=[2, 2, 2, 2], money=40)
    play(game, "act crude")
    buy = next(m for m in legal(game) if isinstance(m, M.Buy))
    seen = preview(game.state, buy)
    assert seen is not None and seen.cost > 0
    assert seen.money_after == 40 - seen.cost
    assert len(seen.gained) == 1 and seen.gained[0][1:] == (0, 1)  # one Crude barrel
    assert seen.worth == 0  # Crude sells at no Refined Market
    before = game.state.players[seen.seat].money
    game.apply(buy)
    assert me(game).money == before - seen.cost  # the preview was what happened


def test_selling_refined_oil_brings_the_slot_price() -> None:
    game = new_game()
    setup_player(game, tanks=[2, 2, 2, 2], oil={"TH": 1}, money=10)
    play(game, "act refined1")
    for index, row in enumerate(game.state.markets):  # make room: empty every slot
        game.state.markets[index] = [-1] * len(row)
    sells = [m for m in legal(game) if isinstance(m, M.Sell)]
    assert sells
    seen = preview(game.state, sells[0])
    assert seen is not None and seen.cost < 0
    assert seen.lost == ((TEAL, 3, 1),) and seen.gained == ()
    game.apply(sells[0])
    assert me(game).money == 10 - seen.cost


def test_an_illegal_move_has_no_preview() -> None:
    game = new_game()
    assert preview(game.state, M.Buy(row="C-OC", slot=0)) is None


def test_a_network_run_shows_how_far_each_colour_can_go() -> None:
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    setup_player(game, tiles=build(*straight_row("O", 3)), tanks=[2, 2, 2, 2], oil={"OC": 2, "TC": 1})
    run = move_named(game, "run 0,0")
    seen = preview(game.state, run)
    assert seen is not None
    grades = {(c, g): to for c, g, to in seen.reach}
    assert set(grades) == {(ORANGE, 0)}  # only the Orange Pipeline runs; Teal has none
    assert grades[(ORANGE, 0)] >= 1


def test_running_machines_costs_their_price_and_shows_the_reach() -> None:
    game = in_the_machine_phase({"OC": 2}, money=30)
    run = next(m for m in legal(game) if isinstance(m, M.RunMachines))
    seen = preview(game.state, run)
    assert seen is not None and seen.cost > 0
    assert seen.reach and all(c == ORANGE and g == 0 and to >= 1 for c, g, to in seen.reach)


def test_a_refine_gains_a_barrel_worth_its_best_sale() -> None:
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    setup_player(game, tiles=build(*straight_row("O", 3)), tanks=[2, 2, 2, 2], oil={"OC": 1}, money=40)
    play(game, "run 0,0")
    step = next(m for m in legal(game) if isinstance(m, M.Refine) and m.to_grade == 1)
    seen = preview(game.state, step)
    assert seen is not None
    assert seen.lost == ((ORANGE, 0, 1),) and seen.gained == ((ORANGE, 1, 1),)
    assert seen.worth == best_sale(game.state, seen.seat, ORANGE, 1)
    assert seen.worth and seen.worth > 0
    assert oil(me(game), "OC") == 1  # the game itself is untouched


def test_best_sale_is_the_highest_free_refined_slot() -> None:
    game = new_game()
    assert best_sale(game.state, 0, ORANGE, 0) is None
    high = best_sale(game.state, 0, SILVER, 3)
    low = best_sale(game.state, 0, SILVER, 1)
    assert high is not None and low is not None and high >= low


def test_a_contract_taken_or_an_upgrade_bought_is_named_for_its_full_text() -> None:
    game = new_game()
    setup_player(game, tanks=[2, 2, 2, 2], money=60)
    play(game, "act contracts")
    take = next(m for m in legal(game) if isinstance(m, M.TakeContract))
    seen = preview(game.state, take)
    assert seen is not None and seen.tile == game.state.contract_rows[take.row - 1][take.slot] >= 0
    game = new_game()
    setup_player(game, tanks=[2, 2, 2, 2], money=60)
    play(game, "act upgrades")
    buy = next(m for m in legal(game) if isinstance(m, M.BuyUpgrade))
    seen = preview(game.state, buy)
    assert seen is not None and seen.upgrade == (buy.family, 1) and seen.cost > 0
