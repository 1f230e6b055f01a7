"""The language switched live from the command palette and remembered (issue 15, point 2); the
shared tables' lobby choice, kept per key, is in tests/server/test_languages.py."""

from __future__ import annotations

import time

import pytest
from textual.widgets._footer import FooterKey

from pipeline_tui import cli, i18n
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.table_screen import TableScreen

TIMEOUT = 30.0


@pytest.fixture(autouse=True)
def english_after(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    try:
        yield
    finally:
        i18n.set_language("en")


async def until(pilot, condition, what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await pilot.pause(0.02)


def footer_keys(screen) -> list[str]:
    return [key.description for key in screen.query(FooterKey)]


async def choose_in_palette(pilot, text: str) -> None:
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*text)
    await pilot.pause(0.3)
    await pilot.press("enter")


async def test_the_palette_switches_the_table_to_russian_and_a_restart_keeps_it(tmp_path) -> None:
    app = PipelineApp(mode="new", players=2, seed=3, saves_dir=tmp_path / "saves")
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        table = app.screen
        assert "Quit" in footer_keys(table)
        await choose_in_palette(pilot, "Русский")
        await until(pilot, lambda: i18n.current_language() == "ru", "Russian")
        await until(pilot, lambda: "Выход" in footer_keys(table), "the footer in Russian")
        assert app.screen is table and "Quit" not in footer_keys(table)
        assert i18n.remembered_language() == "ru"
        assert [c.title for c in app.language_commands()] == ["Язык: English"]
    i18n.set_language("en")
    cli._choose_language([])  # what the next start does
    assert i18n.current_language() == "ru"
    again = PipelineApp(mode="new", players=2, seed=3, saves_dir=tmp_path / "saves")
    async with again.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: isinstance(again.screen, TableScreen), "the table")
        await until(pilot, lambda: "Выход" in footer_keys(again.screen), "Russian from the start")
        await choose_in_palette(pilot, "English")
        await until(pilot, lambda: "Quit" in footer_keys(again.screen), "the footer in English")
    assert i18n.remembered_language() == "en"
