"""Issue 15 for the engine, the data, storage and the ai: refusals, notation errors, save errors,
score labels, hints and the arena's tables speak the current language (built when raised or
computed), while the move notation stays the same ASCII and parses in every language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pipeline_tui import ai, i18n
from pipeline_tui.ai.arena import Pairing, ladder_report, report, run_games, summarise
from pipeline_tui.data import components as C
from pipeline_tui.engine import Game, GameSetup, IllegalMove, NotationError, Stage, format_move, parse_move
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.rules import action_title
from pipeline_tui.engine.scoring import score_player
from pipeline_tui.i18n import _
from pipeline_tui.storage import SaveError, decode_save, load_game

from tests.helpers import me, new_game, play


def _refusal(game: Game, text: str) -> str:
    with pytest.raises(IllegalMove) as refused:
        game.play(text)
    return str(refused.value)


def test_refusals_name_the_rule_in_russian(russian: None) -> None:
    game = new_game()
    play(game, "act crude")
    assert _refusal(game, "act refined1") == (
        "Рынок сырой нефти: это действие ещё идёт; сначала завершите его («done»)"
    )
    slots = len(game.state.markets[C.MARKET_ROW_INDEX["C-SC"]])
    assert _refusal(game, f"buy C-SC#{slots + 1}") == (
        f"Рынки: в ряду C-SC нет места {slots + 1} (места с 1 по {slots})"
    )
    other = new_game()
    play(other, "pass")
    assert _refusal(other, "pass") == "Пас: вы спасовали; дальше машинная фаза («end» заканчивает ход)"
    assert other.why_illegal(M.PlaceTile(x=0, y=0, rot=0)) == (
        "Сеть нефтепроводов: у вас нет тайла трубы, который надо положить"
    )


def test_a_refusal_names_the_tank_farm_row_in_the_language_it_is_raised_in() -> None:
    game = new_game()
    play(game, "act crude")
    index = C.MARKET_ROW_INDEX["C-OC"]
    slot = next(i for i, colour in enumerate(game.state.markets[index]) if colour >= 0)
    move = M.Buy(row="C-OC", slot=slot)
    assert game.why_illegal(move) is None
    me(game).tanks = [0, 0, 0, 0]
    assert game.why_illegal(move) == "Tank Farm: no free Tank in the Crude row"
    i18n.set_language("ru")
    try:
        assert game.why_illegal(move) == "Парк цистерн: в ряду «Сырая» нет свободной цистерны"
    finally:
        i18n.set_language("en")
    assert game.why_illegal(move) == "Tank Farm: no free Tank in the Crude row"


def test_action_names_follow_a_live_language_switch() -> None:
    assert action_title("tanks") == _(C.ACTION_NAMES["tanks"]) == "Tanks & Pipes"
    i18n.set_language("ru")
    try:
        assert action_title("tanks") == _(C.ACTION_NAMES["tanks"]) == "Цистерны и трубы"
        assert action_title("machines_phase") == "Машинная фаза (работа насосов)"
        assert _(C.MARKET_NAMES["2"]) == "Рынок сортовой нефти 2"
    finally:
        i18n.set_language("en")
    assert action_title("machines_phase") == "Machine Phase (running Machines)"


def test_notation_errors_in_russian_with_russian_plurals(russian: None) -> None:
    with pytest.raises(NotationError, match=r"^неизвестный ход «frobnicate»$"):
        parse_move("frobnicate")
    with pytest.raises(NotationError, match=r"^«buy» принимает 1 аргумент, получено 0$"):
        parse_move("buy")
    with pytest.raises(NotationError, match=r"^«sell» принимает 2 аргумента, получено 0$"):
        parse_move("sell")
    with pytest.raises(NotationError, match=r"^неизвестный цвет нефти «X» \(используйте O, T или S\)$"):
        parse_move("sell 2-TH#1 XH")


def _positions() -> Iterator[Game]:
    """A few positions of one game: setup, mid Action, a placement, the Machine Phase."""
    game = Game(GameSetup.default(players=3, seed=4))
    bot = ai.make_bot("random", seed=2)
    while not game.is_over() and len(game.moves) < 160:
        if len(game.moves) % 8 == 0:
            yield game
        game.apply(bot.choose(game.clone()))


TYPED = (
    "start-tank C",
    "act crude",
    "second tanks",
    "gov 1.2",
    "run 0,0",
    "run-machine 1,0",
    "pass",
    "done",
    "machines",
    "end",
    "order-place 2",
    "buy C-OC#1",
    "sell 2-TH#1 TH",
    "contract CL.1",
    "contract o4.2 deferred",
    "loan",
    "tank 1 L",
    "machine 2",
    "pipe 3",
    "place 2,-1 r3",
    "put-machine 0,0",
    "upgrade gov",
    "flip ENG",
    "gov-more 4",
    "refine 2,0/1 C>M",
    "deliver 1.2 M",
    "fulfil O4.1 LMMH",
    "take-gov 2.3",
    "take-tank 1 H",
    "take-machine stack",
    "take-pipe T3",
    "decline",
)


def test_every_verb_typed_parses_the_same_in_both_languages() -> None:
    english = [parse_move(text) for text in TYPED]
    i18n.set_language("ru")
    try:
        assert [parse_move(text) for text in TYPED] == english
        assert [parse_move(format_move(m)) for m in english] == english
    finally:
        i18n.set_language("en")
    assert len({type(m) for m in english}) == len(M.AnyMove.__args__)


def test_the_legal_moves_parse_the_same_in_both_languages() -> None:
    checked = 0
    for game in _positions():
        legal = game.legal_moves()
        english = [format_move(m) for m in legal]
        i18n.set_language("ru")
        try:
            assert [format_move(m) for m in legal] == english
            assert [parse_move(text) for text in english] == legal
            assert all(text.isascii() for text in english)
        finally:
            i18n.set_language("en")
        assert [parse_move(text) for text in english] == legal
        checked += len(legal)
    assert checked > 100


def test_save_errors_in_russian(russian: None, tmp_path) -> None:
    with pytest.raises(SaveError, match=r"^game\.json: файл пуст$"):
        decode_save(b"  ", "game.json")
    with pytest.raises(SaveError, match=r"^missing\.json: нет такого файла$"):
        load_game(tmp_path / "missing.json")
    with pytest.raises(SaveError, match=r'^game\.json: это не сохранение pipeline-tui \(нет "format"'):
        decode_save(b'{"a": 1}', "game.json")


def test_score_labels_in_russian_with_three_plural_forms(russian: None) -> None:
    game = new_game()
    state, player = game.state, me(game)
    labels = {}
    for penalties in (1, 3, 5, 21):
        player.penalties = penalties
        lines = {line.step: line.label for line in score_player(state, player)}
        labels[penalties] = lines["penalties"]
    assert labels == {
        1: "Штрафы (1 куб)",
        3: "Штрафы (3 куба)",
        5: "Штрафы (5 кубов)",
        21: "Штрафы (21 куб)",
    }
    assert lines["cash"] == "Деньги"
    assert lines["valuation_tile"] == "Стоимость нефтепроводов с насосами"


def test_a_hint_gives_its_reason_in_russian(russian: None) -> None:
    game = Game(GameSetup.default(players=2, seed=3))
    advice = ai.make_bot("heuristic", samples=1).advise(game)
    assert advice.reason == (
        "Стартовые цистерны по правилам (2 для сырой нефти, затем низкого, среднего и высокого сорта): "
        "разместить 1 стартовую цистерну сырой нефти"
    )
    game.apply(advice.move)
    while game.state.turn.stage == Stage.SETUP:
        game.apply(game.legal_moves()[0])
    advice = ai.make_bot("heuristic", samples=1).advise(game)
    assert advice.reason.startswith("Примерно на $") and "выгоднее, чем спасовать: " in advice.reason
    assert format_move(advice.move) not in advice.reason  # the turn in words, not notation


def test_the_arena_table_heads_its_columns_in_russian_aligned_with_its_rows() -> None:
    records = run_games(["random", "random"], 2, 1, 7, 1)
    english = report(summarise(records))
    i18n.set_language("ru")
    try:
        russian = report(summarise(records))
    finally:
        i18n.set_language("en")
    assert english[0].split()[:2] == ["bot", "games"]
    assert russian[0].split()[:2] == ["бот", "партии"]
    assert len(russian[0]) == len(russian[1]) == len(english[0]) == len(english[1])


def test_the_ladder_tables_head_their_columns_in_russian_within_their_widths() -> None:
    pairings = [Pairing("random", "heuristic", run_games(["random", "heuristic"], 2, 1, 3, 1, samples=1))]
    i18n.set_language("ru")
    try:
        lines = ladder_report(pairings)
    finally:
        i18n.set_language("en")
    assert lines[0].split()[0] == "пара" and lines[1].startswith("random — heuristic")
    assert len(lines[0]) == len(lines[1]) and len(lines[3]) == len(lines[4])
