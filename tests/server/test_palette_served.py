"""What the command palette offers where the machine is a server's (issue 36, point 3): in an
SSH session (``SharedApp``) and a browser tab of ``pipeline-tui web`` (``--served web``) no
command writes on the server's disk (no Screenshot to it, no language kept in its settings
file); the hot-seat app in the player's own terminal keeps every command."""

from __future__ import annotations

import pytest

from pipeline_tui import i18n
from pipeline_tui.i18n import settings_path
from pipeline_tui.ui.app import PipelineApp, Served
from pipeline_tui.ui.lobby import LobbyScreen, SharedApp
from pipeline_tui.ui.title import TitleScreen

from tests.server.test_remote import pilot_until

EVERYWHERE = {"Theme", "Quit", "Keys", "Rules and keys", "Components"}  # harmless in any process
LOCAL_GAMES = {"New game", "Load game", "Replay game"}  # the saves folder is the game's own


@pytest.fixture(autouse=True)
def english_again(monkeypatch, tmp_path):
    """A settings folder of the test's own (none written yet), and the suite's English again
    after the test switched the language."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    yield
    i18n.set_language("en")


def commands(app):
    return {command.title: command for command in app.get_system_commands(app.screen)}


async def test_the_hot_seat_app_keeps_every_command():
    app = PipelineApp(served=Served.LOCAL)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot_until(pilot, lambda: isinstance(app.screen, TitleScreen), "the title screen")
        offered = commands(app)
        assert EVERYWHERE | LOCAL_GAMES | {"Screenshot"} <= set(offered)
        assert offered["Screenshot"].help == "Save an SVG 'screenshot' of the current screen"


async def test_a_shared_session_offers_nothing_that_writes_on_the_server(served):
    hub, sock = served
    app = SharedApp(sock, hub.issue_token("SHA256:alice", "alice"))
    assert app.served is Served.SSH
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        offered = commands(app)
        assert "Screenshot" not in offered
        assert not LOCAL_GAMES & set(offered) and "Save game as" not in offered
        assert EVERYWHERE - {"Components"} <= set(offered)
        offered["Language: Русский"].callback()
        await pilot.pause()
        assert not settings_path().exists()  # kept per key by the Hub, not in a settings file


async def test_a_browser_tab_sends_screenshots_to_the_browser_only(monkeypatch):
    app = PipelineApp(served=Served.WEB)
    delivered: list[object] = []
    monkeypatch.setattr(app, "deliver_screenshot", lambda *a, **k: delivered.append(a))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot_until(pilot, lambda: isinstance(app.screen, TitleScreen), "the title screen")
        offered = commands(app)
        assert EVERYWHERE | LOCAL_GAMES <= set(offered)
        assert offered["Screenshot"].help == "Download an SVG picture of the screen"
        app.screenshot_to_browser()  # run_test's driver is not the web driver: nothing is written
        assert delivered == []
        offered["Language: Русский"].callback()
        await pilot.pause()
        (english,) = [c for title, c in commands(app).items() if "English" in title]
        assert english.help == "Этот язык в этой вкладке"
        assert not settings_path().exists()
