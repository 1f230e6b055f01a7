"""The tables folder is the server's alone (issue 36, point 4): folders 0700 and files 0600,
for what the server creates and, at every start, for what was left more open."""

from __future__ import annotations

import os
import stat

import pytest

from pipeline_tui.engine import GameSetup, PlayerSetup
from pipeline_tui.net.hub import Hub
from pipeline_tui.net.players import KeyLanguages
from pipeline_tui.net.tables import TableService


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask():
    """The umask most users have (0022), under which files come out world-readable."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def setup() -> GameSetup:
    return GameSetup(seed=7, players=(PlayerSetup("Ada"), PlayerSetup("Bo")))


def test_what_the_server_creates_is_private(tmp_path, open_umask):
    tables = tmp_path / "srv" / "tables"
    service = TableService(tables)
    table = service.create(setup(), "ours")
    service.join(table.id, "SHA256:ada", "ada", 0)  # a seat bound: a fingerprint written
    languages = KeyLanguages(tables)
    languages.set("SHA256:ada", "ru")
    assert mode(tables) == 0o700
    assert mode(table.path) == 0o600
    assert mode(tables / "players") == 0o700
    assert mode(languages.path) == 0o600
    assert sorted(p.name for p in tables.iterdir()) == ["players", "t1.json"]  # no temporary left


async def test_a_start_makes_an_open_tables_folder_private(tmp_path, open_umask):
    tables = tmp_path / "tables"
    service = TableService(tables)
    table = service.create(setup(), "older")
    KeyLanguages(tables).set("SHA256:ada", "ru")
    note = tables / "notes.txt"  # anything else a hand put there
    note.write_text("hello")
    link = tables / "link.json"
    link.symlink_to(tmp_path / "elsewhere.txt")
    (tmp_path / "elsewhere.txt").write_text("not ours to change")
    for path, loose in (
        (tables, 0o755),
        (table.path, 0o644),
        (tables / "players", 0o755),
        (tables / "players" / "languages.json", 0o644),
        (note, 0o664),
        (tmp_path / "elsewhere.txt", 0o644),
    ):
        os.chmod(path, loose)
    hub = Hub(tables, bot_delay=0.0)  # what `pipeline-tui serve` does first
    try:
        assert mode(tables) == 0o700
        assert mode(table.path) == 0o600
        assert mode(tables / "players") == 0o700
        assert mode(tables / "players" / "languages.json") == 0o600
        assert mode(note) == 0o600
        assert mode(tmp_path / "elsewhere.txt") == 0o644  # a link is not followed out
        assert list(hub.service.tables) == ["t1"]
    finally:
        await hub.close()
