"""The panels and move descriptions draw every state of seeded games without failing, and show
what the state holds."""

from __future__ import annotations

import random

from rich.console import Console

from pipeline_tui.data import components as C
from pipeline_tui.data import editions as E
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.game import Game
from pipeline_tui.engine.moves import parse_move
from pipeline_tui.engine.setup import GameSetup
from pipeline_tui.ui import panels
from pipeline_tui.ui.describe import GROUPS, describe, group_of
from pipeline_tui.ui.netgrid import render_network, render_tile

from tests.helpers import new_game as rules_game
from tests.helpers import pass_turn, play

PREFERRED = (
    M.Refine,
    M.Deliver,
    M.FulfilOrder,
    M.Buy,
    M.Sell,
    M.BuyPipe,
    M.PlaceTile,
    M.TakeContract,
    M.BuyMachine,
    M.PlaceMachine,
    M.Government,
    M.BuyUpgrade,
    M.BuyTank,
    M.Action,
    M.Secondary,
    M.RunNetwork,
)


def plain(text) -> str:
    console = Console(width=200, no_color=True, record=True)
    with console.capture() as capture:
        console.print(text)
    return capture.get()


def seeded_games(players: int, seed: int, moves: int):
    """States of a game played by a seeded policy that prefers doing things over passing."""
    game = Game(GameSetup.default(players, seed))
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            return
        busy = [m for m in legal if isinstance(m, PREFERRED)]
        game.apply(rng.choice(busy) if busy and rng.random() < 0.8 else rng.choice(legal))
        yield game


def test_every_state_and_move_can_be_drawn():
    kinds = set()
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        for game in seeded_games(players, seed, 300):
            state = game.state
            for move in game.legal_moves():
                assert describe(move, state)
                assert group_of(move) in GROUPS
                kinds.add(type(move))
            for key in ("C", "1", "2", "3"):
                panels.market(state, key)
            for draw in (
                panels.status,
                panels.cross,
                panels.contracts,
                panels.shops,
                panels.government,
                panels.upgrades,
                panels.refinement,
                panels.valuation,
            ):
                draw(state)
            for player in state.players:
                panels.board(state, player.seat)
                render_network(player.tiles, player.machines, player.worker)
    assert {M.Buy, M.PlaceTile, M.TakeContract, M.Government} <= kinds


def test_board_shows_money_tanks_and_barrels_by_letter():
    game = Game(GameSetup.default(2, 7))
    for _ in range(10):
        game.play("start-tank C")
    seat = game.current_player
    game.play("act crude")
    game.play("buy C-TC#1")
    text = plain(panels.board(game.state, seat))
    player = game.state.players[seat]
    assert f"Money ${player.money}" in text
    assert "Crude [T·][··][··][··][··]" in text


def test_market_rows_show_price_and_barrel_letter_per_slot():
    game = Game(GameSetup.default(2, 7, edition=1))
    text = plain(panels.market(game.state, "C"))
    assert text.splitlines()[0].startswith("OC  8O  7O  6O  5O")
    assert "Bank" in text


def test_printed_crude_rows_show_every_slot_in_play_cheapest_first():
    for players, slots in ((2, 6), (3, 7), (4, 8)):
        state = Game(GameSetup.default(players, 7)).state
        rows = plain(panels.market(state, "C")).splitlines()[:3]
        for line, (colour, ladder) in zip(rows, state.market_layout[:3]):
            code, *cells = line.split()
            assert code == "OTS"[colour] + "C" and len(cells) == slots
            prices = [int(cell[:-1]) for cell in cells]
            assert prices == list(E.CRUDE_LADDERS[ladder][:slots])
            assert {cell[-1] for cell in cells} == {code[0]}  # every slot starts full


def test_a_tile_is_drawn_with_its_pipes_and_letters():
    drawn = plain(render_tile(0, 0)).splitlines()
    assert len(drawn) == 3 and all(len(line) == 10 for line in drawn)
    assert any(ch in "".join(drawn) for ch in "OTS")
    tall = plain(render_tile(0, 1)).splitlines()
    assert len(tall) == 6 and all(len(line) == 5 for line in tall)


def test_network_grid_marks_machines_worker_and_ghost():
    tiles = [(0, 0, 0, 0), (1, 0, 1, 0)]
    text, grid = render_network(tiles, [(1, 1)], "run 0,0", ghost=(2, 2, 0, 0, True))
    drawn = plain(text)
    assert "M" in drawn and "@" in drawn and "░" in drawn
    assert grid.cell_at(*grid.origin(1, 1)) == (1, 1)


