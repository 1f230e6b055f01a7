"""Save files: round trips, every rejection with its one-line message, atomic and careful writes,
listings, the saves folder, autosave, upcasting and the frozen fixture saves."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import msgspec
import pytest

from pipeline_tui.engine import Game, GameSetup
from pipeline_tui.engine import moves as M
from pipeline_tui.engine.setup import RULES_VERSION
from pipeline_tui.storage import (
    UPCASTERS,
    SaveError,
    autosave,
    default_saves_dir,
    latest_autosave,
    list_saves,
    load_game,
    read_save,
    save_game,
)
from pipeline_tui.storage import saves as saves_module

from tests.helpers import new_game, pass_turn, play

FIXTURES = sorted((Path(__file__).parent / "fixtures" / "saves").glob("*.json"))


def random_game(players: int, seed: int, moves: int | None = None) -> Game:
    """Seeded random legal play, to the end or for ``moves`` moves."""
    game = Game(GameSetup.default(players=players, seed=seed))
    rng = random.Random(seed)
    while not game.is_over() and (moves is None or len(game.moves) < moves):
        game.apply_trusted(rng.choice(game.legal_moves()))
    return game


@pytest.fixture(scope="module")
def finished() -> Game:
    return random_game(2, 21)


@pytest.fixture
def save_dict(finished, tmp_path) -> dict:
    path = tmp_path / "base.json"
    save_game(finished, path)
    return json.loads(path.read_bytes())


def frozen(path: Path) -> tuple[bytes, int]:
    """Bytes and an old mtime (set now), to check later that a load did not touch the file."""
    os.utime(path, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    return path.read_bytes(), path.stat().st_mtime_ns


def frozen_now(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


def assert_one_line(exc: pytest.ExceptionInfo, *fragments: str) -> None:
    text = str(exc.value)
    assert "\n" not in text and len(text) <= 400
    for fragment in fragments:
        assert fragment in text, text


# --- Round trips ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, seed, moves", [(2, 1, None), (3, 2, None), (4, 3, None), (3, 4, 90), (4, 5, 7)]
)
def test_round_trip_restores_state_and_moves(tmp_path, players, seed, moves):
    game = random_game(players, seed, moves)
    path = tmp_path / "game.json"
    save_game(game, path)
    loaded = load_game(path)
    assert loaded.setup == game.setup
    assert loaded.moves == game.moves
    assert loaded.state == game.state
    assert loaded.legal_moves() == game.legal_moves()


def test_a_game_without_moves_round_trips(tmp_path):
    game = Game(GameSetup.default(players=4, seed=2, first_game=True))
    save_game(game, tmp_path / "new.json")
    loaded = load_game(tmp_path / "new.json")
    assert (loaded.moves, loaded.setup, loaded.state) == ([], game.setup, game.state)


def test_envelope_uses_msgspec_default_tag_field_type(finished, tmp_path):
    path = tmp_path / "game.json"
    save_game(finished, path)
    data = json.loads(path.read_bytes())
    assert data["format"] == "pipeline-tui-save" and data["version"] == 2
    assert data["moves"][0] == {"type": "start_tank", "grade": finished.moves[0].grade}
    assert data["setup"]["seed"] == 21
    assert len(data["moves"]) == len(finished.moves)


def test_meta_states_the_game_and_keeps_caller_keys(finished, tmp_path):
    path = tmp_path / "game.json"
    save_game(finished, path, {"title": "Friday", "moves": 3, "created": "2020-01-01T00:00:00Z"})
    meta = read_save(path).meta
    scores = finished.scores()
    assert meta["title"] == "Friday"
    assert meta["created"] == "2020-01-01T00:00:00Z"
    assert meta["moves"] == len(finished.moves)  # a caller cannot contradict the log
    assert meta["players"] == ["Ada", "Bo"]
    assert (meta["year"], meta["round"], meta["finished"]) == (3, 4, True)
    assert meta["winners"] == [scores[0].name]
    assert meta["totals"] == [s.total for s in sorted(scores, key=lambda s: s.seat)]
    assert meta["updated"].endswith("Z")


def test_resaving_keeps_created_and_unfinished_game_has_no_winner(tmp_path):
    game = random_game(3, 8, 30)
    path = tmp_path / "game.json"
    save_game(game, path, {"created": "2021-05-05T10:00:00Z"})
    game.apply_trusted(game.legal_moves()[0])
    save_game(game, path)
    meta = read_save(path).meta
    assert meta["created"] == "2021-05-05T10:00:00Z"
    assert meta["moves"] == 31 and meta["finished"] is False
    assert "winners" not in meta


# --- Rejections: one clear line, file untouched -------------------------------------------------


def _bytes_for(case: str, base: dict) -> bytes:
    good = json.dumps(base).encode()
    if case == "empty":
        return b""
    if case == "blank":
        return b"  \n\n"
    if case == "truncated":
        return good[: len(good) // 2]
    if case == "malformed":
        return b'{"format": "pipeline-tui-save", "version": 1,,}'
    if case == "binary":
        return bytes(range(256))
    if case == "foreign_object":
        return b'{"name": "my shopping list", "items": [1, 2]}'
    if case == "foreign_array":
        return b"[1, 2, 3]"
    changed = json.loads(good)
    if case == "newer":
        changed["version"] = 99
    elif case == "version_text":
        changed["version"] = "1"
    elif case == "unknown_old":
        changed["version"] = 0
    elif case == "seed_text":
        changed["setup"]["seed"] = "abc"
    elif case == "unknown_move":
        changed["moves"][3] = {"type": "teleport"}
    elif case == "missing_moves":
        del changed["moves"]
    elif case == "five_players":
        changed["setup"]["players"] = [{"name": n} for n in "ABCDE"]
    elif case == "rules_version":
        changed["setup"]["rules_version"] = 7
    elif case == "illegal_move":
        changed["moves"][6] = {"type": "buy", "row": "C-OC", "slot": 0}
    elif case == "out_of_range":
        changed["moves"][0] = {"type": "start_tank", "grade": 9}
    elif case == "row_with_newline":
        changed["moves"][6] = {"type": "sell", "row": "C-OC\nX" * 200, "slot": 0, "colour": 0, "grade": 0}
    elif case == "extra_move":
        changed["moves"].append({"type": "end_turn"})
    return json.dumps(changed).encode()


REJECTIONS = [
    ("empty", "the file is empty"),
    ("blank", "the file is empty"),
    ("truncated", "truncated"),
    ("malformed", "not valid JSON"),
    ("binary", "not valid JSON"),
    ("foreign_object", "not a pipeline-tui save"),
    ("foreign_array", "not a pipeline-tui save"),
    ("newer", "version 99 is newer"),
    ("version_text", "version is missing or not a number"),
    ("unknown_old", "version 0 is not known"),
    ("seed_text", "$.setup.seed"),
    ("unknown_move", "$.moves[3].type"),
    ("missing_moves", "missing required field `moves`"),
    ("five_players", "2 to 4 players, not 5"),
    ("rules_version", "rules version 7"),
    ("illegal_move", "move 7 (buy C-OC#1): Markets:"),
    ("out_of_range", "move 1 (start-tank 9): Tank Farm"),
    ("extra_move", "the game is over"),
    ("row_with_newline", "move 7 (sell C-OC X"),
]


@pytest.mark.parametrize("case, fragment", REJECTIONS, ids=[c for c, _ in REJECTIONS])
def test_bad_file_is_rejected_with_one_line_and_left_alone(tmp_path, save_dict, case, fragment):
    path = tmp_path / f"{case}.json"
    path.write_bytes(_bytes_for(case, save_dict))
    before = frozen(path)
    with pytest.raises(SaveError) as exc:
        load_game(path)
    assert_one_line(exc, f"{case}.json: ", fragment)
    assert frozen_now(path) == before


def test_loading_a_good_file_does_not_touch_it(finished, tmp_path):
    path = tmp_path / "good.json"
    save_game(finished, path)
    before = frozen(path)
    load_game(path)
    read_save(path)
    list_saves(tmp_path)
    assert frozen_now(path) == before


def test_missing_file_directory_and_unreadable_file(tmp_path, monkeypatch):
    with pytest.raises(SaveError) as exc:
        load_game(tmp_path / "nope.json")
    assert_one_line(exc, "nope.json: no such file")
    with pytest.raises(SaveError) as exc:
        load_game(tmp_path)
    assert_one_line(exc, "is a directory")
    locked = tmp_path / "locked.json"
    locked.write_text("{}")

    def denied(self):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", denied)
    with pytest.raises(SaveError) as exc:
        load_game(locked)
    assert_one_line(exc, "locked.json: permission denied")


# --- Writing: atomic, and never clobbering -----------------------------------------------------


def test_atomic_write_leaves_only_the_save(finished, tmp_path):
    save_game(finished, tmp_path / "a.json")
    save_game(finished, tmp_path / "a.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]


def test_failed_write_keeps_the_old_file_and_no_temp(finished, tmp_path, monkeypatch):
    path = tmp_path / "a.json"
    save_game(random_game(2, 9, 12), path)
    before = path.read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(saves_module.os, "replace", broken_replace)
    with pytest.raises(SaveError) as exc:
        save_game(finished, path)
    assert_one_line(exc, "a.json: cannot be written (No space left on device)")
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]


@pytest.mark.parametrize(
    "content",
    [
        b"my notes, not a game\n",
        b"",
        b'{"format": "other"}',
        b'{"format": "pipeline-tui-save", "version": 2}',
    ],
)
def test_refuses_to_overwrite_a_file_that_is_not_a_readable_save(finished, tmp_path, content):
    path = tmp_path / "notes.json"
    path.write_bytes(content)
    with pytest.raises(SaveError) as exc:
        save_game(finished, path)
    assert_one_line(exc, "notes.json: refusing to overwrite")
    assert path.read_bytes() == content
    save_game(finished, path, force=True)
    assert load_game(path).moves == finished.moves


def test_saving_onto_a_directory_or_into_a_missing_folder_fails(finished, tmp_path):
    with pytest.raises(SaveError) as exc:
        save_game(finished, tmp_path)
    assert_one_line(exc, "is a directory")
    with pytest.raises(SaveError) as exc:
        save_game(finished, tmp_path / "missing" / "a.json")
    assert_one_line(exc, "a.json: the folder", "does not exist")


def test_meta_that_is_not_json_is_refused(finished, tmp_path):
    with pytest.raises(SaveError) as exc:
        save_game(finished, tmp_path / "a.json", {"when": object()})
    assert_one_line(exc, "meta cannot be written")
    assert not (tmp_path / "a.json").exists()


# --- Listing, folder, autosave -------------------------------------------------------------------


def test_list_saves_newest_first_with_broken_files_listed(tmp_path, finished):
    old = random_game(3, 11, 40)
    save_game(old, tmp_path / "old.json")
    save_game(finished, tmp_path / "new.json")
    (tmp_path / "broken.json").write_text('{"format": "pipeline-tui-save", "version": 1')
    (tmp_path / "readme.txt").write_text("not listed")
    for i, name in enumerate(["old.json", "broken.json", "new.json"]):
        os.utime(tmp_path / name, (1_600_000_000 + i, 1_600_000_000 + i))
    infos = list_saves(tmp_path)
    assert [i.path.name for i in infos] == ["new.json", "broken.json", "old.json"]
    new, broken, old_info = infos
    assert new.error is None and new.finished and new.moves == len(finished.moves)
    assert new.winners == (finished.scores()[0].name,)
    assert (old_info.players, old_info.moves, old_info.finished) == (("Ada", "Bo", "Cy"), 40, False)
    assert (old_info.year, old_info.round) == (old.state.year, old.state.round)
    assert "truncated" in broken.error and broken.moves == 0
    assert list_saves(tmp_path / "absent") == []


def test_default_saves_dir_env_then_cwd(tmp_path, monkeypatch):
    monkeypatch.setenv("PIPELINE_TUI_SAVES", str(tmp_path / "mine"))
    assert default_saves_dir() == tmp_path / "mine"
    monkeypatch.delenv("PIPELINE_TUI_SAVES")
    monkeypatch.chdir(tmp_path)
    assert default_saves_dir() == tmp_path / "saves"


def test_autosave_creates_folder_and_latest_autosave_finds_newest(tmp_path):
    folder = tmp_path / "deep" / "saves"
    assert latest_autosave(folder) is None
    first = autosave(random_game(2, 31, 10), folder)
    assert first == folder / "autosave-31.json"
    second = autosave(random_game(2, 32, 10), folder)
    named = autosave(random_game(2, 33, 10), folder, name="mine.json")
    assert named == folder / "mine.json"
    os.utime(first, (1_700_000_100, 1_700_000_100))
    os.utime(second, (1_700_000_000, 1_700_000_000))
    os.utime(named, (1_700_000_200, 1_700_000_200))
    assert latest_autosave(folder) == first
    assert load_game(first).moves == random_game(2, 31, 10).moves


# --- Upcasting ---------------------------------------------------------------------------------


def test_an_old_version_loads_through_its_upcaster(tmp_path, save_dict, monkeypatch):
    old = dict(save_dict, version=0)
    old["log"] = old.pop("moves")
    path = tmp_path / "v0.json"
    path.write_text(json.dumps(old))

    def v0_to_v1(data: dict) -> dict:
        data["moves"] = data.pop("log")
        data["version"] = 1
        return data

    monkeypatch.setitem(UPCASTERS, 0, v0_to_v1)
    game = load_game(path)
    assert len(game.moves) == len(save_dict["moves"])
    assert game.is_over()


def test_a_version_1_save_upcasts_to_component_edition_1():
    v1 = FIXTURES[[p.name for p in FIXTURES].index("v1-finished-2p.json")]
    raw = json.loads(v1.read_text(encoding="utf-8"))
    assert raw["version"] == 1 and "edition" not in raw["setup"]
    upcast = UPCASTERS[1](json.loads(v1.read_text(encoding="utf-8")))
    assert upcast["version"] == 2 and upcast["setup"] == {**raw["setup"], "edition": 1}
    assert read_save(v1).version == 2 and read_save(v1).setup.edition == 1


def test_new_saves_name_their_edition_in_format_version_2(tmp_path):
    game = Game(GameSetup.default(2, 8))
    save_game(game, tmp_path / "new.json")
    data = json.loads((tmp_path / "new.json").read_bytes())
    assert data["version"] == 2 and data["setup"]["edition"] == 2
    assert load_game(tmp_path / "new.json").state.market_layout == game.state.market_layout


def test_a_failing_upcaster_gives_one_line(tmp_path, save_dict, monkeypatch):
    path = tmp_path / "v0.json"
    path.write_text(json.dumps(dict(save_dict, version=0)))
    monkeypatch.setitem(UPCASTERS, 0, lambda data: data["log"])
    with pytest.raises(SaveError) as exc:
        load_game(path)
    assert_one_line(exc, "v0.json: cannot upgrade it from format version 0 (KeyError")
    monkeypatch.setitem(UPCASTERS, 0, lambda data: data)
    with pytest.raises(SaveError) as exc:
        load_game(path)
    assert_one_line(exc, "the upgrade from format version 0 went wrong")


# --- Frozen fixtures from released versions ----------------------------------------------------


def test_fixtures_exist():
    assert len(FIXTURES) >= 3


@pytest.mark.parametrize("path", FIXTURES, ids=[p.name for p in FIXTURES])
def test_fixture_replays_and_matches_its_meta(path):
    save = read_save(path)
    game = load_game(path)
    meta = save.meta
    assert meta["moves"] == len(game.moves) == len(save.moves)
    assert (meta["year"], meta["round"]) == (game.state.year, game.state.round)
    assert meta["finished"] == game.is_over()
    assert meta["players"] == [p.name for p in game.setup.players]
    if game.is_over():
        assert meta["winners"] == [s.name for s in game.scores() if s.rank == 1]
        assert meta["totals"] == [s.total for s in sorted(game.scores(), key=lambda s: s.seat)]


def test_fixtures_cover_finished_and_unfinished_games_of_each_size():
    seen = {(len(read_save(p).setup.players), read_save(p).meta["finished"]) for p in FIXTURES}
    assert {(2, True), (4, True), (3, False)} <= seen


def test_fixtures_cover_both_component_editions():
    seen = {
        (read_save(p).setup.edition, len(read_save(p).setup.players), read_save(p).meta["finished"])
        for p in FIXTURES
    }
    for edition in (1, 2):
        assert {(edition, 2, True), (edition, 4, True), (edition, 3, False)} <= seen


@pytest.mark.parametrize("path", FIXTURES, ids=[p.name for p in FIXTURES])
def test_a_fixture_plays_the_edition_its_setup_records(path):
    raw = json.loads(path.read_text(encoding="utf-8"))
    game = load_game(path)
    assert game.setup.edition == game.state.edition == raw["setup"].get("edition", 1)
    assert bool(game.state.market_layout) == (game.state.edition == 2)


def test_saved_moves_decode_back_to_the_same_structs(finished):
    raw = msgspec.json.encode(finished.moves)
    assert msgspec.json.decode(raw, type=list[M.AnyMove]) == finished.moves


def test_new_games_use_rules_version_2_and_a_save_keeps_its_version(tmp_path):
    assert GameSetup.default(players=2, seed=3).rules_version == RULES_VERSION == 2
    game = new_game(players=3, rules_version=1)
    play(game, "act tanks", "done", "order-place 1", "end")
    path = tmp_path / "old-rules.json"
    save_game(game, path)
    loaded = load_game(path)
    assert loaded.setup.rules_version == loaded.state.rules_version == 1
    assert loaded.state.next_order == game.state.next_order and loaded.state.next_track == []


def test_a_move_log_replays_by_the_rules_version_its_setup_names(tmp_path):
    """Space 3 of the track is free in rules version 2; version 1 has only places 1 and 2."""
    game = new_game(players=3)
    pass_turn(game)
    play(game, "act tanks", "done", "order-place 3", "end")
    path = tmp_path / "new-rules.json"
    save_game(game, path)
    assert load_game(path).state.next_track == game.state.next_track
    data = json.loads(path.read_text())
    data["setup"]["rules_version"] = 1
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match=r"order-place 3\): Turn Order: choose a place from 1 to 2"):
        load_game(path)


def test_an_autosave_is_never_overwritten_by_an_older_state_of_its_game(tmp_path):
    finished = random_game(2, 41)
    first = autosave(finished, tmp_path)
    assert first == tmp_path / "autosave-41.json"
    early = Game(finished.setup, finished.moves[:9])
    branch = autosave(early, tmp_path)
    assert branch == tmp_path / "autosave-41-2.json"
    assert load_game(first).moves == finished.moves
    assert load_game(branch).moves == early.moves
    other = Game(GameSetup.default(players=3, seed=41))
    assert autosave(other, tmp_path) == tmp_path / "autosave-41-3.json"


def test_an_autosave_goes_on_along_its_own_line_undo_included(tmp_path):
    game = random_game(2, 42, 6)
    path = autosave(game, tmp_path)
    game.apply_trusted(game.legal_moves()[0])
    assert autosave(game, tmp_path) == path  # a later point of the same line
    written = list(game.moves)
    game.undo()
    game.undo()
    assert autosave(game, tmp_path, path.name, written) == path  # its own undo
    assert load_game(path).moves == game.moves
    assert autosave(Game(game.setup, game.moves[:2]), tmp_path) != path  # a stranger's
