"""Plain-text rendering of the table and of the scores: content read from the state, in letters."""

from __future__ import annotations

import random
import re

import msgspec
import pytest

from pipeline_tui.data import components as C
from pipeline_tui import i18n
from pipeline_tui.ai import KINDS, LEVELS
from pipeline_tui.engine import Game, GameSetup, PlayerSetup, SeatKind, rules
from pipeline_tui.engine.setup import RULES_VERSION
from pipeline_tui.engine.state import Grant, GrantKind, HeldContract, clone_state
from pipeline_tui.data.reference import reference
from pipeline_tui.text import (
    COMPONENT_SECTIONS,
    SEAT_KINDS,
    needs_text,
    render_components,
    render_components_text,
    render_scores,
    render_state,
    tile_text,
)


def new_game(
    players: int = 2,
    seed: int = 5,
    first_game: bool = False,
    edition: int = 1,
    rules_version: int = RULES_VERSION,
) -> Game:
    """Edition 1 by default: these tests read its fixed market rows and prices."""
    setup = GameSetup.default(players=players, seed=seed, first_game=first_game, edition=edition)
    return Game(msgspec.structs.replace(setup, rules_version=rules_version))


def row_index(code: str) -> int:
    return C.MARKET_ROW_INDEX[code]


def finished_game(players: int, seed: int) -> Game:
    game = new_game(players, seed)
    rng = random.Random(seed)
    while not game.is_over():
        game.apply_trusted(rng.choice(game.legal_moves()))
    return game


def test_header_turn_order_and_whose_turn():
    """Rules version 1 keeps the next Round as a list (version 2: the track by space)."""
    game = new_game(3, seed=8, rules_version=1)
    state = game.state
    text = render_state(state, game.setup)
    names = [state.players[s].name for s in state.turn_order]
    assert text.startswith("Year 1 of 3, Round 1 of 8\n")
    assert "Players: Ada (human), Bo (human), Cy (human)" in text
    assert f"Turn Order: {' > '.join(names)}   next Round: (empty)" in text
    assert f"To act: {names[0]}, Setup (placing starting Tanks), 0 of 5 placed" in text
    assert f"{names[0]} (seat {state.turn_order[0] + 1}): $40, Penalty markers: 0  <- to act" in text


def test_header_shows_the_next_round_track_by_space():
    game = new_game(3, seed=8)
    state = game.state
    assert "next Round: . . .\n" in render_state(state)
    state.next_track = [-1, state.turn_order[1], -1]
    assert f"next Round: . {state.players[state.turn_order[1]].name} .\n" in render_state(state)


def test_market_rows_show_prices_and_contents_in_letters():
    game = new_game(2)
    state = game.state
    text = render_state(state)
    assert "  C-OC  8[O] 7[O] 6[O] 5[O]\n" in text  # 2 players: the 4 rightmost crude slots
    assert "  2-TH  45[ ] 50[ ]\n" in text  # 2 players: the middle two refined slots
    state.markets[row_index("2-TH")][0] = 1
    state.markets[row_index("C-OC")][1] = -1
    text = render_state(state)
    assert "  2-TH  45[T] 50[ ]\n" in text
    assert "  C-OC  8[O] 7[ ] 6[O] 5[O]\n" in text


def test_four_players_use_every_printed_slot():
    text = render_state(new_game(4).state)
    assert "  3-SL  25[ ] 30[ ] 30[ ] 35[ ]\n" in text
    assert "  1-TC  12[T] 11[T] 10[T] 10[T] 9[T] 8[T]\n" in text


def test_printed_rows_show_the_slots_each_player_count_uses():
    for players, crude, refined in ((2, 6, 2), (3, 7, 3), (4, 8, 4)):
        state = new_game(players, edition=2).state
        text = render_state(state)
        for index, row in enumerate(rules.market_rows(state)):
            line = next(line for line in text.splitlines() if line.startswith(f"  {row.code} "))
            prices = [int(p) for p in re.findall(r"(\d+)\[.\]", line)]
            assert len(prices) == (crude if row.grade == 0 else refined)
            assert prices == list(row.prices[-refined:] if row.grade else row.prices[:crude])


def test_contracts_and_orders_rows_use_notation_numbers_and_barrel_codes():
    state = new_game(4, seed=3).state
    text = render_state(state)
    low = state.contract_rows[0]
    expected = "   ".join(f"CL.{i + 1} {needs_text(t)}" for i, t in enumerate(low))
    assert f"  Low-Grade  {expected}   ({len(state.contract_stacks[0])} in stack)" in text
    five = state.order_rows[2]
    assert f"O5.1 {needs_text(five[0])}" in text
    state.contract_rows[1][0] = -1
    assert "CM.1 (empty)" in render_state(state)


