"""A session's start does no work its zygote did for it (issue 38): the CSS every session
parses is parsed once, before forking, and a session in the lobby parses none itself; and an
idle lobby does not draw its unchanged list again."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

from textual.app import App
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, Static

from pipeline_tui.engine.setup import GameSetup, PlayerSetup
from pipeline_tui.serve import session, zygote
from pipeline_tui.ui import compat
from pipeline_tui.ui.lobby import LobbyScreen, SharedApp

from tests.server.test_remote import pilot_until


async def parsed_on_the_way_to_the_lobby(served) -> tuple[list[object], bool]:
    """Run a session's app to its lobby: the CSS sources it parsed itself, and whether the
    lobby's heading has its style class (the rules it took from the shared parse hold)."""
    hub, sock = served
    read, write = os.pipe()
    try:
        app = session.session_app()(sock, hub.issue_token("SHA256:ada", "ada"))
        app.control = read
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await pilot.pause()
            heading = app.screen.query_one("#lobby-heading").has_class("heading")
            return list(app.stylesheet._parse_cache.keys()), heading
    finally:
        os.close(read)
        os.close(write)


async def test_a_session_reaches_the_lobby_parsing_no_css_its_zygote_parsed(served, monkeypatch):
    monkeypatch.setattr(compat.SharedStylesheet, "parsed", {})
    assert session.warm_up() > 20  # as serve/zygote.py's preload does
    parsed, heading = await parsed_on_the_way_to_the_lobby(served)
    assert parsed == []  # parsed nothing itself
    assert heading


async def test_without_the_zygote_a_session_parses_its_css_itself(served, monkeypatch):
    monkeypatch.setattr(compat.SharedStylesheet, "parsed", {})
    parsed, _heading = await parsed_on_the_way_to_the_lobby(served)
    assert len(parsed) > 10


async def test_the_lobby_draws_a_list_again_only_when_it_changed(served, monkeypatch):
    """The lobby reads the list every 2 s; an idle lobby's list is the same each time, and
    drawing it again laid out and sent the screen every 2 s in every session."""
    hub, sock = served
    cleared = []
    clear = DataTable.clear
    monkeypatch.setattr(DataTable, "clear", lambda self, *a, **k: cleared.append(1) or clear(self, *a, **k))
    app = SharedApp(sock, hub.issue_token("SHA256:ada", "ada"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen) and cleared, "the list")
        lobby = app.screen
        error = lobby.query_one("#lobby-error", Static)
        assert "No tables yet" in str(error.render())
        for _ in range(2):
            lobby.action_refresh()
            await pilot.pause(0.1)
        assert len(cleared) == 1  # the same list: not drawn again
        lobby.show_error("the tables are busy")
        lobby.action_refresh()
        await pilot_until(pilot, lambda: "No tables yet" in str(error.render()), "the error replaced")
        hub.service.create(GameSetup(seed=1, players=(PlayerSetup("Ada"), PlayerSetup("Bo"))), "Table 1")
        lobby.action_refresh()
        await pilot_until(
            pilot, lambda: lobby.query_one("#tables", DataTable).row_count == 1, "the new table"
        )
        assert "1 table" in str(lobby.query_one("#lobby-heading", Label).render())


async def test_the_lobbys_footer_makes_its_keys_once(served, monkeypatch):
    """Textual's Footer makes its keys again at every bindings signal: four times in a
    session's first moments in the lobby, each restyled, laid out and drawn."""
    hub, sock = served
    made = []
    recompose = Footer.recompose
    monkeypatch.setattr(Footer, "recompose", lambda self: made.append(1) or recompose(self))
    app = SharedApp(sock, hub.issue_token("SHA256:ada", "ada"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.pause(0.3)
        footer = app.screen.query_one(Footer)
        assert "New table" in " ".join(str(getattr(key, "description", "")) for key in footer.children)
        assert len(made) == 1


async def test_the_lobby_is_styled_once_for_its_window(served, monkeypatch):
    """The lobby's widgets are styled as they are made, and not all again as it is first shown
    (Textual's ScreenResume) nor as the terminal's size arrives: it comes with the classes of
    its window's size (Textual's breakpoints)."""
    hub, sock = served
    restyled = []
    update_styles = App.update_styles

    def counting(self: App, node: object = None, animate: bool = True) -> None:
        if isinstance(node, LobbyScreen):
            restyled.append(node)
        update_styles(self, node, animate)

    monkeypatch.setattr(App, "update_styles", counting)
    app = SharedApp(sock, hub.issue_token("SHA256:ada", "ada"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.pause(0.3)
        assert app.screen.has_class("-narrow") and app.screen.has_class("-tall")
        assert restyled == []


def test_the_zygotes_warm_up_loads_every_languages_catalogue():
    """A session in Russian finds its catalogue loaded (5 ms of its start, once per process)."""
    script = (
        "import gettext\n"
        "from pipeline_tui.serve import session\n"
        "assert not gettext._translations\n"
        "session.warm_up()\n"
        "print(sorted(Path(key[1]).parent.parent.name for key in gettext._translations))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", "from pathlib import Path\n" + script],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    assert out.split() == ["['ru']"]


def test_a_zygote_whose_warm_up_fails_goes_on(monkeypatch, capsys):
    """The warm-up is a saving only: a zygote that cannot do it forks sessions that do it."""

    def failing() -> int:
        raise FileNotFoundError("the working folder is gone")

    monkeypatch.setattr(session, "warm_up", failing)
    try:
        zygote.preload(zygote.SESSION, [])
    finally:
        gc.unfreeze()
    assert "could not warm up" in capsys.readouterr().err


async def test_the_lobby_is_laid_out_for_the_window_it_comes_with(served, monkeypatch):
    """The app takes its window's size while it reaches the Hub, so the lobby is laid out for
    that size as it is shown, not once more when the size comes after it (Textual 8.2.8, pinned:
    the screen laid out for a size twice, three times when the Hub was reached in the Mount
    handler; the layouts its widgets ask for as the list comes are not counted)."""
    hub, sock = served
    layouts = []
    refresh_layout = Screen._refresh_layout

    def counting(self: Screen, size: object = None, scroll: bool = False) -> None:
        if isinstance(self, LobbyScreen) and size is not None:
            layouts.append(size)
        refresh_layout(self, size, scroll)

    monkeypatch.setattr(Screen, "_refresh_layout", counting)
    app = SharedApp(sock, hub.issue_token("SHA256:ada", "ada"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.shown, "the list")
        await pilot.pause(0.3)
        assert len(layouts) <= 2


def test_each_zygote_warms_up_without_a_word(capsys):
    """The session zygote warms the sessions' start; the web zygote has none of it to do."""
    for kind in zygote.KINDS:
        try:
            zygote.preload(kind, [])
        finally:
            gc.unfreeze()
    assert "could not warm up" not in capsys.readouterr().err
