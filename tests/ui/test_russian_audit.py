"""The audit of issue 15: with Russian chosen, every screen a player can reach shows no English.

Each test opens screens the way a player does (keys, the palette) and reads what they show: the
screen as drawn (the same render the screenshots take) and the whole text of every widget on
it, scrolled out of sight or on a tab not chosen. Any word of Latin letters not on the short
list in ``tests/latin.py`` (the move notation and its codes, key names, Roman levels, the
command's name, the players' names) fails the test, named with the screen it was found on.
A failure reads ``{screen: [words]}``: find the word on that screen, mark its string for
translation (``docs/translating.md``) and translate it.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text
from textual.content import Content
from textual.command import CommandList, CommandPalette
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Input, OptionList, Select, Static, TabbedContent

from pipeline_tui import storage
from pipeline_tui.ai import choose_move
from pipeline_tui.engine import Game, GameSetup, PlayerSetup, format_move
from pipeline_tui.net.hub import Hub
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.help_panel import TranslatedHelpPanel
from pipeline_tui.ui.lobby import LobbyScreen, SeatScreen, SharedApp
from pipeline_tui.ui.network_view import NetworkViewScreen
from pipeline_tui.ui.reference_screen import CardsScreen, ReferenceScreen
from pipeline_tui.ui.screens import (
    EndScreen,
    HelpScreen,
    LoadScreen,
    NewGameScreen,
    SaveAsScreen,
)
from pipeline_tui.ui.table_screen import TableScreen
from pipeline_tui.ui.title import TitleScreen
from pipeline_tui.ui.tutorial import Tutorial, tutorial_setup

from tests.latin import english_words

NAMES = ("Ada", "Bo", "Cy", "Di", "alice", "SHA")  # the seats; the shared table's user and key
SIZES = [(80, 24), (160, 48)]
FIXTURES = Path(__file__).parent.parent / "fixtures" / "saves"


def drawn(app) -> str:
    """The screen on top as drawn, as text (what ``App.export_screenshot`` draws, without the
    SVG; the screens under a modal one are read on their own, not through its gaps)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        legacy_windows=False,
        safe_box=False,
        force_terminal=True,
        color_system=None,
    )
    console.print(app.screen._compositor.render_update(full=True))  # the screen on top only
    text = console.export_text()
    if not isinstance(app.screen, ModalScreen):
        return text
    # A modal screen lets the screen under it show around its boxes, words cut at their edges.
    boxes = [widget.region for widget in app.screen.children if widget.display]
    return "\n".join(
        "".join(ch if any(box.contains(x, y) for box in boxes) else " " for x, ch in enumerate(line))
        for y, line in enumerate(text.splitlines())
    )


def widget_texts(screen) -> str:
    """The whole text of every widget of ``screen``, shown or scrolled away or on another tab."""
    parts: list[str] = []
    for widget in screen.query("*"):
        for title in (widget.border_title, widget.border_subtitle):
            if title:
                parts.append(str(title))
        if isinstance(widget, Static) and isinstance(widget.content, (str, Text, Content)):
            parts.append(str(widget.content))
        if isinstance(widget, OptionList):
            parts += [str(widget.get_option_at_index(i).prompt) for i in range(widget.option_count)]
        if isinstance(widget, DataTable):
            parts += [str(column.label) for column in widget.columns.values()]
            parts += [str(cell) for row in range(widget.row_count) for cell in widget.get_row_at(row)]
        if isinstance(widget, Input) and widget.placeholder:
            parts.append(widget.placeholder)
        if isinstance(widget, Select) and widget.is_blank():
            parts.append(str(widget.prompt))
    return "\n".join(parts)


