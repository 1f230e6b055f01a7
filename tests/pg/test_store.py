"""The PostgreSQL store (issue 39, point 1): the same tables as the files store, a move a row
keyed (table, seq), and a node that loses the race for a row re-reads and answers again."""

from __future__ import annotations

import pytest

from pipeline_tui.engine import Game, GameSetup, PlayerSetup, format_move
from pipeline_tui.net.protocol import TableError
from pipeline_tui.net.store import open_store, redact
from pipeline_tui.net.tables import TableService

ALICE, BOB = "SHA256:alice", "SHA256:bob"


def setup(*kinds: str, seed: int = 5) -> GameSetup:
    names = ("Ada", "Bo", "Cy", "Di")
    return GameSetup(seed=seed, players=tuple(PlayerSetup(names[i], k) for i, k in enumerate(kinds)))


def legal(service: TableService, table_id: str, skip: int = 0) -> str:
    """A legal move for the seat to act (the ``skip``-th one)."""
    game = service.get(table_id).game
    return format_move(game.legal_moves()[skip])


def test_a_table_lives_in_rows_and_comes_back_whole(pg_url: str) -> None:
    service = TableService(open_store(pg_url))
    table = service.create(setup("human", "human"), name="Friday", colours=["red", "blue"], hints=True)
    assert table.id == "t1" and service.store.shared
    service.join(table.id, ALICE, "alice", 0)
    service.join(table.id, BOB, "bob", 1)
    played = []
    for _ in range(6):
        who = ALICE if table.bindings[table.game.current_player].identity == ALICE else BOB
        text = legal(service, table.id)
        service.move(table.id, who, text)
        played.append(text)
    who = ALICE if table.bindings[table.game.current_player].identity == ALICE else BOB
    service.undo(table.id, who) if table.game.why_no_undo(table.game.current_player) is None else None
    service.store.close()

    again = TableService(open_store(pg_url))
    copy = again.get("t1")
    assert copy.log() == table.log() and copy.name == "Friday" and copy.hints
    assert copy.colours == ["red", "blue"] and copy.bindings == table.bindings
    assert copy.events == table.events
    again.store.close()


def test_two_nodes_cannot_both_write_the_next_move(pg_url: str) -> None:
    """One key at one table through two nodes, each with the same view: node A writes row 0;
    node B's write of row 0 is refused by the primary key, B reads A's move (an Update for its
    players), checks its own move again against the rules and writes it as row 1."""
    a = TableService(open_store(pg_url))
    table_id = a.create(setup("human", "human")).id
    first = Game(setup("human", "human")).current_player
    a.join(table_id, ALICE, "alice", first)
    b = TableService(open_store(pg_url))
    assert b.get(table_id).bindings == a.get(table_id).bindings
    mine, theirs = legal(a, table_id, 0), legal(b, table_id, 1)
    a.move(table_id, ALICE, mine)
    assert b.get(table_id).log() == []  # B has not heard of it
    update = b.move(table_id, ALICE, theirs)
    assert [u.moves for u in b.take_synced()] == [[mine]]  # sent before B's own Update
    assert update.base == 1 and update.moves == [theirs]
    assert b.get(table_id).log() == [mine, theirs]
    fresh = TableService(open_store(pg_url))
    assert fresh.get(table_id).log() == [mine, theirs] and fresh.get(table_id).events == 2
    assert [u.moves for u in a.sync(table_id)] == [[theirs]]
    for service in (a, b, fresh):
        service.store.close()


def test_the_loser_is_refused_when_the_rules_say_so(pg_url: str) -> None:
    """Ada's key on node B tries to take a seat node A bound to Bo's key meanwhile: B's insert
    is refused by the seat's key, B reads the binding and answers with the seat's holder."""
    a = TableService(open_store(pg_url))
    table_id = a.create(setup("human", "human")).id
    b = TableService(open_store(pg_url))
    a.join(table_id, BOB, "bob", 0)
    with pytest.raises(TableError, match="Ada's seat belongs to bob"):
        b.join(table_id, ALICE, "alice", 0)
    assert [u.note for u in b.take_synced()] == ["bob sits at Ada's seat"]
    a.store.close()
    b.store.close()


def test_an_unreachable_database_is_one_line_without_the_password(tmp_path) -> None:
    url = f"postgresql://ann:s3cret@/nowhere?host={tmp_path}&port=25599"
    with pytest.raises(TableError) as caught:
        open_store(url)
    line = str(caught.value)
    assert "s3cret" not in line and "\n" not in line and redact(url) in line