def test_shops_government_upgrades_valuation_and_costs():
    game = new_game(2, first_game=True)
    state = game.state
    text = render_state(state, game.setup)
    assert "first-game setup" in text
    assert "Tank Shop: $5 x2, $10 x2, $15 x2" in text
    assert f"T1 {tile_text(state.shop_pipes[0][0])}" in text
    assert f"Pipe stack: {len(state.pipe_deck)} face down, 0 discarded" in text
    assert "Quadrant 1: closed, 8 tiles left: 1.1 1.2 1.3 1.4 1.5 1.6 1.7 1.8" in text
    assert "  GOV  Government         token up    I:3 II:1 III:1" in text
    assert "card 3: $10 per Tank Tile" in text
    costs = state.refinement_costs[1]
    assert "  Teal            " + "".join(f"{c:>4}" for c in costs) in text
    state.government[0][2] = -1
    state.government_opened[0] = 1
    state.upgrade_tokens[0] = False
    text = render_state(state)
    assert "Quadrant 1: open since Year 1, 7 tiles left: 1.1 1.2 1.4" in text
    assert "  GOV  Government         token down" in text


def test_tile_text_names_edges_and_colours():
    tile = C.pipe_tiles()[5]
    text = tile_text(5)
    assert text.startswith("#5 [")
    (a, b, colour), _ = tile.a.paths
    assert f"{'NESW'[a]}{'NESW'[b]}:{'OTS'[colour]}" in text


def test_player_board_tank_farm_contracts_upgrades_and_network():
    state = new_game(2).state
    player = state.players[0]
    player.tanks = [2, 3, 0, 1]
    player.oil = [[1, 0, 0], [2, 1, 0], [0, 0, 0], [0, 0, 1]]
    player.upgrades[C.UPGRADE_CODES.index("ENG")] = 2
    player.penalties = 2
    tile = C.CONTRACTS[10]
    player.contracts = [
        HeldContract(tile=tile.id, filled=[2, -1], completions=1),
        HeldContract(tile=0, deferred=True, filled=[-1, -1]),
    ]
    player.tiles = [(3, 0, 0, 0)]
    player.worker = "gov 2.5"
    text = render_state(state)
    assert "    High-Grade [S ]\n" in text
    assert "    Mid-Grade  (no Tanks)\n" in text
    assert "    Low-Grade  [OO] [T ] [  ]\n" in text
    assert "    Crude      [O ] [  ]\n" in text
    assert "Ada (seat 1): $40, Penalty markers: 2" in text  # seats count from 1
    assert "  worker on Government tile 2.5" in text
    codes = [f"{n + 1}:{'OTS'[c]}{'CLMH'[g]}" for n, (c, g) in enumerate(tile.needs)]
    assert f"    1. Mid-Grade Contract: {codes[0]}=M {codes[1]}  (active, fulfilled 1 this Year)" in text
    assert "    2. Low-Grade Contract: 1:OL 2:OL  (deferred, fulfilled 0 this Year)" in text
    assert "  Upgrades: ENG II" in text
    assert "  Pipe Network: 1 tile, 0 Machines; longest Pipeline" in text


def test_cross_shows_tiles_and_workers():
    state = new_game(2).state
    state.players[1].worker = "crude"
    state.players[0].worker = state.action_tiles[2]
    text = render_state(state)
    assert f"  North  Crude Market [Bo] / {C.ACTION_NAMES[state.action_tiles[0]]}\n" in text
    assert f"  South  Refined Market 2 / {C.ACTION_NAMES[state.action_tiles[2]]} [Ada]\n" in text


