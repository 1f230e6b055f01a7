"""Each player at a shared table in their own language (issue 15, point 3): the session's
language from the ssh client's environment or the lobby's choice kept per key, and what the
Hub says sent as a message id and values, so each client shows it in its own language."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from textual.widgets import Label

from pipeline_tui import i18n
from pipeline_tui.engine import Game, GameSetup, PlayerSetup, format_move
from pipeline_tui.engine import parse_move
from pipeline_tui.net.client import TableClient, TableError, Update
from pipeline_tui.net.protocol import RuleRefusal
from pipeline_tui.net.remote import RemoteGame
from pipeline_tui.net.hub import Hub
from pipeline_tui.net.players import KeyLanguages
from pipeline_tui.serve.session import session_language
from pipeline_tui.serve.ssh import GameSession
from pipeline_tui.ui.lobby import LobbyScreen, SharedApp
from tests.ui.test_language_switch import footer_keys, until


@contextlib.contextmanager
def speaking(language: str):
    """Show text in ``language`` for a moment, as a session in that language would."""
    i18n.set_language(language)
    try:
        yield
    finally:
        i18n.set_language("en")


@pytest.fixture
async def hub(tmp_path: Path):
    sock_dir = Path(tempfile.mkdtemp(prefix="pt-lang-", dir="/tmp"))  # Unix socket paths are short
    hub = Hub(tmp_path / "tables", bot_delay=0)
    await hub.start(sock_dir / "hub.sock")
    clients: list[TableClient] = []

    async def connect(identity: str, name: str) -> TableClient:
        client = await TableClient.connect(hub.socket_path, hub.issue_token(identity, name))
        clients.append(client)
        return client

    try:
        yield hub, connect
    finally:
        for client in clients:
            await client.close()
        await hub.close()
        shutil.rmtree(sock_dir, ignore_errors=True)


def two_humans() -> GameSetup:
    return GameSetup(seed=5, players=(PlayerSetup("Ada", "human"), PlayerSetup("Bo", "human")))


async def test_two_clients_see_one_hub_message_each_in_their_own_language(hub) -> None:
    hub, connect = hub
    alice, bob = await connect("SHA256:alice", "alice"), await connect("SHA256:bob", "bob")
    notes: dict[str, list[str]] = {"en": [], "ru": []}

    def shown_in(language: str):
        def on_update(update: Update) -> None:
            with speaking(language):
                notes[language].append(update.shown_note())

        return on_update

    alice.on_update, bob.on_update = shown_in("en"), shown_in("ru")
    table_id = await alice.create_table(two_humans())
    await alice.join(table_id, 0)
    await bob.join(table_id, 1)
    game = Game(two_humans())
    text = format_move(game.legal_moves()[0])
    await alice.move(table_id, text)
    await alice.undo(table_id)
    await bob.leave(table_id)
    while len(notes["en"]) < 5:  # two sit down, the move, the undo, bob leaves
        await alice.list_tables()  # a round trip: every Update sent before it has arrived
    assert notes["en"] == [
        "alice sits at Ada's seat",
        "bob sits at Bo's seat",
        f"Ada: {text}",
        f"Ada took back {text}",
        "bob left",
    ]
    assert notes["ru"] == ["bob садится на место Bo", f"Ada: {text}", f"Ada отменяет ход {text}"]


async def test_a_refusal_is_shown_in_the_language_of_the_one_refused(hub) -> None:
    hub, connect = hub
    alice, bob = await connect("SHA256:alice", "alice"), await connect("SHA256:bob", "bob")
    table_id = await alice.create_table(two_humans())
    await alice.join(table_id, 0)
    with pytest.raises(TableError) as refused:
        await bob.join(table_id, 0)
    assert str(refused.value) == "Seat: Ada's seat belongs to alice"  # the English line, for logs
    assert refused.value.shown() == "Seat: Ada's seat belongs to alice"
    with speaking("ru"):
        assert refused.value.shown() == "Место: место Ada занято игроком alice"


async def test_the_language_chosen_is_kept_per_key_across_restarts(hub, tmp_path) -> None:
    hub, connect = hub
    alice = await connect("SHA256:alice", "alice")
    assert alice.language == ""
    await alice.set_language("ru")
    with pytest.raises(TableError, match="unknown language 'tlh'"):
        await alice.set_language("tlh")
    again = await connect("SHA256:alice", "alice")
    other = await connect("SHA256:bob", "bob")
    assert (again.language, other.language) == ("ru", "")
    stored = tmp_path / "tables" / "players" / "languages.json"
    assert json.loads(stored.read_text()) == {"SHA256:alice": "ru"}
    assert KeyLanguages(tmp_path / "tables").get("SHA256:alice") == "ru"  # what a restart reads
    assert hub.problems == [] and Hub(tmp_path / "tables").problems == []  # not read as a table


@pytest.mark.parametrize(
    ("environ", "remembered", "expected"),
    [
        ({"LANG": "ru_RU.UTF-8"}, None, "ru"),
        ({"LC_ALL": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"}, None, "ru"),
        ({"LANG": "ru_RU.UTF-8"}, "en", "en"),
        ({"PIPELINE_TUI_LANG": "ru", "LANG": "en_US.UTF-8"}, "en", "ru"),
        ({"PIPELINE_TUI_LANG": "xx", "LANG": "ru_RU.UTF-8"}, None, "ru"),
        ({}, None, "en"),
    ],
)
def test_a_session_chooses_from_its_client_and_its_key(environ, remembered, expected) -> None:
    assert session_language(environ, remembered) == expected


class FakeChannel:
    def __init__(self, environment: dict[str, str]) -> None:
        self.environment = environment

    def get_environment(self) -> dict[str, str]:
        return self.environment


class FakeFront:
    socket_path = Path("/run/hub.sock")


def test_the_child_gets_the_clients_language_never_the_servers(monkeypatch) -> None:
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.setenv("PIPELINE_TUI_LANG", "en")
    monkeypatch.delenv("LC_ALL", raising=False)
    session = GameSession(FakeFront(), "SHA256:alice", "alice")  # type: ignore[arg-type]
    session.chan = FakeChannel({"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8", "EVIL": "1"})  # type: ignore[assignment]
    env = session._child_env()
    assert (env["LANG"], env["LC_MESSAGES"]) == ("ru_RU.UTF-8", "ru_RU.UTF-8")
    assert "PIPELINE_TUI_LANG" not in env and "EVIL" not in env
    assert session_language(env) == "ru"
    session.chan = FakeChannel({})  # type: ignore[assignment]
    env = session._child_env()
    assert "LANG" not in env and session_language(env) == "en"
    assert os.environ["LANG"] == "en_US.UTF-8"


async def test_the_lobby_choice_is_kept_for_the_key(served) -> None:
    """l in the lobby: the session speaks Russian at once, and the key's next session too."""
    hub, sock = served
    app = SharedApp(sock, hub.issue_token("SHA256:alice", "alice"))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        heading = app.screen.query_one("#lobby-heading", Label)
        assert str(heading.render()) == "Shared tables"
        await pilot.press("l")
        await until(pilot, lambda: i18n.current_language() == "ru", "Russian")
        await until(
            pilot,
            lambda: str(app.screen.query_one("#lobby-heading", Label).render()) == "Общие столы",
            "the lobby in Russian",
        )
        assert "Новый стол" in footer_keys(app.screen)
        await until(pilot, lambda: hub.languages.get("SHA256:alice") == "ru", "the choice kept")
    i18n.set_language("en")
    try:
        await a_later_session(hub, sock)
    finally:
        i18n.set_language("en")


