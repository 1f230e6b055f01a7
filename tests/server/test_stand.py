"""Watchers share a screen (issue 38): the session child's side.

A session that watches a table it has drawn, holding no seat at a table still in play, tells
``serve`` on its control socket (``watching <table> <language> <theme>``) and ``left`` when
that no longer holds; ``PIPELINE_TUI_WATCH`` opens a session straight at a table, the lobby
beneath it; ``PIPELINE_TUI_THEME`` starts it in a theme; a stand (``PIPELINE_TUI_STAND``) says
nothing, rings nothing, and draws what a private spectator draws; ``repaint`` sends every row.
Each app test runs a session's app (``session_app()``) against a real Hub, its control socket
one end of a socket pair the test holds as serve would.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import re
import signal
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
from textual.widgets import Static

from pipeline_tui import i18n
from pipeline_tui.engine.setup import GameSetup, PlayerSetup
from pipeline_tui.net.client import TableClient
from pipeline_tui.serve import session
from pipeline_tui.serve.child import start_child
from pipeline_tui.serve.session import CONTROL_ENV, HUB_ENV, STAND_ENV, THEME_ENV, WATCH_ENV
from pipeline_tui.ui import lobby
from pipeline_tui.ui.lobby import LobbyScreen
from pipeline_tui.ui.table_screen import TableScreen

from tests.server.sshterm import TIMEOUT
from tests.server.test_remote import pilot_until

CAROL, ALICE, STAND = "SHA256:carol", "SHA256:alice", "serve:stand"


@pytest.fixture(autouse=True)
def english():
    """Each test starts and ends in English (a session's language is the process's)."""
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def two_seats(seed: int = 1) -> GameSetup:
    return GameSetup(seed=seed, players=(PlayerSetup("Ada"), PlayerSetup("Bo")))


@contextlib.asynccontextmanager
async def session_on(
    hub: Any, sock: Any, key: str, size: tuple[int, int] = (120, 40), **options: Any
) -> AsyncIterator[tuple[Any, Any, socket.socket]]:
    """A session's app for ``key`` running, and serve's end of its control socket."""
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    try:
        app = session.session_app()(sock, hub.issue_token(key, key.rsplit(":")[-1]), **options)
        app.control = theirs.fileno()
        async with app.run_test(size=size) as pilot:
            yield app, pilot, ours
    finally:
        ours.close()
        theirs.close()


def said(ours: socket.socket) -> str:
    """What the session wrote on its control socket so far (read now, without waiting)."""
    data = b""
    with contextlib.suppress(BlockingIOError):
        while chunk := ours.recv(4096):
            data += chunk
    return data.decode()


def at_table(app: Any, table_id: str) -> bool:
    return isinstance(app.screen, TableScreen) and app.remote is not None and app.remote.table_id == table_id


def spy_on_sharing(app: Any) -> asyncio.Event:
    """An event set once the app has decided whether it may say it watches a table."""
    checked = asyncio.Event()
    decide = app._may_share

    async def deciding(remote: Any) -> None:
        await decide(remote)
        checked.set()

    app._may_share = deciding
    return checked


async def test_a_spectator_with_no_seat_says_once_that_it_watches_and_left_on_leaving(served):
    hub, sock = served
    table_id = hub.service.create(two_seats()).id
    async with session_on(hub, sock, CAROL, theme="nord") as (app, pilot, ours):
        await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        app.join(table_id, None)
        await pilot_until(pilot, lambda: at_table(app, table_id), "the table")
        heard: list[str] = []
        await pilot_until(pilot, lambda: heard.append(said(ours)) or "".join(heard), "a line")
        assert "".join(heard) == f"watching {table_id} en nord\n"
        await pilot.pause(0.2)
        assert said(ours) == ""  # once
        await pilot.press("f9")
        await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
        assert said(ours) == "left\n"


async def test_a_theme_or_language_changed_at_a_watched_table_says_left(served):
    hub, sock = served
    table_id = hub.service.create(two_seats()).id
    async with session_on(hub, sock, CAROL, watch=table_id) as (app, pilot, ours):
        await pilot_until(pilot, lambda: "watching" in said(ours), "watching")
        app.theme = "nord"
        await pilot_until(pilot, lambda: said(ours) == "left\n", "left on a new theme")
        assert app.sharing is None
        app.join(table_id, None)  # watching again, in the new theme
        heard: list[str] = []
        await pilot_until(pilot, lambda: heard.append(said(ours)) or "".join(heard), "watching again")
        assert "".join(heard) == f"watching {table_id} en nord\n"
        app.switch_language("ru")
        await pilot_until(pilot, lambda: said(ours) == "left\n", "left in a new language")
        lobby = app.screen_stack[-2]
        await pilot_until(  # drawn again in Russian before the app ends
            pilot,
            lambda: any("Общие столы" in str(w.render()) for w in lobby.query("#lobby-heading")),
            "Russian",
        )


async def test_a_seated_player_or_one_seated_at_a_table_in_play_does_not_say_it_watches(served):
    hub, sock = served
    playing = hub.service.create(two_seats(1)).id
    watched = hub.service.create(two_seats(2)).id
    alice = await TableClient.connect(sock, hub.issue_token(ALICE, "alice"))
    try:
        await alice.join(playing, 0)  # her seat, bound to her key, at a table still in play
    finally:
        await alice.close()
    async with session_on(hub, sock, ALICE) as (app, pilot, ours):
        checked = spy_on_sharing(app)
        await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        app.join(watched, None)
        await pilot_until(pilot, checked.is_set, "the decision")
        assert at_table(app, watched)
        assert said(ours) == ""  # her turn's bell at the other table would be lost
        app.join(playing, 0)  # back at her own seat: a player, not a watcher
        await pilot_until(pilot, lambda: at_table(app, playing) and app.remote.seat == 0, "her seat")
        await pilot.pause(0.2)
        assert said(ours) == ""
    async with session_on(hub, sock, CAROL) as (app, pilot, ours):  # no seat anywhere
        checked = spy_on_sharing(app)
        await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        app.join(watched, None)
        await pilot_until(pilot, checked.is_set, "the decision")
        assert said(ours) == f"watching {watched} en {app.theme}\n"


async def test_watch_opens_the_table_with_the_lobby_beneath_and_keeps_keys_for_it(served):
    hub, sock = served
    table_id = hub.service.create(two_seats()).id
    async with session_on(hub, sock, CAROL, watch=table_id) as (app, pilot, ours):
        checked = spy_on_sharing(app)
        await pilot.press("f4")  # typed at the table serve showed: for the table, not the lobby
        await pilot_until(pilot, lambda: at_table(app, table_id), "the table")
        assert app.remote.seat is None
        assert isinstance(app.screen_stack[-2], LobbyScreen)
        await pilot_until(pilot, lambda: app.screen.view == "network-view", "the key, at the table")
        await pilot_until(pilot, checked.is_set, "the sharing decided")
        assert said(ours) == ""  # its key changed the screen: not one to share
        await pilot.press("f9")
        await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")


async def test_a_table_that_cannot_be_watched_shows_the_lobby_with_the_reason(served):
    hub, sock = served
    hub.service.create(two_seats())
    async with session_on(hub, sock, CAROL, watch="t999") as (app, pilot, ours):
        await pilot.press("escape")  # meant for the table: not a quit at the lobby
        await pilot_until(
            pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.listed, "the lobby's list"
        )
        await pilot.pause(0.1)
        error = str(app.screen.query_one("#lobby-error", Static).render())
        assert "t999" in error
        assert app.is_running
        assert app.held is None  # what the player types now goes to the lobby
        assert said(ours) == ""


async def test_a_theme_asked_for_is_taken_if_the_app_knows_it(served):
    hub, sock = served
    async with session_on(hub, sock, CAROL, theme="nord") as (app, pilot, _ours):
        await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        assert app.theme == "nord"
    async with session_on(hub, sock, CAROL, theme="no-such-theme") as (app, pilot, _ours):
        await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        assert app.theme == "textual-dark"


async def test_a_stand_says_its_table_is_drawn_rings_nothing_and_speaks_the_language_it_is_given(
    served, monkeypatch
):
    hub, sock = served
    table_id = hub.service.create(two_seats()).id
    hub.languages.set(STAND, "ru")  # what the server's key may have kept: not the stand's
    hub.bells.set(STAND, True)
    async with session_on(hub, sock, STAND, watch=table_id, stand=True) as (app, pilot, ours):
        await pilot_until(pilot, lambda: at_table(app, table_id), "the table")
        heard: list[str] = []
        await pilot_until(pilot, lambda: heard.append(said(ours)) or "".join(heard), "a line")
        assert "".join(heard) == f"watching {table_id} en textual-dark\n"  # serve shows it from now on
        assert i18n.current_language() == "en"
        assert not app.turn_bell
        written: list[str] = []
        with monkeypatch.context() as patch:  # a terminal's driver, which writes the bell
            patch.setattr(type(app._driver), "is_headless", False)
            patch.setattr(app._driver, "write", written.append)
            app.bell()
        assert written == []
        ours.sendall(b"clamped 300 100 200 50\n")  # a stand's window is nobody's to be told of
        await pilot.pause(0.3)
        assert app.remote.seat is None
        assert not app._notifications
        assert said(ours) == ""


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_a_stand_draws_what_a_private_spectator_of_the_same_size_draws(served, size):
    hub, sock = served
    table = hub.service.create(two_seats())
    table_id = table.id
    alice = await TableClient.connect(sock, hub.issue_token(ALICE, "alice"))
    try:
        await alice.join(table_id, table.game.current_player)
        await alice.move(table_id, "start-tank C")
    finally:
        await alice.close()
    screens = []
    for key, options in ((CAROL, {}), (STAND, {"stand": True})):
        async with session_on(hub, sock, key, size=size, watch=table_id, **options) as (app, pilot, _):
            await pilot_until(pilot, lambda: at_table(app, table_id) and app.remote.moves, "the table")
            await pilot.pause(0.3)
            screens.append("\n".join(strip.text for strip in app.screen._compositor.render_strips()))
    assert "Ada" in screens[0]
    assert screens[0] == screens[1]


async def test_lines_to_a_serve_not_reading_wait_in_a_small_buffer_then_are_dropped_whole(served):
    """serve not reading: the session goes on, keeps whole lines up to MAX_CONTROL_OUT bytes
    and sends them once it can; the rest are dropped whole, never cut."""
    hub, sock = served
    async with session_on(hub, sock, CAROL) as (app, pilot, ours):
        await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        filler = 0
        with contextlib.suppress(BlockingIOError):
            while True:  # the socket full, as when serve stops reading
                filler += os.write(app.control, b"x" * 4096)
        for _ in range(2000):
            app.tell("left\n")
        await pilot.pause()
        assert app.is_running
        heard = bytearray()
        await pilot_until(
            pilot,
            lambda: heard.extend(said(ours).encode()) or len(heard) >= filler + session.MAX_CONTROL_OUT - 5,
            "what waited",
        )
        await pilot.pause(0.1)
        heard.extend(said(ours).encode())
        lines = bytes(heard[filler:])
        assert lines == b"left\n" * (session.MAX_CONTROL_OUT // 5)
        assert not app.control_out


@pytest.mark.parametrize(
    ("environ", "options"),
    [
        ({WATCH_ENV: "t3", THEME_ENV: "nord"}, {"watch": "t3", "theme": "nord", "stand": False}),
        (
            {WATCH_ENV: "t3", STAND_ENV: "1"},
            {"watch": "t3", "theme": None, "stand": True, "on_watching": None},
        ),
        ({STAND_ENV: "1"}, {"watch": None, "theme": None, "stand": False}),  # a stand of no table
        (
            {WATCH_ENV: "t3 t4", THEME_ENV: "x" * 65, STAND_ENV: "yes"},
            {"watch": None, "theme": None, "stand": False},
        ),
        ({WATCH_ENV: "", THEME_ENV: "../nord"}, {"watch": None, "theme": None, "stand": False}),
    ],
)
def test_a_session_takes_what_serve_set_for_it_and_ignores_a_bad_value(monkeypatch, environ, options):
    """``python -m pipeline_tui.serve.session`` hands its app the table to open at, the theme
    and whether it is a stand, from its environment; a value that is not a plain word is
    ignored (the app opens at the lobby, in its own theme)."""
    seen = {}

    class FakeApp:
        CSS_PATH = "app.tcss"
        return_code = 0

        def __init__(self, hub, token, **kwargs):
            seen.update(kwargs)

        def run(self):
            pass

    control, ours = os.pipe()
    os.write(ours, b"token\n")
    os.close(ours)
    for name in (WATCH_ENV, THEME_ENV, STAND_ENV):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv(HUB_ENV, "/nonexistent/hub.sock")
    monkeypatch.setenv(CONTROL_ENV, str(control))
    monkeypatch.setattr(lobby, "SharedApp", FakeApp)
    monkeypatch.setattr(session, "_session_app", None)  # made anew over FakeApp, then forgotten
    threshold, hangup = gc.get_threshold(), signal.getsignal(signal.SIGHUP)
    try:
        assert session.main() == 0
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()
        signal.signal(signal.SIGHUP, hangup)
        os.close(control)
    assert {name: seen[name] for name in options} == options


ROW = re.compile(rb"\x1b\[(\d+);1H")


async def test_repaint_sends_every_row_of_the_screen_again(served):
    """A real session child on a pty: once its lobby is drawn and quiet, ``repaint`` on the
    control socket makes it write every one of its rows again."""
    hub, sock = served
    env = dict(os.environ, TERM="xterm-256color", **{HUB_ENV: str(sock)})
    child = await start_child(env, (80, 24), hub.issue_token(CAROL, "carol"), None, 0, print)
    master, proc = child.master, child.proc
    out = bytearray()
    more = asyncio.Event()

    def read() -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            out.extend(os.read(master, 1 << 16))
            more.set()

    loop = asyncio.get_running_loop()
    loop.add_reader(master, read)
    try:
        async with asyncio.timeout(TIMEOUT):
            while b"Shared tables" not in out:
                await more.wait()
                more.clear()
        with contextlib.suppress(TimeoutError):  # drawn: wait for it to go quiet
            while True:
                more.clear()
                await asyncio.wait_for(more.wait(), 1.0)
        out.clear()
        os.write(child.control, b"repaint\n")
        async with asyncio.timeout(TIMEOUT):
            while {int(row) for row in ROW.findall(out)} != set(range(1, 25)):
                await more.wait()
                more.clear()
    finally:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()
        child.close()
