"""The table in Russian (issue 15): panel titles, move descriptions, the footer's keys and the
hint speak the chosen language, notation stays as it is, and a live switch redraws it all."""

from __future__ import annotations

import pytest

from pipeline_tui import i18n
from pipeline_tui.engine.game import Game
from pipeline_tui.engine.moves import format_move, parse_move
from pipeline_tui.engine.setup import GameSetup
from pipeline_tui.ui import panels
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.widgets import MoveList, MoveLog, SteadyFooter, TooSmall

from tests.ui.pilot import choose, hint


def listed(screen) -> list[str]:
    return [option.prompt.plain for option in screen.query_one("#moves", MoveList).options]


def footer_words(app) -> str:
    return " ".join(
        str(getattr(key, "description", "")) for key in app.screen.query_one(SteadyFooter).children
    )


def footer_tips(app) -> list[str]:
    """The tooltips of the footer's keys, shown when the mouse rests on one."""
    return [str(key.tooltip) for key in app.screen.query_one(SteadyFooter).children if key.tooltip]


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_the_table_speaks_russian(tmp_path, russian, size):
    app = PipelineApp(saves_dir=tmp_path, mode="new", players=2, seed=7)
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert screen.query_one("#cross").border_title == "Крест действий"
        assert screen.query_one("#contracts").border_title == "Контракты и заказы"
        assert screen.query_one("#log-view").border_title == "Журнал ходов"
        assert screen.query_one("#moves").border_title == "Ходы"
        assert "Подготовка" in listed(screen)  # the heading of the starting Tanks
        assert "start-tank C  Бесплатная цистерна в ряд сырой нефти" in listed(screen)
        assert "Отмена" in footer_words(app) and "Undo" not in footer_words(app)
        assert "Открыть палитру команд" in footer_tips(app)
        for _ in range(10):
            assert screen.play(parse_move("start-tank C"))
        await pilot.pause()
        await choose(pilot, "act crude")
        buy = next(format_move(m) for m in screen.shown_moves if format_move(m).startswith("buy C-OC"))
        entry = next(line for line in listed(screen) if line.startswith(buy + "  "))
        assert entry.startswith(f"{buy}  Купить куб оранжевой сырой нефти за $")  # notation as is
        name = screen.game.state.players[screen.game.current_player].name
        assert f"Ходит {name}." in hint(app)


async def test_a_live_switch_redraws_the_table_in_the_new_language(tmp_path, russian):
    app = PipelineApp(saves_dir=tmp_path, mode="new", players=2, seed=7)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = app.screen
        assert "Парк цистерн" in str(screen.query_one("#board").render())
        i18n.set_language("en")
        screen.refresh_table()
        await pilot.pause()
        await pilot.pause()
        assert screen.query_one("#cross").border_title == "Action cross"
        assert "Tank Farm" in str(screen.query_one("#board").render())
        assert "start-tank C  Free Tank in the Crude row" in listed(screen)
        assert "Undo" in footer_words(app) and "Отмена" not in footer_words(app)
        assert "Open the command palette" in footer_tips(app)
        assert "Pipeline needs at least 80 x 24" in str(screen.query_one(TooSmall).render())


def test_cached_panels_follow_the_language(russian):
    """The markets, Contracts, shops and Government are cached; the cache keeps each language
    apart, so English comes back after Russian."""
    state = Game(GameSetup.default(players=2, seed=7)).state
    assert panels.shops(state).plain.startswith("Цистерны ")
    assert "Запас" in panels.market(state, "C").plain
    i18n.set_language("en")
    assert panels.shops(state).plain.startswith("Tanks    ")
    assert "Bank" in panels.market(state, "C").plain


async def test_a_computer_turn_is_summarised_in_russian_and_again_after_a_switch(
    tmp_path, monkeypatch, russian
):
    """The summary line of a computer's turn (issue 16 point 6) in Russian, counted in Russian
    forms; switched to English, the log says it again in English."""
    from pipeline_tui.engine.setup import PlayerSetup

    from tests.ui.test_table import fake_bots, setup_until_the_computer_has_played

    fake_bots(monkeypatch, "first", lambda game: game.legal_moves()[0])
    app = PipelineApp(mode="new", saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game(GameSetup(seed=3, players=(PlayerSetup("Ann"), PlayerSetup("Bot", "first"))))
        await pilot.pause()
        screen = app.screen
        await setup_until_the_computer_has_played(pilot)

        def summary() -> str:
            log = [text.plain for text in screen.query_one(MoveLog).lines]
            return " ".join(row.strip() for row in log if row.startswith("     "))

        assert summary().startswith("= Bot — размещено: ")
        assert "стартов" in summary() and "цистерн" in summary()
        assert "Bot — размещено: " in hint(app)
        i18n.set_language("en")
        screen.refresh_table()
        await pilot.pause()
        assert summary().startswith("= Bot: placed ")


@pytest.mark.parametrize("size", ["80x24", "160x48"])
def test_russian_table_snapshot(snap_compare, tmp_path, russian, size):
    """Issue 15 point 5: the table in Russian holds its layout at 80x24 and 160x48 (the same
    opening as the English snapshots of tests/ui/test_snapshots.py)."""
    pytest.importorskip("pytest_textual_snapshot")
    from tests.ui.test_snapshots import SIZES, _opening, table_app

    assert snap_compare(table_app(tmp_path), terminal_size=SIZES[size], run_before=_opening)


@pytest.mark.parametrize("players", [2, 4])
async def test_the_russian_status_line_breaks_between_its_parts(tmp_path, russian, players):
    """At 80 columns the Russian status takes two lines; each of its parts (the Year, the seat
    to act, this Round's order, the next Round's, the workers) stays whole on one of them."""
    app = PipelineApp(saves_dir=tmp_path, mode="new", players=players, seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one("#status")
        lines = [line.plain.rstrip() for line in bar._lines]
        parts = [part.plain for part in panels.status_parts(app.screen.game.state)]
        assert parts[3].startswith("Далее:") and parts[4].startswith("Рабочие")
        assert len(lines) == 2
        for part in parts:
            assert sum(part in line for line in lines) == 1, (part, lines)
        assert " ".join(" ".join(lines).split()) == " ".join(" ".join(parts).split())
        first = bar._lines[0]  # the Year's bold stays on the Year
        assert first.get_style_at_offset(app.console, 0).bold
        assert not first.get_style_at_offset(app.console, first.plain.index("Порядок")).bold
