"""The one-line summary of a finished turn (issue 16 point 6)."""

import random


from pipeline_tui import i18n
from pipeline_tui.engine.game import Game
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.moves import parse_move
from pipeline_tui.engine.setup import GameSetup
from pipeline_tui.summary import _text, last_turn_summary, plan_words, turn_summary


def _summaries(seed: int, moves: int) -> list[str]:
    game = Game(GameSetup.default(players=2, seed=7))
    pick = random.Random(seed)
    out: list[str] = []
    for _ in range(moves):
        start = game.turn_start()
        game.apply(pick.choice(game.legal_moves()))
        if game.turn_start() != start or game.turn_start() == len(game.entries):
            line = last_turn_summary(game)
            if line is not None and (not out or out[-1] != line):
                out.append(line)
    return out


def test_no_summary_before_a_turn_ends():
    game = Game(GameSetup.default(players=2, seed=7))
    assert last_turn_summary(game) is None
    game.apply(game.legal_moves()[0])
    assert last_turn_summary(game) is None


def test_seeded_turns_read_as_one_line_each():
    lines = _summaries(seed=1, moves=120)
    assert lines[0] == (
        "Bo: placed 1 starting Low-Grade Tank, 1 starting Crude Tank, 1 starting "
        "Mid-Grade Tank, 1 starting Crude Tank, 1 starting High-Grade Tank"
    )
    assert lines[1] == (
        "Ada: placed 3 starting High-Grade Tanks, 1 starting Low-Grade Tank, 1 starting Crude Tank"
    )
    assert "Bo: Government tile, $5, placed 1 Pipe tile, bought and placed 1 Pipe tile for $5" in lines
    assert "Ada: Government tile, $5, placed 1 Pipe tile, bought and placed 2 Pipe tiles for $15" in lines
    assert "Bo: Machines & Pipes, bought and placed 1 Machine for $20" in lines


def test_turn_summary_names_the_seat_of_the_range():
    game = Game(GameSetup.default(players=2, seed=7))
    pick = random.Random(1)
    for _ in range(5):
        game.apply(pick.choice(game.legal_moves()))
    assert turn_summary(game, 0, 5).startswith("Bo: placed 1 starting")


def test_repeated_buys_group_with_their_money():
    assert _text("bought", ("oil", 0, 0), 2, -14) == "bought 2 Orange Crude for $14"
    assert _text("machines", (), 1, -15) == "ran Machines, $15"
    assert _text("bought", ("oil", 1, 0), 1, -7, again=True) == "1 Teal Crude for $7"
    assert _text("bought", ("oil", 0, 0), 2, -14, plan=True) == "buy 2 Orange Crude for $14"
    assert _text("bought", ("upgrade", "GOV", 2), 1, -20) == "bought Government II for $20"
    assert _text("flipped", ("token", "RM"), 1, 0, plan=True) == "flip the Refined Markets token"
    assert _text("delivered", ("barrel of", 2), 2, 70) == "delivered 2 Mid-Grade barrels for $70"
    assert _text("took", ("loan",), 1, 15) == "took 1 Loan for $15"


def test_a_russian_summary_counts_barrels_in_the_three_russian_forms(russian):
    assert _text("bought", ("oil", 0, 0), 1, -7) == "куплено: 1 куб оранжевой сырой нефти за $7"
    assert _text("bought", ("oil", 1, 0), 2, -12) == "куплено: 2 куба синей сырой нефти за $12"
    assert _text("sold", ("oil", 2, 3), 5, 250) == "продано: 5 кубов белой нефти высокого сорта за $250"
    assert _text("delivered", ("barrel of", 2), 21, 0) == "доставлено: 21 куб среднего сорта"
    assert _text("took", ("loan",), 1, 15) == "взято: 1 кредит за $15"


