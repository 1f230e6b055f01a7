"""Every worked example of the rulebook, played through real moves.

The rulebook's pictures are missing, so each network is built from real tiles to give the
Pipelines the example names, and market contents are set to what the example text describes.
"""

from __future__ import annotations

import pytest

from pipeline_tui.data import components as C
from pipeline_tui.engine import IllegalMove
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.rules import highest_grade_from_crude, network, refine_cost

from tests.helpers import (
    EXAMPLE_COSTS,
    build,
    legal_of,
    me,
    new_game,
    oil,
    pass_turn,
    pass_to_year,
    pipeline_at,
    play,
    refine,
    setup_player,
    straight_column,
    straight_row,
    use_families,
)

ORANGE, TEAL, SILVER = 0, 1, 2


# --- Refinement Costs ------------------------------------------------------------------------


def test_refinement_costs_add_up_along_a_run():
    """Teal Crude>Low costs 4; Crude>Mid costs 10 (4, then 6 more)."""
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    assert refine_cost(game.state, TEAL, 0, 1) == 4
    assert refine_cost(game.state, TEAL, 0, 2) == 10
    assert refine_cost(game.state, TEAL, 1, 3) == 11
    assert refine_cost(game.state, ORANGE, 1, 2) == 4
    assert highest_grade_from_crude(game.state, TEAL, 10) == 2
    assert highest_grade_from_crude(game.state, TEAL, 9) == 1
    assert highest_grade_from_crude(game.state, TEAL, 3) == 0


# --- Refinement Values and Refining Oil ------------------------------------------------------


def example_network() -> list:
    """A worker tile at (0,0)-(1,0) touching an orange Pipeline of 6 (along the row), a teal
    Pipeline of 11 (north from half A) and a teal Pipeline of 3 (south from half B)."""
    return build(
        ((0, 0), "EW:O NS:T", (1, 0), "EW:O NS:T"),
        ((-2, 0), "EW:O NS:*", (-1, 0), "EW:O NS:*"),
        ((2, 0), "EW:O NS:*", (3, 0), "EW:O NS:*"),
        *straight_column("T", 5, x=0, y0=-10),
        ((1, 1), "NS:T EW:*", (1, 2), "NS:T EW:*"),
    )


@pytest.fixture
def refinery():
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    setup_player(game, tiles=example_network(), tanks=[2, 2, 2, 2], oil={"OL": 1, "TL": 1, "TC": 1})
    return game


def test_refinement_values_of_the_pipelines_through_the_worker_tile(refinery):
    player = me(refinery)
    orange = pipeline_at(player, (0, 0), "EW")
    teal_long = pipeline_at(player, (0, 0), "NS")
    teal_short = pipeline_at(player, (1, 0), "NS")
    assert (orange.colour, teal_long.colour, teal_short.colour) == (ORANGE, TEAL, TEAL)
    assert (orange.value(0), teal_long.value(0), teal_short.value(0)) == (6, 11, 3)
    refinery.apply(M.RunNetwork(x=0, y=0))
    offered = {(m.x, m.y, m.k) for m in legal_of(refinery, M.Refine)}
    assert offered == {orange.key, teal_long.key}  # the short teal one reaches no grade


def test_refining_oil_example(refinery):
    player = me(refinery)
    orange = pipeline_at(player, (0, 0), "EW")
    teal_long = pipeline_at(player, (0, 0), "NS")
    teal_short = pipeline_at(player, (1, 0), "NS")
    refinery.apply(M.RunNetwork(x=1, y=0))
    with pytest.raises(IllegalMove, match="Refinement Value 6 is below the cost 10"):
        refinery.apply(refine(orange, "L", "H"))
    refinery.apply(refine(orange, "L", "M"))  # value 6, cost 4
    refinery.apply(refine(teal_long, "L", "H"))  # value 11, cost 6 + 5
    with pytest.raises(IllegalMove, match="Refinement Value 3 is below the cost 4"):
        refinery.apply(refine(teal_short, "C", "L"))
    refinery.apply(M.EndAction())
    assert (oil(player, "OL"), oil(player, "OM")) == (0, 1)
    assert (oil(player, "TL"), oil(player, "TH"), oil(player, "TC")) == (0, 1, 1)


# --- Running Machines --------------------------------------------------------------------------