def test_rendering_is_deterministic_plain_text():
    game = finished_game(3, 4)
    mid = game.state_at(len(game.moves) // 2)
    text = render_state(mid, game.setup)
    assert text == render_state(clone_state(mid), game.setup)
    assert "\x1b" not in text
    assert all(ch == "\n" or ch.isprintable() for ch in text)


@pytest.mark.parametrize("players, seed", [(2, 6), (4, 7)])
def test_render_scores_table(players, seed):
    game = finished_game(players, seed)
    scores = game.scores()
    text = render_scores(scores)
    lines = text.splitlines()
    assert lines[0].split() == [s.name for s in scores]
    total = next(line for line in lines if line.startswith("Total"))
    assert [int(v) for v in total.split()[1:]] == [s.total for s in scores]
    rank = next(line for line in lines if line.startswith("Rank"))
    assert rank.split()[1:] == [str(i + 1) for i in range(players)]
    cash = next(line for line in lines if line.startswith("Cash"))
    assert [int(v) for v in cash.split()[1:]] == [game.state.players[s.seat].money for s in scores]
    assert lines[-1] == f"Winner: {scores[0].name}"
    assert "Year 3 of 3, Round 4 of 4  (game over)" in render_state(game.state)


# --- in Russian (issue 15): the words translated, letters, codes and notation as they are ------


def test_upgrade_gifts_due_are_counted_and_named():
    state = new_game(2).state
    state.turn.grants = [Grant(GrantKind.GOV, 1, "GOV yearly"), Grant(GrantKind.TANK, 2, "SHOP II")]
    assert "; due: 1 Government pipe tile (GOV yearly), 2 Tanks (SHOP II)" in render_state(state)


def test_the_table_in_russian(russian):
    game = new_game(2, first_game=True)
    state = game.state
    state.turn.grants = [Grant(GrantKind.GOV, 1, "GOV yearly"), Grant(GrantKind.TANK, 2, "SHOP II")]
    state.players[0].tiles = [(3, 0, 0, 0)]
    text = render_state(state, game.setup)
    assert text.startswith(
        "Год 1 из 3, раунд 1 из 8\nИгроки: Ada (человек), Bo (человек); подготовка к первой игре\n"
    )
    assert "причитается: 1 правительственная труба (GOV ежегодно), 2 цистерны (SHOP II)" in text
    assert "Квадрант 1: закрыт, осталось 8 тайлов: 1.1 1.2 1.3 1.4 1.5 1.6 1.7 1.8" in text
    assert "  Сеть нефтепроводов: 1 тайл, 0 насосов; длиннейший нефтепровод" in text
    assert "Заказы (выполнить: «fulfil O3.1 ...»):\n  3 куба     O3.1 " in text
    assert "  5 кубов    O5.1 " in text
    assert "  C-OC  8[O] 7[O] 6[O] 5[O]\n" in render_state(
        new_game(2).state
    )  # codes and letters as in English
    assert "Year" not in text and "Tank Farm" not in text


def test_russian_columns_stay_aligned(russian):
    state = new_game(3, seed=2).state
    lines = render_state(state).splitlines()
    costs = lines.index(next(line for line in lines if line.startswith("Цены перегонки")))
    header = lines[costs]
    for line in lines[costs + 1 : costs + 4]:
        assert len(line) == len(header)  # each cost ends under its step, as in English
    arms = [line for line in lines if line.startswith(("  Север ", "  Запад ", "  Юг ", "  Восток "))]
    assert len(arms) == 4
    starts = {line.index(line.split()[1]) for line in arms}
    assert len(starts) == 1  # the arm names padded to one width


def test_scores_in_russian(russian):
    game = finished_game(2, 6)
    lines = render_scores(game.scores()).splitlines()
    total = next(line for line in lines if line.startswith("Итого"))
    assert [int(v) for v in total.split()[1:]] == [s.total for s in game.scores()]
    assert lines[-1] == f"Победитель: {game.scores()[0].name}"
    assert "Год 3 из 3, раунд 4 из 4  (игра окончена)" in render_state(game.state)


def test_components_in_russian_keep_english_section_keys(russian):
    ref = reference(2)
    text = render_components_text(ref)
    assert text.startswith("Компоненты «Нефтепровода», издание 2: ")
    for heading in (
        "КОНТРАКТЫ",
        "ЗАКАЗЫ",
        "РЫНКИ",
        "МАГАЗИНЫ",
        "УЛУЧШЕНИЯ",
        "ОЦЕНКА",
        "МАРКЕРЫ ЦЕНЫ ПЕРЕГОНКИ",
    ):
        assert f"\n{heading}\nИсточник" in text
    assert "\nРяд низкого сорта\n  #200 SL SL SL     $60\n" in text
    assert "\n3 куба\n" in text and "\n5 кубов\n" in text
    assert [title for title, _lines in render_components(ref)] == list(COMPONENT_SECTIONS)
    for edition in (1, 2):  # the app's reference screen is 74 columns wide in Russian too
        tables = render_components(reference(edition), width=74)
        assert max(len(line) for _title, lines in tables for line in lines) <= 74


@pytest.mark.parametrize(
    ("language", "levels"),
    [("en", "easy, normal, hard, expert"), ("ru", "лёгкий, средний, сильный, эксперт")],
)
def test_the_header_names_computer_players_by_their_level(language, levels):
    """Players choose a computer player by its level and never see the bot's own name ("эвристика"),
    and the seats on a board count from 1, as everywhere else (issue 37, point 13)."""
    kinds = [SeatKind.RANDOM, SeatKind.HEURISTIC, SeatKind.SEARCH, SeatKind.EXPERT]
    setup = GameSetup(seed=3, players=tuple(PlayerSetup(n, k) for n, k in zip("ABCD", kinds)))
    assert [SEAT_KINDS[kind] for kind in KINDS] == list(LEVELS)  # the levels the new-game form offers
    try:
        i18n.set_language(language)
        text = render_state(Game(setup).state, setup)
    finally:
        i18n.set_language("en")
    shown = re.search(r"^\S+: A \((.*)\), B \((.*)\), C \((.*)\), D \((.*)\)$", text, re.M)
    assert shown is not None and ", ".join(shown.groups()) == levels
    assert "(seat 0)" not in text and "(место 0)" not in text