class Audit:
    """English words found, by the screen they were found on."""

    def __init__(self, game: Game | None = None) -> None:
        self.found: dict[str, list[str]] = {}
        self.lines: list[str] = []
        self.game = game

    def notation(self) -> tuple[str, ...]:
        if self.game is None:
            return ()
        moves = [format_move(m) for m in self.game.moves]
        if not self.game.is_over():
            moves += [format_move(m) for m in self.game.legal_moves()]
        return tuple(moves)

    async def read(self, pilot, where: str, screen: type[Screen]) -> None:
        """Read the screen on top, which must be a ``screen`` (else the audit missed its way)."""
        await pilot.pause()
        app = pilot.app
        assert isinstance(app.screen, screen), f"{where}: {type(app.screen).__name__} is on top"
        text = drawn(app) + "\n" + widget_texts(app.screen)
        words = english_words(text, names=NAMES, notation=self.notation())
        if words:
            self.found[f"{where} {app.size.width}x{app.size.height}"] = words
            self.lines += [f"{where}: {word!r} in {line_of(text, word)!r}" for word in words]

    def report(self) -> str:
        """Every word found, with the screen and the line it was on."""
        return "English on a Russian screen:\n" + "\n".join(self.lines)


def line_of(text: str, word: str) -> str:
    """The first line of ``text`` with ``word`` as a whole word, trimmed."""
    for line in text.splitlines():
        if re.search(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", line):
            return " ".join(line.split())[:120]
    return ""


def played(players: int, moves: int, seed: int = 4) -> Game:
    """A game of ``players`` computer-chosen for ``moves`` moves: Tanks, tiles, Contracts on it."""
    game = Game(GameSetup(seed=seed, players=tuple(PlayerSetup(n) for n in NAMES[:players])))
    for _ in range(moves):
        game.apply(choose_move(game, "heuristic", seed=1))
    return game


@pytest.mark.parametrize("size", SIZES)
async def test_the_screens_around_the_table_speak_only_russian(tmp_path, russian, size) -> None:
    game = played(2, 60)
    storage.save_game(game, tmp_path / "friday.json")
    audit = Audit(game)
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=size) as pilot:
        await audit.read(pilot, "title", TitleScreen)
        await pilot.press("f1")
        await audit.read(pilot, "help", HelpScreen)
        await pilot.press("escape")
        app.push_screen(NewGameScreen())
        await pilot.pause()
        for players in (2, 3, 4):
            app.screen.query_one("#players", Select).value = players
            await audit.read(pilot, f"new game {players}", NewGameScreen)
        app.pop_screen()
        for replay in (False, True):
            app.push_screen(LoadScreen(replay=replay))
            await audit.read(pilot, "replay" if replay else "load", LoadScreen)
            app.pop_screen()
        await pilot.press("f7")
        await audit.read(pilot, "components", ReferenceScreen)
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await audit.read(pilot, "palette", CommandPalette)
        assert app.screen.query_one(CommandList).option_count > 5  # the commands are listed
        await pilot.press("escape")
        app.action_show_help_panel()
        await audit.read(pilot, "keys panel", TitleScreen)
        assert app.screen.query(TranslatedHelpPanel)
    assert audit.found == {}, audit.report()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [2, 4])
async def test_the_table_and_its_views_speak_only_russian(tmp_path, russian, size, players) -> None:
    game = played(players, 40 * players)
    audit = Audit(game)
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=size) as pilot:
        app.push_screen(TableScreen(game, tmp_path))
        await audit.read(pilot, "table", TableScreen)
        for key in ("f3", "f4", "f5", "f2"):
            await pilot.press(key)
            await audit.read(pilot, f"table {key}", TableScreen)
        await pilot.press("h")
        await audit.read(pilot, "hint", TableScreen)
        await pilot.press("ctrl+p")
        await audit.read(pilot, "palette at the table", CommandPalette)
        await pilot.press("escape")
        app.action_show_help_panel()
        await audit.read(pilot, "keys panel at the table", TableScreen)
        assert app.screen.query(TranslatedHelpPanel)
        app.action_hide_help_panel()
        await pilot.press("f8")
        await audit.read(pilot, "cards", CardsScreen)
        await pilot.press("escape")
        await pilot.press("n")
        await audit.read(pilot, "network view", NetworkViewScreen)
        await pilot.press("z")
        await audit.read(pilot, "network view zoomed", NetworkViewScreen)
        await pilot.press("escape")
        await pilot.press("f6")
        await audit.read(pilot, "scores", EndScreen)
        await pilot.press("g")
        await audit.read(pilot, "chart", EndScreen)
        assert app.screen.query_one("#end-tabs", TabbedContent).active == "end-chart"
        await pilot.press("escape")
        await pilot.press("escape")
        await pilot.press("ctrl+s")
        await audit.read(pilot, "save as", SaveAsScreen)
    assert audit.found == {}, audit.report()