def machine_network() -> list:
    """Machine 1 on (0,0): orange a (5) north, teal b (8) east, teal c (4) south. Machine 2 on
    (8,1): silver d (6) east and a one-segment stub from (8,0)."""
    return build(
        ((0, 0), "EW:T NS:*", (1, 0), "EW:T NS:*"),
        *straight_row("T", 3, x0=2, y=0),
        ((8, 0), "EW:T NS:S", (8, 1), "NS:S EW:*"),
        *straight_column("O", 2, x=0, y0=-4),
        ((0, -5), "NS:O EW:*", (1, -5), "EW:* NS:*"),
        *straight_column("T", 2, x=0, y0=1),
        *straight_row("S", 3, x0=9, y=1),
    )


@pytest.fixture
def machines_game():
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    setup_player(
        game,
        tiles=machine_network(),
        machines=[(0, 0), (8, 1)],
        money=50,
        tanks=[3, 3, 3, 3],
        oil={"OC": 1, "TL": 1, "TC": 1, "SC": 2},
    )
    return game


def test_running_machines_example(machines_game):
    game = machines_game
    player = me(game)
    net = network(player)
    one = sorted((p.colour, p.segments) for p in net.attached_to((0, 0)))
    two = sorted((p.colour, p.segments) for p in net.attached_to((8, 1)))
    assert one == [(ORANGE, 5), (TEAL, 4), (TEAL, 8)]
    assert two == [(SILVER, 1), (SILVER, 6)]
    play(game, "pass", "machines")
    assert player.money == 35
    a = pipeline_at(player, (0, -1), "NS")
    b = pipeline_at(player, (1, 0), "EW")
    c = pipeline_at(player, (0, 1), "NS")
    d = pipeline_at(player, (9, 1), "EW")
    stub = pipeline_at(player, (8, 0), "NS")
    assert stub.segments == 1 and stub.machines == {(8, 1)}
    with pytest.raises(IllegalMove, match="Refinement Value 1 is below the cost 5"):
        game.apply(refine(stub, "C", "L"))
    for move in (refine(a, "C", "L"), refine(b, "L", "M"), refine(c, "C", "L"), refine(d, "C", "L")):
        game.apply(move)
    game.apply(M.EndAction())
    assert [oil(player, code) for code in ("OL", "TM", "TL", "SL", "SC")] == [1, 1, 1, 1, 1]


# --- Refined Markets ---------------------------------------------------------------------------


def test_refined_market_example():
    """Sell 2 High teal (one as High for $45, one as Mid for $45), then buy 2 Crude silver at $10
    and 1 Low orange at $30; selling after buying is refused."""
    game = new_game(players=4)
    s = game.state
    row = C.MARKET_ROW_INDEX
    s.markets[row["2-TH"]] = [-1, TEAL, TEAL, TEAL]  # only one High teal slot free ($45)
    s.markets[row["2-TM"]] = [-1, -1, -1, -1]
    s.markets[row["2-SC"]] = [SILVER, SILVER, SILVER, SILVER, -1, -1]
    s.markets[row["2-OL"]] = [ORANGE, -1, -1, -1]
    player = setup_player(game, money=0, tanks=[1, 1, 0, 1], oil={"TH": 2})
    play(game, "act refined2", "sell 2-TH#1 TH")
    assert player.money == 45
    with pytest.raises(IllegalMove, match="slot is taken"):
        game.play("sell 2-TH#2 TH")
    play(game, "sell 2-TM#3 TH")
    assert player.money == 90 and oil(player, "TH") == 0
    assert s.markets[row["2-TM"]][2] == TEAL
    play(game, "buy 2-SC#3", "buy 2-SC#4", "buy 2-OL#1")
    assert player.money == 90 - 10 - 10 - 30
    assert (oil(player, "SC"), oil(player, "OL")) == (2, 1)
    player.oil[3][TEAL] = 1
    with pytest.raises(IllegalMove, match="complete all your selling before purchasing"):
        game.play("sell 2-TM#1 TH")


# --- Turn Order --------------------------------------------------------------------------------


def test_turn_order_example():
    """A player taking first place on the lower track bumps the disk there, and everyone after
    it, one place right; players who do not choose slide to the leftmost free place; the lower
    track becomes the order of the next Round."""
    game = new_game(players=4)
    first, second, third, fourth = game.state.turn_order
    play(game, "act upgrades", "done", "order-place 1", "end")  # first player takes place 1
    assert game.state.next_order == [first]
    pass_turn(game)  # the second player does not change Turn Order
    assert game.state.next_order == [first, second]
    play(game, "act contracts", "done", "order-place 1", "end")  # the third player bumps both
    assert game.state.next_order == [third, first, second]
    pass_turn(game)
    assert game.state.round == 2
    assert game.state.turn_order == [third, first, second, fourth]
    assert game.state.turn.player == third and game.state.next_order == []


# --- Upgrades ----------------------------------------------------------------------------------