async def a_later_session(hub, sock) -> None:
    later = SharedApp(sock, hub.issue_token("SHA256:alice", "alice"))  # her next session
    async with later.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(later.screen, LobbyScreen), "the lobby")
        assert i18n.current_language() == "ru"
        assert "Общие столы" in str(later.screen.query_one("#lobby-heading", Label).render())
    client = await TableClient.connect(sock, hub.issue_token("SHA256:bob", "bob"))
    assert client.language == ""  # bob chose nothing: his session speaks his client's language
    await client.close()


@contextlib.contextmanager
def judged_in(game: Game, language: str):
    """The Hub's copy of a table ``game`` writes the rules' reasons in ``language``, as a Hub
    started in that language would (the test's clients share its process)."""
    real_illegal, real_undo = game.why_illegal, game.why_no_undo

    def illegal(move):
        spoken = i18n.current_language()
        i18n.set_language(language)
        try:
            return real_illegal(move)
        finally:
            i18n.set_language(spoken)

    def no_undo(seat):
        spoken = i18n.current_language()
        i18n.set_language(language)
        try:
            return real_undo(seat)
        finally:
            i18n.set_language(spoken)

    game.why_illegal, game.why_no_undo = illegal, no_undo
    try:
        yield
    finally:
        del game.why_illegal, game.why_no_undo


async def test_a_refusal_by_the_rules_reaches_each_client_in_its_own_language(hub) -> None:
    """Issue 15, point 3: the Hub's engine writes its reasons in the Hub's language; each client
    works a rules refusal out again on its replica, so the player to move (English) under a
    Russian Hub and the other (Russian) under an English Hub each read it in their own."""
    hub, connect = hub
    alice, bob = await connect("SHA256:alice", "alice"), await connect("SHA256:bob", "bob")
    table_id = await alice.create_table(two_humans())
    seated = [RemoteGame(alice, await alice.join(table_id, 0)), RemoteGame(bob, await bob.join(table_id, 1))]
    hub_game = hub.service.get(table_id).game
    mover, other = seated[hub_game.current_player], seated[1 - hub_game.current_player]
    reasons: dict[int, list[str]] = {0: [], 1: []}
    seated[0].on_refused, seated[1].on_refused = reasons[0].append, reasons[1].append
    alice.on_update, bob.on_update = seated[0].update, seated[1].update

    with judged_in(hub_game, "ru"):
        with pytest.raises(RuleRefusal) as refused:
            await mover.client.move(table_id, "loan")
        mover.undo()
        await mover.wait_sent()
    assert str(refused.value) == hub_russian(lambda game: game.why_illegal(parse_move("loan")))
    assert mover.move_refusal(refused.value, "loan") == Game(two_humans()).why_illegal(parse_move("loan"))
    assert reasons[mover.seat] == ["Undo: there is no move to take back"]

    while mover.my_turn():  # the mover places its starting Tanks; then it is the other's turn
        mover.apply(mover.legal_moves()[0])
        await mover.wait_sent()
    while other.moves != mover.moves:
        await other.client.list_tables()  # a round trip: every Update sent before it has arrived
    with speaking("ru"), judged_in(hub_game, "en"):
        other.undo()
        await other.wait_sent()
    assert reasons[other.seat] == ["Отмена: отменить можно только свои ходы в текущем ходу"]


def hub_russian(reason) -> str:
    """What the engine says in Russian of a new game of :func:`two_humans`."""
    with speaking("ru"):
        return reason(Game(two_humans()))