def test_a_turn_summary_speaks_russian(russian):
    game = Game(GameSetup.default(players=2, seed=7))
    for _ in range(10):
        game.apply(parse_move("start-tank C"))
    start = len(game.entries)
    seat = game.current_player
    for text in ("act crude", "buy C-OC#1", "buy C-OC#2", "done", "end"):
        game.apply(parse_move(text))
    line = turn_summary(game, start, len(game.entries))
    name = game.state.players[seat].name
    assert line.startswith(f"{name} — ")
    assert "куплено: 2 куба оранжевой сырой нефти за $" in line
    i18n.set_language("en")
    assert "bought 2 Orange Crude for $" in turn_summary(game, start, len(game.entries))


def test_a_planned_turn_reads_as_a_turn_still_to_play_and_stops_at_an_illegal_move():
    game = Game(GameSetup.default(players=2, seed=7))
    seat = game.current_player
    crude = M.PlaceStartingTank(grade=0)
    assert plan_words(game.state, seat, [crude, crude]) == "place 2 starting Crude Tanks"
    assert plan_words(game.state, seat, [crude, M.Pass(), crude]) == "place 1 starting Crude Tank"
    assert plan_words(game.state, seat, [M.Pass()]) is None
    assert game.moves == []  # played on a copy


def test_a_tile_or_machine_bought_or_taken_and_placed_is_said_once():
    """A Pipe tile bought goes into the network at once, before the next is bought: "bought 1
    Pipe tile for $15, placed 1 Pipe tile, bought 1 Pipe tile, placed 1 Pipe tile" reads as one
    group, for the money of both."""
    game = Game(GameSetup.default(players=2, seed=7))
    for _ in range(10):
        game.apply(parse_move("start-tank C"))
    seat = game.current_player
    start = len(game.entries)
    game.apply(parse_move("act tanks"))
    for _ in range(2):
        game.apply(next(m for m in game.legal_moves() if type(m) is M.BuyPipe))
        game.apply(next(m for m in game.legal_moves() if type(m) is M.PlaceTile))
    name = game.state.players[seat].name
    game.apply(M.EndAction())
    game.apply(M.EndTurn())
    line = turn_summary(game, start, len(game.entries))
    assert line == f"{name}: Tanks & Pipes, bought and placed 2 Pipe tiles for $15"
    assert _text("took and placed", ("machine",), 1, 0, plan=True) == "take and place 1 Machine"


def test_a_russian_plan_puts_its_things_after_the_verb_in_the_form_the_verb_asks(russian):
    assert _text("bought", ("tank", 0), 1, -10, plan=True) == "купить 1 цистерну сырой нефти за $10"
    assert _text("bought", ("tank", 0), 2, -20, plan=True) == "купить 2 цистерны сырой нефти за $20"
    assert _text("bought", ("tank", 0), 1, -10) == "куплено: 1 цистерна сырой нефти за $10"
    assert (
        _text("bought and placed", ("pipe",), 2, -15, plan=True) == "купить и разместить 2 тайла трубы за $15"
    )
    assert _text("took and placed", ("pipe",), 1, 0) == "взято и размещено: 1 тайл трубы"
    assert (
        _text("bought", ("upgrade", "ENG", 1), 1, -20, plan=True) == "купить улучшение «Перегонка» I за $20"
    )
    assert _text("flipped", ("token", "GOV"), 1, 0) == "перевёрнуто: тайл улучшения «Правительство»"


def test_an_upgrade_bought_is_named_with_the_level_it_brings():
    """An Upgrade card is named by its family and the level it brings (rulebook: "buy Government
    lvl2"), not counted: a family is bought once a Year."""
    from pipeline_tui.data import components as C

    game = Game(GameSetup.default(players=2, seed=7))
    for _ in range(10):
        game.apply(parse_move("start-tank C"))
    seat = game.current_player
    game.apply(parse_move("act upgrades"))
    buy = next(m for m in game.legal_moves() if type(m) is M.BuyUpgrade)
    family = C.upgrade_family(buy.family).name
    assert plan_words(game.state, seat, [buy]) == f"buy {family} I for $20"
