"""The pipe tile set (docs/architecture.md): 135 unique dominoes, 3 pipes and 4 segments each."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline_tui.data import tilegen
from pipeline_tui.data.components import PIPE_TILES, pipe_tiles
from pipeline_tui.engine.network import build_map, rotated_halves, tile_cells

from tests.helpers import build, straight_row, tile_for

TILES = pipe_tiles()


def _as_half(half) -> tilegen.Half:
    return tuple(tuple(p) for p in half.paths)  # type: ignore[return-value]


def test_there_are_exactly_135_tiles_with_ids_in_order():
    assert len(TILES) == PIPE_TILES == 135
    assert [t.id for t in TILES] == list(range(135))


def test_no_two_tiles_are_equal_even_after_a_half_turn():
    keys = [tilegen.canonical_key(_as_half(t.a), _as_half(t.b)) for t in TILES]
    assert len(set(keys)) == 135


def test_canonical_key_identifies_a_tile_with_its_half_turn():
    t = TILES[17]
    a, b = _as_half(t.a), _as_half(t.b)
    turned = (tilegen._rotate_half_180(b), tilegen._rotate_half_180(a))
    assert tilegen.canonical_key(*turned) == tilegen.canonical_key(a, b)


def test_each_half_pairs_its_four_edges_into_two_paths():
    for tile in TILES:
        for half in (tile.a, tile.b):
            edges = sorted(e for a, b, _ in half.paths for e in (a, b))
            assert edges == [0, 1, 2, 3], tile
            assert all(0 <= c <= 2 for _, _, c in half.paths), tile


def test_the_join_carries_one_colour_across_both_halves():
    for tile in TILES:
        a_join = [c for x, y, c in tile.a.paths if 1 in (x, y)]  # half A's east edge
        b_join = [c for x, y, c in tile.b.paths if 3 in (x, y)]  # half B's west edge
        assert len(a_join) == len(b_join) == 1
        assert a_join == b_join, tile


def test_the_checked_in_json_equals_the_generator_output():
    assert tilegen.TILES_FILE.read_text(encoding="utf-8") == tilegen.to_json(tilegen.generate())


def test_every_colour_appears_on_the_join_of_45_tiles():
    counts = [0, 0, 0]
    for tile in TILES:
        counts[next(c for x, y, c in tile.a.paths if 1 in (x, y))] += 1
    assert counts == [45, 45, 45]


@pytest.mark.parametrize("rot", [0, 1, 2, 3])
def test_a_single_tile_traces_to_three_pipelines_of_2_1_1_segments(rot):
    net = build_map([(67, 5, -3, rot)], [])
    assert sorted(p.segments for p in net.pipelines) == [1, 1, 2]
    assert set(net.cells) == set(tile_cells(5, -3, rot))
    join = next(p for p in net.pipelines if p.segments == 2)
    cells_of_join = {(x, y) for (x, y, _), p in net.segment_pipeline.items() if p is join}
    assert cells_of_join == set(tile_cells(5, -3, rot))


def test_every_tile_traces_to_three_pipelines():
    for tile in TILES:
        net = build_map([(tile.id, 0, 0, 0)], [])
        assert sorted(p.segments for p in net.pipelines) == [1, 1, 2]


def test_rotation_moves_half_b_and_turns_every_path():
    assert tile_cells(0, 0, 0) == ((0, 0), (1, 0))
    assert tile_cells(0, 0, 1) == ((0, 0), (0, 1))
    assert tile_cells(0, 0, 2) == ((0, 0), (-1, 0))
    assert tile_cells(0, 0, 3) == ((0, 0), (0, -1))
    a0, b0 = rotated_halves(10, 0)
    a1, b1 = rotated_halves(10, 1)
    assert [((x + 1) % 4, (y + 1) % 4, c) for x, y, c in a0] == list(a1)
    assert [((x + 1) % 4, (y + 1) % 4, c) for x, y, c in b0] == list(b1)
    # The join path always points at the other half: east for rot 0, south for rot 1.
    assert any(1 in (x, y) for x, y, _ in a0) and any(2 in (x, y) for x, y, _ in a1)


def test_tile_for_finds_the_tile_laying_the_wanted_paths():
    placed = tile_for((0, 0), "EW:O NS:T", (1, 0), "EW:O NS:S")
    tid, x, y, rot = placed
    halves = dict(zip(tile_cells(x, y, rot), rotated_halves(tid, rot)))
    assert {frozenset((a, b)): c for a, b, c in halves[(0, 0)]} == {
        frozenset((1, 3)): 0,
        frozenset((0, 2)): 1,
    }
    assert {frozenset((a, b)): c for a, b, c in halves[(1, 0)]} == {
        frozenset((1, 3)): 0,
        frozenset((0, 2)): 2,
    }


def test_only_six_tiles_make_a_straight_run_of_one_colour():
    """Both halves straight with the join in one colour: 3 x 3 crossing colours, 6 up to a half
    turn. So a straight row of one colour is at most 6 tiles, 12 segments."""
    tiles = build(*straight_row("O", 6))
    assert len({t[0] for t in tiles}) == 6
    with pytest.raises(LookupError):
        build(*straight_row("O", 7))
    net = build_map(tiles, [])
    assert max(p.segments for p in net.pipelines if p.colour == 0) == 12


def test_neighbouring_tiles_join_only_matching_colours():
    tiles = build(((0, 0), "EW:O NS:S", (1, 0), "EW:O NS:S"), ((2, 0), "EW:T NS:*", (3, 0), "EW:T NS:*"))
    net = build_map(tiles, [])
    assert sorted(p.segments for p in net.pipelines if p.colour in (0, 1) and p.segments > 1) == [2, 2]


PRINTED = Path(__file__).parent / "fixtures" / "printed_pipe_tiles.txt"


def _printed_faces() -> list[tuple[str, tilegen.Half, tilegen.Half, int]]:
    """The printed tiles from the transcription (docs/components.md), with our matching id."""
    out = []
    for line in PRINTED.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        where, faces = line[:16].strip(), line[16:]
        halves, ours = faces.split("=")
        a, b = (
            tuple(sorted(("NESW".index(p[0]), "NESW".index(p[1]), "OTS".index(p[3])) for p in half.split()))
            for half in halves.split("|")
        )
        out.append((where, a, b, int(ours)))
    return out


def test_the_printed_tiles_are_our_135_face_for_face_under_a_half_turn():
    printed = _printed_faces()
    assert len(printed) == 135
    keys = {tilegen.canonical_key(a, b) for _, a, b, _ in printed}
    assert len(keys) == 135  # no printed tile repeats another, turned or not
    ours = {tilegen.canonical_key(_as_half(t.a), _as_half(t.b)): t.id for t in TILES}
    assert keys == set(ours)
    for where, a, b, our_id in printed:
        assert ours[tilegen.canonical_key(a, b)] == our_id, where
    assert sorted(our_id for *_, our_id in printed) == list(range(135))