def test_upgrades_example():
    game = new_game(players=2)
    use_families(game, ["GOV", "HR", "ENG", "RM", "CO"])
    s = game.state
    rows = s.upgrade_families
    s.upgrade_tokens[rows.index("CO")] = False  # bought by someone earlier this Year
    s.upgrade_cards[rows.index("GOV")][0] -= 1
    player = setup_player(game, money=100, upgrades={"GOV": 1})
    play(game, "act upgrades")
    with pytest.raises(IllegalMove, match="flipped until next Year"):
        game.play("upgrade CO")
    play(game, "upgrade GOV")
    assert player.level("GOV") == 2 and player.money == 80
    assert s.upgrade_cards[rows.index("GOV")] == [2, 0, 1]
    assert [(g.kind, g.count) for g in s.turn.grants] == [("gov", 4)]  # Level 2: 4 tiles now
    play(game, "decline", "upgrade HR")
    assert player.level("HR") == 1 and player.money == 60
    with pytest.raises(IllegalMove, match="at most 2 per Action"):
        game.play("upgrade ENG")
    play(game, "flip RM", "done", "end")
    assert s.upgrade_tokens == [False, False, True, False, False]  # only Engineering left
    play(game, "act upgrades")
    assert legal_of(game, M.BuyUpgrade) == [M.BuyUpgrade(family="ENG")]
    pass_turn(game)
    pass_to_year(game, 2)
    assert s.upgrade_tokens == [True] * 5


# --- Machines and Pipes ------------------------------------------------------------------------


def test_machines_and_pipes_example():
    game = new_game(players=2)
    player = setup_player(game, money=100, tiles=build(*straight_row("O", 3)))
    assert pipeline_at(player, (0, 0), "EW").segments == 6
    play(game, "act machines", "pipe 1")
    assert player.money == 85
    game.apply(legal_of(game, M.PlaceTile)[0])
    play(game, "pipe 2")
    assert player.money == 85  # the second tile is within the same $15
    game.apply(legal_of(game, M.PlaceTile)[-1])
    assert len(player.tiles) == 5
    assert game.state.machine_shop[0] == 1
    play(game, "machine 1")
    assert player.money == 65
    play(game, "put-machine 2,0")  # half A of the middle tile of the orange row
    left = pipeline_at(player, (0, 0), "EW")
    right = pipeline_at(player, (3, 0), "EW")
    assert (left.segments, right.segments) == (2, 3)
    assert left.machines == right.machines == {(2, 0)}
    with pytest.raises(IllegalMove, match="that row is empty"):
        game.play("machine 1")
    play(game, "machine 2")
    assert player.money == 35


# --- Contracts -----------------------------------------------------------------------------------


def contracts_game():
    game = new_game(players=2)
    game.state.contract_rows[0] = [3, 1]  # Low row: "OL TL" and "TL TL"
    return game


def test_a_deferred_contract_cannot_be_fulfilled_yet():
    game = contracts_game()
    player = setup_player(game, oil={"OL": 1, "TL": 1})
    play(game, "act contracts", "contract CL.1 deferred", "done")
    assert player.contracts[0].deferred
    with pytest.raises(IllegalMove, match="Deferred"):
        game.play("deliver 1.1 L")
    assert legal_of(game, M.Deliver) == []


def test_a_higher_grade_fills_a_low_requirement_for_20():
    game = contracts_game()
    player = setup_player(game, money=0, oil={"OH": 1, "TM": 1})
    play(game, "act contracts", "contract CL.1", "done", "deliver 1.1 H")
    assert player.money == C.CONTRACT_PAY[1] == 20
    play(game, "deliver 1.2 M")
    assert player.money == 40
    assert player.contracts[0].completions == 1
    assert player.contracts[0].barrels == [(ORANGE, 3), (TEAL, 2)]


def test_active_contract_example_completed_or_discarded_at_the_year_end():
    """A Contract completed this Year must be fulfilled again next Year; one left half done is
    discarded with a Penalty marker."""
    game = contracts_game()
    first = setup_player(game, oil={"OL": 1, "TL": 1})
    play(game, "act contracts", "contract CL.1", "done", "deliver 1.1 L", "deliver 1.2 L", "end")
    second = setup_player(game, oil={"TL": 1})
    play(game, "act contracts", "contract CL.2", "done", "deliver 1.1 L", "end")
    assert second is not first
    pass_to_year(game, 2)
    assert len(first.contracts) == 1 and first.penalties == 0
    assert first.contracts[0].completions == 0 and first.contracts[0].filled == [-1, -1]
    assert second.contracts == [] and second.penalties == 1
