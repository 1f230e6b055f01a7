"""Snapshots of the main screens at 80 x 24 and 160 x 48 (pytest-textual-snapshot); the table,
the new-game form and the scores screen also in Russian (``test_russian_*``, issue 15: the
layout holds with the longer words).

Update them with ``pytest tests/ui --snapshot-update`` after an intended change of the layout.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pytest_textual_snapshot")

import os  # noqa: E402
from datetime import datetime  # noqa: E402

from pipeline_tui import storage  # noqa: E402
from pipeline_tui.engine.game import Game  # noqa: E402
from pipeline_tui.engine.moves import Action, BuyPipe  # noqa: E402
from pipeline_tui.engine.setup import GameSetup  # noqa: E402
from pipeline_tui.ui.app import PipelineApp  # noqa: E402

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}
OPENING = ["start-tank C", "start-tank L", "start-tank M", "start-tank H", "start-tank C"] * 2


def table_app(tmp_path, players=4):
    return PipelineApp(mode="new", players=players, seed=11, saves_dir=tmp_path)


async def _opening(pilot, extra=()):
    screen = pilot.app.screen
    for text in OPENING[: 5 * len(screen.game.state.players)] + list(extra):
        screen.game.play(text)
    screen.refresh_table()
    screen.query_one("#prompt").cursor_blink = False
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_table_after_setup(snap_compare, tmp_path, size):
    assert snap_compare(table_app(tmp_path), terminal_size=SIZES[size], run_before=_opening)


@pytest.mark.parametrize("size", SIZES)
def test_table_with_ghost_tile(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await _opening(pilot)
        screen = pilot.app.screen
        assert screen.play(Action(action="tanks"))
        assert screen.play(BuyPipe(index=0))
        await pilot.pause()

    assert snap_compare(table_app(tmp_path, players=2), terminal_size=SIZES[size], run_before=run_before)


def test_title_screen(snap_compare, tmp_path):
    assert snap_compare(PipelineApp(mode="title", saves_dir=tmp_path), terminal_size=(80, 24))


def _new_game_form(snap_compare, tmp_path, monkeypatch, size):
    monkeypatch.setattr("pipeline_tui.ui.screens.bot_kinds", lambda: ())

    async def run_before(pilot):
        pilot.app.screen.query_one("#name-0").cursor_blink = False

    return snap_compare(
        PipelineApp(mode="new", saves_dir=tmp_path), terminal_size=SIZES[size], run_before=run_before
    )


def _scores(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await _opening(pilot)
        await pilot.press("f6")

    return snap_compare(table_app(tmp_path, players=3), terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_new_game_screen(snap_compare, tmp_path, monkeypatch, size):
    assert _new_game_form(snap_compare, tmp_path, monkeypatch, size)


@pytest.mark.parametrize("size", SIZES)
def test_scores_screen(snap_compare, tmp_path, size):
    assert _scores(snap_compare, tmp_path, size)


@pytest.mark.parametrize("size", SIZES)
def test_russian_table(snap_compare, tmp_path, size, russian):
    assert snap_compare(table_app(tmp_path), terminal_size=SIZES[size], run_before=_opening)


@pytest.mark.parametrize("size", SIZES)
def test_russian_new_game_screen(snap_compare, tmp_path, monkeypatch, size, russian):
    assert _new_game_form(snap_compare, tmp_path, monkeypatch, size)


@pytest.mark.parametrize("size", SIZES)
def test_russian_scores_screen(snap_compare, tmp_path, size, russian):
    assert _scores(snap_compare, tmp_path, size)


def test_too_small(snap_compare, tmp_path):
    assert snap_compare(table_app(tmp_path, players=2), terminal_size=(60, 20))


def _saved_opening(folder):
    """A save of a 3-player game after setup and two moves, written at a fixed time."""
    game = Game(GameSetup.default(3, 11))
    for text in OPENING[:5] * 3 + ["act crude", "buy C-OC#1"]:
        game.play(text)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "opening.json"
    storage.save_game(game, path, {"created": "2026-01-02T03:04:05Z"})
    stamp = datetime(2026, 1, 2, 3, 4).timestamp()
    os.utime(path, (stamp, stamp))
    return path


@pytest.mark.parametrize("size", SIZES)
def test_replay_viewer(snap_compare, tmp_path, size):
    path = _saved_opening(tmp_path)
    app = PipelineApp(mode="replay", file=path, saves_dir=tmp_path)
    assert snap_compare(app, terminal_size=SIZES[size], press=["end", "left"])


@pytest.mark.parametrize("size", SIZES)
def test_load_screen(snap_compare, tmp_path, monkeypatch, size):
    monkeypatch.chdir(tmp_path)
    _saved_opening(tmp_path / "saves")
    broken = tmp_path / "saves" / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    stamp = datetime(2026, 1, 1, 9, 0).timestamp()
    os.utime(broken, (stamp, stamp))
    app = PipelineApp(mode="load", saves_dir="saves")
    assert snap_compare(app, terminal_size=SIZES[size])


@pytest.mark.parametrize("size", SIZES)
def test_help_screen(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await pilot.press("f1")

    assert snap_compare(
        PipelineApp(mode="title", saves_dir=tmp_path), terminal_size=SIZES[size], run_before=run_before
    )


@pytest.mark.parametrize("size", SIZES)
def test_components_reference(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await _opening(pilot)
        await pilot.press("f7")
        await pilot.pause()
        await pilot.press("right", "right")  # the Markets tab
        await pilot.pause()

    assert snap_compare(table_app(tmp_path, players=3), terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_cards_on_the_table(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await _opening(pilot)
        await pilot.press("f8")
        await pilot.pause()
        await pilot.press("down", "down")
        await pilot.pause()

    assert snap_compare(table_app(tmp_path, players=3), terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_tutorial_first_step(snap_compare, tmp_path, size):
    async def run_before(pilot):
        pilot.app.start_tutorial(seed=5)  # the person places Tanks first on this seed
        await pilot.pause()
        pilot.app.screen.query_one("#prompt").cursor_blink = False
        await pilot.pause()

    app = PipelineApp(mode="title", saves_dir=tmp_path)
    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_scores_chart(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await _opening(pilot, extra=["act crude", "buy C-OC#1", "done", "end"])
        await pilot.press("f6")
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()

    assert snap_compare(table_app(tmp_path, players=2), terminal_size=SIZES[size], run_before=run_before)
