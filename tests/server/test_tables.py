"""The table service: seat binding, the Hub's checks on every move and undo, table files."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline_tui.ai import choose_move
from pipeline_tui.engine import GameSetup, PlayerSetup, format_move, parse_move
from pipeline_tui import i18n
from pipeline_tui.net.protocol import TableError, table_name
from pipeline_tui.net.tables import TableService
from pipeline_tui.storage import load_game, read_save

ALICE, BOB, CAROL = "SHA256:alice", "SHA256:bob", "SHA256:carol"


def setup(*kinds: str, seed: int = 11) -> GameSetup:
    names = ("Ada", "Bo", "Cy", "Di")
    return GameSetup(seed=seed, players=tuple(PlayerSetup(names[i], k) for i, k in enumerate(kinds)))


@pytest.fixture
def service(tmp_path: Path) -> TableService:
    return TableService(tmp_path / "tables")


def seated(service: TableService, *kinds: str) -> str:
    """A table with Alice at seat 0 and Bob at seat 1 (the other seats as ``kinds`` says)."""
    table = service.create(setup(*kinds))
    service.join(table.id, ALICE, "alice", 0)
    service.join(table.id, BOB, "bob", 1)
    return table.id


def who(service: TableService, table_id: str) -> str:
    return {0: ALICE, 1: BOB}[service.get(table_id).game.current_player]


def play_turn(service: TableService, table_id: str) -> list[str]:
    """The player to act plays the heuristic bot's moves through the service to the end of
    their turn (setup turns end with the fifth starting Tank)."""
    table = service.get(table_id)
    seat = table.game.current_player
    played = []
    while not table.game.is_over() and table.game.current_player == seat:
        text = format_move(choose_move(table.game, "heuristic", seed=3))
        service.move(table_id, who(service, table_id), text)
        played.append(text)
    return played


def test_create_writes_a_loadable_table_file_with_open_seats(service: TableService) -> None:
    first = service.create(setup("human", "human", "heuristic"), "Friday game")
    second = service.create(setup("human", "random"))
    assert (first.id, second.id) == ("t1", "t2")
    assert first.path == service.dir / "t1.json"
    assert len(load_game(first.path).moves) == 0
    saved = read_save(first.path).meta["table"]
    assert saved == {"name": "Friday game", "seats": [None, None, None], "colours": [], "hints": False}
    info = service.list()[0]
    assert [(s.name, s.kind, s.holder) for s in info.seats] == [
        ("Ada", "human", None),
        ("Bo", "human", None),
        ("Cy", "heuristic", None),
    ]
    assert [t.id for t in service.list()] == ["t1", "t2"]
    assert (first.name, second.name) == ("Friday game", "")  # unnamed: each viewer names it


@pytest.mark.parametrize(
    "bad, reason",
    [
        (GameSetup(seed=1, players=(PlayerSetup("Ada"),)), "2 to 4 players"),
        (GameSetup(seed=1, players=(PlayerSetup("Ada"), PlayerSetup("Bo", "genius"))), "must be one of"),
        (GameSetup(seed=1, players=(PlayerSetup("Ada"), PlayerSetup(" "))), "has no name"),
        (GameSetup(seed=1, players=(PlayerSetup("Ada"), PlayerSetup("B\x1b[2Jo"))), "printable"),
    ],
)
def test_create_refuses_a_bad_setup(service: TableService, bad: GameSetup, reason: str) -> None:
    with pytest.raises(TableError, match=reason):
        service.create(bad)
    assert service.tables == {} and list(service.dir.iterdir()) == []


def test_the_table_list_marks_the_seats_of_the_key_that_asks(service: TableService) -> None:
    seated(service, "human", "human")
    assert service.list(ALICE)[0].yours == [0]
    assert service.list(BOB)[0].yours == [1]
    assert service.list(CAROL)[0].yours == [] == service.list()[0].yours


def test_the_colours_chosen_for_a_table_reach_every_session_and_survive_a_restart(
    service: TableService,
) -> None:
    table = service.create(setup("human", "human", "heuristic"), colours=["green", "yellow", "red"])
    assert service.join(table.id, ALICE, "alice", 0).colours == ["green", "yellow", "red"]
    again = TableService(service.dir)
    assert again.join(table.id, CAROL, "carol", None).colours == ["green", "yellow", "red"]
    plain = service.create(setup("human", "human"))  # no colours chosen: the app's defaults
    assert service.join(plain.id, ALICE, "alice", 0).colours == []


def test_a_table_file_from_before_colours_still_loads(service: TableService) -> None:
    table = service.create(setup("human", "human"))
    text = table.path.read_text()
    table.path.write_text(text.replace(', "colours": []', "").replace(',"colours":[]', ""))
    assert "colours" not in table.path.read_text()
    assert TableService(service.dir).join(table.id, ALICE, "alice", 0).colours == []


def test_hints_are_a_table_option_kept_with_the_table(service: TableService) -> None:
    """Off unless asked for when the table is made; told to the lobby and to every session;
    saved with the table, so a restart keeps it."""
    plain = service.create(setup("human", "human"))
    hinted = service.create(setup("human", "human", "heuristic"), hints=True)
    assert [t.hints for t in service.list()] == [False, True]
    assert service.join(plain.id, ALICE, "alice", 0).hints is False
    assert service.join(hinted.id, ALICE, "alice", 0).hints is True
    assert read_save(hinted.path).meta["table"]["hints"] is True
    again = TableService(service.dir)
    assert again.join(hinted.id, CAROL, "carol", None).hints is True
    assert again.join(plain.id, CAROL, "carol", None).hints is False
    assert [t.hints for t in again.list()] == [False, True]


def test_a_table_file_from_before_the_hints_option_loads_with_hints_off(service: TableService) -> None:
    table = service.create(setup("human", "human"), hints=True)
    text = table.path.read_text()
    table.path.write_text(text.replace(', "hints": true', "").replace(',"hints":true', ""))
    assert "hints" not in table.path.read_text()
    again = TableService(service.dir)
    assert again.problems == []
    assert again.join(table.id, ALICE, "alice", 0).hints is False


@pytest.mark.parametrize(
    "colours", [["green"], ["green", "green"], ["green", "red; rm"], ["green", "x" * 21]]
)
def test_create_refuses_colours_that_are_not_one_name_per_seat(
    service: TableService, colours: list[str]
) -> None:
    with pytest.raises(TableError, match="colours must be a different colour name for each seat"):
        service.create(setup("human", "human"), colours=colours)
    assert service.tables == {}


def test_a_seat_is_bound_to_its_player_for_good(service: TableService) -> None:
    table = service.create(setup("human", "human", "heuristic"))
    joined = service.join(table.id, ALICE, "alice", 0)
    assert joined.seat == 0 and joined.seats[0].holder == "alice" and joined.seats[0].connected
    assert service.join(table.id, ALICE, "alice", 0).seat == 0  # rejoining your own seat
    with pytest.raises(TableError, match="Seat: Ada's seat belongs to alice"):
        service.join(table.id, BOB, "bob", 0)
    with pytest.raises(TableError, match="Seat: Cy's seat is played by the computer"):
        service.join(table.id, BOB, "bob", 2)
    with pytest.raises(TableError, match="seats 1 to 3"):
        service.join(table.id, BOB, "bob", 3)
    with pytest.raises(TableError, match="already hold Ada's seat"):
        service.join(table.id, ALICE, "alice", 1)
    watching = service.join(table.id, CAROL, "carol", None)
    assert watching.seat is None and watching.seats[1].holder is None
    # the binding is in the file: a restarted service still refuses Bob
    again = TableService(service.dir)
    with pytest.raises(TableError, match="belongs to alice"):
        again.join(table.id, BOB, "bob", 0)
    assert again.get(table.id).seats()[0].connected is False


def test_connected_follows_join_and_leave(service: TableService) -> None:
    table_id = seated(service, "human", "human")
    service.join(table_id, ALICE, "alice", 0)  # a second connection of Alice
    service.leave(table_id, 0)
    assert service.get(table_id).seats()[0].connected
    service.leave(table_id, 0)
    assert not service.get(table_id).seats()[0].connected
    assert service.get(table_id).seats()[0].holder == "alice"


def test_nobody_moves_for_another_seat(service: TableService) -> None:
    table_id = seated(service, "human", "human")
    game = service.get(table_id).game
    mover = who(service, table_id)
    other = BOB if mover == ALICE else ALICE
    name = game.setup.players[game.current_player].name
    with pytest.raises(TableError, match=f"Turn: it is {name}'s turn, not yours"):
        service.move(table_id, other, "start-tank C")
    with pytest.raises(TableError, match="spectators cannot move"):
        service.move(table_id, CAROL, "start-tank C")
    assert game.moves == []
    update = service.move(table_id, mover, "start-tank C")
    assert (update.base, update.moves) == (0, ["start-tank C"])
    assert len(load_game(service.get(table_id).path).moves) == 1


def test_an_illegal_move_is_refused_with_the_engines_reason(service: TableService) -> None:
    table_id = seated(service, "human", "human")
    game = service.get(table_id).game
    mover = who(service, table_id)
    reason = game.why_illegal(parse_move("end"))
    assert reason
    with pytest.raises(TableError) as refused:
        service.move(table_id, mover, "end")
    assert str(refused.value) == reason
    with pytest.raises(TableError, match="unknown move .fly."):
        service.move(table_id, mover, "fly to the moon")
    assert game.moves == [] and len(load_game(service.get(table_id).path).moves) == 0


def test_undo_only_your_own_moves_within_your_own_turn(service: TableService) -> None:
    table_id = seated(service, "human", "human")
    table = service.get(table_id)
    first = who(service, table_id)
    second = BOB if first == ALICE else ALICE
    service.move(table_id, first, "start-tank C")
    service.move(table_id, first, "start-tank L")
    with pytest.raises(TableError, match="Turn: it is .* not yours"):
        service.undo(table_id, second)
    with pytest.raises(TableError, match="spectators cannot undo"):
        service.undo(table_id, CAROL)
    update = service.undo(table_id, first)
    assert (update.base, update.moves) == (1, []) and "took back start-tank L" in update.note
    assert len(load_game(table.path).moves) == 1
    service.undo(table_id, first)
    with pytest.raises(TableError, match="no move to take back"):
        service.undo(table_id, first)
    # the fifth starting Tank ends the setup turn: it cannot be taken back afterwards
    for _ in range(5):
        service.move(table_id, first, "start-tank C")
    assert who(service, table_id) == second
    with pytest.raises(TableError, match="Turn: it is"):
        service.undo(table_id, first)
    with pytest.raises(TableError, match="only your own moves of your current turn"):
        service.undo(table_id, second)  # it is Bob's turn, but the last move is Alice's
    assert len(table.game.moves) == 5


def test_undo_after_end_turn_is_refused(service: TableService) -> None:
    table_id = seated(service, "human", "human")
    table = service.get(table_id)
    play_turn(service, table_id)
    play_turn(service, table_id)
    assert table.game.state.turn.stage == "work"
    player = who(service, table_id)
    played = play_turn(service, table_id)
    assert played[-1] == "end" and len(played) > 1
    with pytest.raises(TableError, match="Turn: it is"):
        service.undo(table_id, player)
    count = len(table.game.moves)
    nxt = who(service, table_id)
    with pytest.raises(TableError, match="only your own moves of your current turn"):
        service.undo(table_id, nxt)
    # within the next turn, the new player may take back their own move, back to its start
    service.move(table_id, nxt, format_move(choose_move(table.game, "heuristic", seed=3)))
    assert who(service, table_id) == nxt
    service.undo(table_id, nxt)
    assert len(table.game.moves) == count
    with pytest.raises(TableError, match="only your own moves of your current turn"):
        service.undo(table_id, nxt)


def test_every_table_resumes_after_a_restart(service: TableService) -> None:
    one = seated(service, "human", "human")
    two = seated(service, "human", "human", "random")
    play_turn(service, one)
    play_turn(service, one)
    play_turn(service, two)
    logs = {key: service.get(key).log() for key in (one, two)}
    again = TableService(service.dir)
    assert {key: again.get(key).log() for key in (one, two)} == logs
    assert again.get(two).bindings == service.get(two).bindings
    assert again.problems == []
    play_turn(again, one)  # and play goes on from there
    assert len(again.get(one).log()) > len(logs[one])


def test_a_broken_table_file_is_reported_skipped_and_never_overwritten(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / "t4.json").write_bytes(b'{"format": "pipeline-tui-save", "vers')
    (folder / "Bad Name.json").write_bytes(b"{}")
    service = TableService(folder)
    assert service.tables == {}
    assert len(service.problems) == 2
    assert any(p.startswith("t4.json") and "truncated" in p for p in service.problems)
    assert any(p.startswith("Bad Name.json") for p in service.problems)
    table = service.create(setup("human", "human"))
    assert table.id == "t5"
    assert (folder / "t4.json").read_bytes() == b'{"format": "pipeline-tui-save", "vers'


def test_a_table_file_replaced_under_the_service_is_not_clobbered(service: TableService) -> None:
    table_id = seated(service, "human", "human")
    table = service.get(table_id)
    table.path.write_bytes(b"not a save")
    with pytest.raises(TableError, match="could not be saved"):
        service.move(table_id, who(service, table_id), "start-tank C")
    assert table.game.moves == []  # the refused change was taken back
    assert table.path.read_bytes() == b"not a save"


def test_a_plain_save_in_the_folder_is_a_table_with_open_seats(tmp_path: Path) -> None:
    from pipeline_tui.engine import Game
    from pipeline_tui.storage import save_game

    folder = tmp_path / "tables"
    folder.mkdir()
    game = Game(setup("human", "heuristic"))
    game.play("start-tank C")
    save_game(game, folder / "friday.json")
    service = TableService(folder)
    table = service.get("friday")
    assert table.log() == ["start-tank C"] and table.bindings == [None, None]
    assert table.name == "friday"
    assert table.bot_to_act() == ("heuristic" if table.game.current_player == 1 else None)


def test_an_unnamed_table_is_named_in_each_viewers_language(service: TableService) -> None:
    """Issue 15: no English name is stored for an unnamed table; the lobby of each session
    calls it "Table 1" or "Стол 1". A table stored with the English name before reads as unnamed."""
    table = service.create(setup("human", "human"))
    info = service.list()[0]
    assert info.name == "" and read_save(table.path).meta["table"]["name"] == ""
    assert table_name(info.id, info.name) == "Table 1"
    i18n.set_language("ru")
    try:
        assert table_name(info.id, info.name) == "Стол 1"
    finally:
        i18n.set_language("en")
    text = table.path.read_text()
    table.path.write_text(
        text.replace('"name": ""', '"name": "Table 1"').replace('"name":""', '"name":"Table 1"')
    )
    assert read_save(table.path).meta["table"]["name"] == "Table 1"
    assert TableService(service.dir).list()[0].name == ""


def test_an_id_is_never_given_out_twice_even_if_its_file_went(service: TableService) -> None:
    first = service.create(setup("human", "human"))
    first.path.unlink()  # removed by hand while the server runs
    assert service.create(setup("human", "human")).id == "t2"
    assert service.get(first.id) is first
