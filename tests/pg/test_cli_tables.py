"""``pipeline-tui tables list|new|copy`` on both stores (issue 39, point 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline_tui.cli import main
from pipeline_tui.engine import format_move
from pipeline_tui.net.store import open_store
from pipeline_tui.net.tables import TableService
from pipeline_tui.storage import load_game, read_save


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["--lang", "en", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def play(store, table_id: str, count: int) -> list[str]:
    """``count`` legal moves at a table of human seats, whoever is to act (bound on the way)."""
    service = TableService(store)
    table = service.get(table_id)
    for seat in range(len(table.bindings)):
        service.join(table_id, f"SHA256:{seat}", f"p{seat}", seat)
    for _ in range(count):
        seat = table.game.current_player
        service.move(table_id, f"SHA256:{seat}", format_move(table.game.legal_moves()[0]))
    log = table.log()
    service.store.close()
    return log


def test_files_to_postgresql_and_back_keeps_every_table(tmp_path: Path, pg_url: str, capsys) -> None:
    files = tmp_path / "tables"
    status, first, _ = run(capsys, "tables", "new", str(files), "--seats", "human,human", "--name", "Friday")
    assert status == 0 and first.strip() == "t1"
    status, second, _ = run(capsys, "tables", "new", str(files), "--seats", "human,expert,easy")
    assert second.strip() == "t2"
    log = play(open_store(files), "t1", 12)

    status, copied, err = run(capsys, "tables", "copy", str(files), pg_url)
    assert status == 0, err
    assert copied.splitlines() == ["t1: copied, 12 moves replayed", "t2: copied, 0 moves replayed"]
    status, listed, _ = run(capsys, "tables", "list", pg_url)
    lines = listed.splitlines()
    assert lines[0].split("  ") == ["t1", "Friday", "Ada:p0,Bo:p1", "12", "Year 1 Round 1"]
    assert lines[1].split("  ") == ["t2", "Table 2", "Ada:open,Bo:expert,Cy:easy", "0", "Year 1 Round 1"]

    # a PostgreSQL table plays on, then comes back to a folder as a save file
    more = play(open_store(pg_url), "t1", 4)
    assert more[:12] == log
    back = tmp_path / "back"
    status, _, err = run(capsys, "tables", "copy", pg_url, str(back))
    assert status == 0, err
    assert [format_move(m) for m in load_game(back / "t1.json").moves] == more
    assert read_save(back / "t1.json").meta["table"]["seats"][1] == {"identity": "SHA256:1", "holder": "p1"}

    # copying again names each table the target has already and fails
    status, _, err = run(capsys, "tables", "copy", str(files), pg_url)
    assert status == 1 and "t1 not copied: Table: 't1' already exists" in err


def test_a_broken_table_is_named_and_not_copied(tmp_path: Path, pg_url: str, capsys) -> None:
    files = tmp_path / "tables"
    run(capsys, "tables", "new", str(files), "--seats", "human,human")
    (files / "t2.json").write_text("{not json")
    status, out, err = run(capsys, "tables", "copy", str(files), pg_url)
    assert status == 1 and out.splitlines() == ["t1: copied, 0 moves replayed"]
    assert "table skipped: t2.json" in err


@pytest.mark.parametrize("seats", ["human", "human,wizard", "human,human,human,human,human"])
def test_tables_new_refuses_bad_seats_in_one_line(tmp_path: Path, capsys, seats: str) -> None:
    status, _, err = run(capsys, "tables", "new", str(tmp_path), "--seats", seats)
    assert status == 2 and len(err.strip().splitlines()) == 1
