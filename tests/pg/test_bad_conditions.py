"""A PostgreSQL store in bad conditions (issue 39, point 5): unreachable at start, lost in the
middle of a game, a commit whose answer is lost, a node that cannot write."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

import pytest

from pipeline_tui.cli import main
from pipeline_tui.engine import Game, format_move
from pipeline_tui.net.client import TableClient, TableError
from pipeline_tui.net.hub import Hub
from pipeline_tui.net.store import SaveFailed, StoreLost, open_store
from pipeline_tui.net.tables import TableService
from tests.server.test_hub import Follower, setup

ALICE = "SHA256:alice"


def seated(service: TableService) -> tuple[str, int]:
    """A table of two human seats, both held by Alice's key... one seat: hers, the first to act."""
    table_id = service.create(setup("human", "human")).id
    first = Game(setup("human", "human")).current_player
    service.join(table_id, ALICE, "alice", first)
    return table_id, first


def first_move(service: TableService, table_id: str) -> str:
    return format_move(service.get(table_id).game.legal_moves()[0])


def test_serve_names_an_unreachable_database_in_one_line(tmp_path: Path, capsys) -> None:
    url = f"postgresql://ann:hunter2@/pipeline?host={tmp_path}&port=25598"
    status = main(
        ["--lang", "en", "serve", "--open", "--port", "0", "--tables", str(tmp_path / "t"), "--store", url]
    )
    err = capsys.readouterr().err
    assert status == 1 and len(err.strip().splitlines()) == 1
    assert "hunter2" not in err and f"postgresql://ann@/pipeline?host={tmp_path}&port=25598" in err


def cut_off(url: str):
    """A store whose next commit's answer is lost, after committing (``committed``) or not.
    (psycopg is imported by the tests, not at collection: without it they skip.)"""
    from pipeline_tui.net.pgstore import PostgresStore

    class CutOff(PostgresStore):
        committed = True
        armed = False

        def _write(self, table_id, work):  # type: ignore[no-untyped-def]
            if not self.armed:
                return super()._write(table_id, work)
            self.armed = False
            if self.committed:
                super()._write(table_id, work)
            raise StoreLost("Tables: lost", None)

    return CutOff(url)


@pytest.mark.parametrize("committed", [True, False])
def test_a_move_whose_commit_answer_was_lost_is_settled_and_said(pg_url: str, committed: bool) -> None:
    store = cut_off(pg_url)
    service = TableService(store)
    table_id, first = seated(service)
    text = first_move(service, table_id)
    store.armed, store.committed = True, committed
    with pytest.raises(SaveFailed, match="say whether it was kept"):
        service.move(table_id, ALICE, text)
    assert service.get(table_id).log() == []  # not shown as played while unknown
    updates = service.sync(table_id)
    if committed:
        assert [u.moves for u in updates] == [[text], []]
        assert updates[-1].note == f"Ada's move {text} was kept after all"
        assert service.get(table_id).log() == [text]
    else:
        assert [u.note for u in updates] == [
            f"Ada's move {text} was not kept (the database was lost); play it again"
        ]
        assert service.get(table_id).log() == []
    store.close()


def test_a_node_that_cannot_write_refuses_moves(pg_url: str) -> None:
    import psycopg

    from pipeline_tui.net.pgstore import PostgresStore

    service = TableService(open_store(pg_url))
    table_id, _first = seated(service)
    assert isinstance(service.store, PostgresStore)
    service.store._db().execute("SET default_transaction_read_only = on")  # a read-only database
    with pytest.raises(SaveFailed, match="could not be saved .*read-only"):
        service.move(table_id, ALICE, first_move(service, table_id))
    assert service.get(table_id).log() == [] and service.get(table_id).events == 0
    service.store.close()
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT count(*) FROM pipeline_moves").fetchone() == (0,)


async def test_a_database_lost_mid_game_is_said_and_the_node_comes_back(
    cluster, pg_url: str, tmp_path
) -> None:
    folder = Path(tempfile.mkdtemp(prefix="pt-pgx-", dir="/tmp"))
    hub = Hub(tmp_path / "node", bot_delay=0, store=pg_url)
    await hub.start(folder / "hub.sock")
    try:
        alice = Follower(await TableClient.connect(folder / "hub.sock", hub.issue_token(ALICE, "alice")))
        table_setup = setup("human", "human")
        table_id = await alice.client.create_table(table_setup)
        first = Game(table_setup).current_player
        await alice.join(table_id, first)
        game = Game(table_setup)
        text = format_move(game.legal_moves()[0])
        await alice.client.move(table_id, text)
        game.play(text)
        for _ in range(200):  # the only node takes the computer-seat lease (its own task)
            if hub._bots_here:
                break
            await asyncio.sleep(0.05)
        assert hub._bots_here
        cluster.stop()
        try:
            await alice.until(lambda: any("cannot be reached" in u.note for u in alice.updates))
            for _ in range(200):  # the lease ends with its session
                if not hub._bots_here:
                    break
                await asyncio.sleep(0.05)
            assert not hub._bots_here
            second = format_move(game.legal_moves()[0])
            with pytest.raises(TableError, match=f"move {second} was not kept"):
                await alice.client.move(table_id, second)
            assert alice.log == [text]
        finally:
            cluster.start()
        await alice.until(lambda: any(u.note == "Server: the database is back" for u in alice.updates))
        for _ in range(200):  # and is taken again
            if hub._bots_here:
                break
            await asyncio.sleep(0.05)
        assert hub._bots_here
        await alice.client.move(table_id, second)
        assert alice.log == [text, second]
        await alice.client.close()
    finally:
        await hub.close()
        shutil.rmtree(folder, ignore_errors=True)
    again = TableService(open_store(pg_url))
    assert again.get(table_id).log() == [text, second]
    again.store.close()
