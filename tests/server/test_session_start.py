"""A session's start does no work its zygote did for it (issue 38): the CSS every session
parses is parsed once, before forking, and a session in the lobby parses none itself."""

from __future__ import annotations

import os

from pipeline_tui.serve import session
from pipeline_tui.ui import compat
from pipeline_tui.ui.lobby import LobbyScreen

from tests.server.test_remote import pilot_until


async def test_a_session_reaches_the_lobby_parsing_no_css_its_zygote_parsed(served, monkeypatch):
    hub, sock = served
    monkeypatch.setattr(compat.SharedStylesheet, "parsed", {})
    assert session.parse_css_ahead() > 20  # as serve/zygote.py's preload does
    read, write = os.pipe()
    try:
        app = session.session_app()(sock, hub.issue_token("SHA256:ada", "ada"))
        app.control = read
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await pilot.pause()
            assert list(app.stylesheet._parse_cache.keys()) == []  # parsed nothing itself
            assert app.screen.query_one("#lobby-heading").has_class("heading")
    finally:
        os.close(read)
        os.close(write)


async def test_without_the_zygote_a_session_parses_its_css_itself(served, monkeypatch):
    hub, sock = served
    monkeypatch.setattr(compat.SharedStylesheet, "parsed", {})
    read, write = os.pipe()
    try:
        app = session.session_app()(sock, hub.issue_token("SHA256:ada", "ada"))
        app.control = read
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await pilot.pause()
            assert len(app.stylesheet._parse_cache.keys()) > 10
    finally:
        os.close(read)
        os.close(write)