def test_the_cached_panels_follow_the_state_and_hand_out_copies():
    """The markets, Contracts and Orders, shops and Government are drawn once per snapshot of
    the state they show. The engine changes its lists in place, so a change to any of them must
    draw the panel anew; a caller may change the Text it gets."""
    state = Game(GameSetup.default(3, 4)).state
    changes = {
        "market C row": (lambda s: panels.market(s, "C"), lambda s: s.markets[0].__setitem__(0, -1)),
        "bank": (lambda s: panels.market(s, "C"), lambda s: s.supply.__setitem__(1, 99)),
        "market 2": (
            lambda s: panels.market(s, "2"),
            lambda s: s.markets[[r.market for r in C.MARKET_ROWS].index("2")].__setitem__(0, -1),
        ),
        "contract row": (panels.contracts, lambda s: s.contract_rows[0].__setitem__(0, -1)),
        "contract stack": (panels.contracts, lambda s: s.contract_stacks[1].pop()),
        "order row": (panels.contracts, lambda s: s.order_rows[2].__setitem__(0, -1)),
        "tank shop": (panels.shops, lambda s: s.tank_shop.__setitem__(0, 0)),
        "pipe deck": (panels.shops, lambda s: s.pipe_deck.pop()),
        "shop pipes": (panels.shops, lambda s: s.shop_pipes[1].__setitem__(0, -1)),
        "government": (panels.government, lambda s: s.government[2].__setitem__(3, -1)),
        "quadrant opened": (panels.government, lambda s: s.government_opened.__setitem__(0, 1)),
    }
    hits = panels._market.cache_info().hits
    for name, (draw, change) in changes.items():
        before = draw(state).plain
        assert draw(state).plain == before
        change(state)
        assert draw(state).plain != before, name
        text = draw(state)
        text.append("scribbled")
        assert "scribbled" not in draw(state).plain, name
    assert panels._market.cache_info().hits > hits  # drawn once, then reused


def test_a_network_is_drawn_at_least_the_size_asked_blank_to_the_right_and_below():
    tiles = [(0, 0, 0, 0), (5, 2, 0, 1)]
    text, grid = render_network(tiles, [])
    padded, same = render_network(tiles, [], size=(grid.width + 7, grid.height + 3))
    lines, wide = text.plain.split("\n"), padded.plain.split("\n")
    assert (same.width, same.height) == (grid.width, grid.height)  # the cells are where they were
    assert len(wide) == len(lines) + 3 and {len(line) for line in wide} == {grid.width + 7}
    assert [line[: grid.width] for line in wide[: len(lines)]] == lines
    assert not "".join(line[grid.width :] for line in wide).strip()
    assert not "".join(wide[len(lines) :]).strip()
    small, _ = render_network(tiles, [], size=(3, 3))  # smaller than the network: its own size
    assert small.plain == text.plain


def test_a_turn_order_choice_names_the_next_round_it_makes():
    """Rules version 2: the row after the disk is placed, a disk there pushed aside."""
    game = rules_game(players=3)
    a, b, c = game.state.turn_order
    pass_turn(game)
    play(game, "act tanks", "done")
    names = [game.state.players[s].name for s in (a, b, c)]
    assert describe(parse_move("order-place 1"), game.state) == (
        f"Turn Order space 1: next Round {names[1]} {names[0]} ."
    )
    assert describe(parse_move("order-place 3"), game.state) == (
        f"Turn Order space 3: next Round {names[0]} . {names[1]}"
    )
    old = rules_game(players=3, rules_version=1)
    play(old, "act tanks", "done")
    assert describe(parse_move("order-place 1"), old.state) == (
        "Take the 1st place in next Round's turn order"
    )


def test_the_machines_i_stack_gift_is_described():
    assert describe(parse_move("take-machine stack"), rules_game().state) == (
        "Take a Machine from the stack beside the board"
    )


def test_workers_on_the_cross_stand_apart_from_the_labels():
    """Issue 37: "Ref 11" and "Tanks2" read as one word; a space parts label and seats."""
    game = rules_game()
    play(game, "act refined1", "done", "end", "act tanks")
    text = panels.cross(game.state).plain
    first, second = (
        f"{p.seat + 1}" for p in sorted(game.state.players, key=lambda p: p.worker != "refined1")
    )
    assert f"Ref 1 {first}" in text and f"Tanks {second}" in text, text
    assert f"Ref 1{first}" not in text and f"Tanks{second}" not in text