@pytest.mark.parametrize("size", SIZES)
async def test_the_tutorial_and_the_replay_speak_only_russian(tmp_path, russian, size) -> None:
    game = Game(tutorial_setup(7))
    audit = Audit(game)
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=size) as pilot:
        app.push_screen(TableScreen(game, tmp_path, policy=Tutorial()))
        await audit.read(pilot, "tutorial", TableScreen)
    finished = played(2, 30)
    storage.save_game(finished, tmp_path / "replayed.json")
    audit.game = finished
    app = PipelineApp(mode="replay", file=tmp_path / "replayed.json", saves_dir=tmp_path)
    async with app.run_test(size=size) as pilot:
        await audit.read(pilot, "replay", TableScreen)
        await pilot.press("left")
        await audit.read(pilot, "replay a step back", TableScreen)
    assert audit.found == {}, audit.report()


async def test_the_lobby_of_shared_tables_speaks_only_russian(tmp_path, russian) -> None:
    hub = Hub(tmp_path / "tables", bot_delay=0.0)
    sock = tmp_path / "hub.sock"
    await hub.start(sock)
    try:
        hub.service.create(GameSetup(seed=3, players=(PlayerSetup("Ada"), PlayerSetup("Bo", "heuristic"))))
        audit = Audit()
        app = SharedApp(sock, hub.issue_token("SHA256:alice", "alice"))
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(100):
                if isinstance(app.screen, LobbyScreen) and app.screen.tables:
                    break
                await pilot.pause(0.02)
            await audit.read(pilot, "lobby", LobbyScreen)
            await pilot.press("enter")
            await audit.read(pilot, "seat menu", SeatScreen)
            await pilot.press("escape")
            await pilot.press("n")
            await audit.read(pilot, "new table", NewGameScreen)
            await pilot.press("escape")
            await audit.read(pilot, "lobby again", LobbyScreen)
            await pilot.press("enter")
            await audit.read(pilot, "seat menu again", SeatScreen)
            await pilot.press("enter")  # sit at the first open seat
            for _ in range(100):
                if isinstance(app.screen, TableScreen):
                    break
                await pilot.pause(0.02)
            audit.game = app.screen.game
            await audit.read(pilot, "shared table", TableScreen)
            await pilot.press("f5")
            await audit.read(pilot, "shared table log", TableScreen)
        assert audit.found == {}, audit.report()
    finally:
        await hub.close()


@pytest.mark.parametrize("size", SIZES)
async def test_a_finished_game_speaks_only_russian_and_its_sheet_fits(tmp_path, russian, size) -> None:
    """The end of a 4-player game: the table, the final scores (which fit the width without
    scrolling sideways), the chart, the full networks and the help at the table."""
    game = storage.load_game(FIXTURES / "v2-ed2-finished-4p.json")
    assert game.is_over()
    audit = Audit(game)
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=size) as pilot:
        app.push_screen(TableScreen(game, tmp_path))
        await audit.read(pilot, "finished table", TableScreen)
        await pilot.press("f4")
        await audit.read(pilot, "finished networks", TableScreen)
        await pilot.press("f1")
        await audit.read(pilot, "help at the table", HelpScreen)
        await pilot.press("escape")
        await pilot.press("f6")
        await audit.read(pilot, "final scores", EndScreen)
        sheet = app.screen.query_one("#scores", DataTable)
        assert sheet.max_scroll_x == 0, "the score sheet scrolls sideways"
        await pilot.press("g")
        await audit.read(pilot, "final chart", EndScreen)
    assert audit.found == {}, audit.report()


async def test_the_too_small_notice_speaks_only_russian(tmp_path, russian) -> None:
    game = played(2, 10)
    audit = Audit(game)
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=(60, 20)) as pilot:
        await audit.read(pilot, "title, too small", TitleScreen)
        app.push_screen(TableScreen(game, tmp_path))
        await audit.read(pilot, "table, too small", TableScreen)
        assert "80" in drawn(app)  # the notice names the size it needs
    assert audit.found == {}, audit.report()
