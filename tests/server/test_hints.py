"""Hints at a shared table (issue 16, point 5): a table option chosen in the lobby when the
table is made (off by default); with it on, the seated player's hint key works on their own
turn; with it off, the key says so in one line."""

from __future__ import annotations

from pipeline_tui.engine.moves import format_move
from pipeline_tui.net.client import TableClient
from pipeline_tui.net.tables import TableService
from pipeline_tui.storage import read_save
from pipeline_tui.ui.lobby import LobbyScreen, SharedApp

from tests.server.test_remote import at_shared_table, hint_text, pilot_until


async def _new_table(pilot, hints: bool) -> None:
    """From the lobby: set the hints option, then a table with the form's defaults."""
    app = pilot.app
    await pilot_until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    if app.new_table_hints != hints:
        await pilot.press("h")
    line = str(app.screen.query_one("#lobby-hints").render())
    assert ("hints at new tables: on" in line) == hints
    await pilot.press("n")
    await pilot.press("enter")
    await pilot_until(pilot, lambda: at_shared_table(app), "the table")


async def _to_alices_turn(pilot, hub, table_id: str, bob: TableClient) -> None:
    game = hub.service.tables[table_id].game
    screen = pilot.app.screen
    while game.current_player != 0:
        count = len(game.moves)
        await bob.move(table_id, format_move(game.legal_moves()[0]))
        await pilot_until(pilot, lambda: len(screen.game.moves) == count + 1, "bob's move")


async def test_hints_on_at_a_table_made_with_them(served):
    hub, sock = served
    app = SharedApp(sock, hub.issue_token("SHA256:alice", "alice"))
    bob = await TableClient.connect(sock, hub.issue_token("SHA256:bob", "bob"))
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            await _new_table(pilot, hints=True)
            table = hub.service.tables["t1"]
            assert table.hints and app.screen.game.hints
            assert read_save(table.path).meta["table"]["hints"] is True
            assert TableService(hub.service.dir).get("t1").hints  # kept over a restart
            await bob.join("t1", 1)
            if table.game.current_player == 1:
                await pilot.press("h")
                await pilot_until(
                    pilot, lambda: "a hint is for your own turn" in hint_text(app), "the refusal"
                )
            await _to_alices_turn(pilot, hub, "t1", bob)
            count = len(table.game.moves)
            await pilot.press("h")
            await pilot_until(pilot, lambda: "Hint: " in hint_text(app), "the hint")
            await pilot.pause()
            assert len(table.game.moves) == count and len(app.screen.game.moves) == count
    finally:
        await bob.close()


async def test_hints_off_by_default_and_the_key_says_so(served):
    hub, sock = served
    app = SharedApp(sock, hub.issue_token("SHA256:alice", "alice"))
    async with app.run_test(size=(160, 50)) as pilot:
        await _new_table(pilot, hints=False)
        assert not hub.service.tables["t1"].hints
        await pilot.press("h")
        await pilot.pause()
        assert "hints are off at this table" in hint_text(app)
        assert not app.screen.advising and app.screen.advisor is None
