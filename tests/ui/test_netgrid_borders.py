"""Tile borders on the network grid must read without colour (16 colours, NO_COLOR): the lane
between two tiles is dashed, the lane inside one tile is blank but for its join pipe, and two
colours meeting without joining show ``×``."""

from __future__ import annotations

from pipeline_tui.engine.network import rotated_halves
from pipeline_tui.ui.netgrid import CELL_H, render_network


def _lines(tiles, machines=()):
    text, grid = render_network(tiles, list(machines))
    return text.plain.splitlines(), grid


def _east_lane(lines, grid, x, y):
    """The lane characters between cell (x, y) and cell (x + 1, y), top to bottom."""
    col, row = grid.lane(x + 1, y)
    return "".join(lines[row + 1 + r][col] for r in range(CELL_H))


def test_inside_a_tile_the_lane_is_blank_but_for_the_join_pipe():
    lines, grid = _lines([(0, 0, 0, 0)])
    assert _east_lane(lines, grid, 0, 0) == " ─ "


def test_between_two_tiles_the_lane_is_dashed():
    colour_east = next(c for a, b, c in rotated_halves(0, 0)[1] if 1 in (a, b))
    other = next(
        t for t in range(135) if next(c for a, b, c in rotated_halves(t, 0)[0] if 3 in (a, b)) == colour_east
    )
    lines, grid = _lines([(0, 0, 0, 0), (other, 2, 0, 0)])
    assert _east_lane(lines, grid, 1, 0) == "╎─╎"  # the pipes join across the border


def test_colours_meeting_without_joining_show_a_cross():
    colour_east = next(c for a, b, c in rotated_halves(0, 0)[1] if 1 in (a, b))
    other = next(
        t for t in range(135) if next(c for a, b, c in rotated_halves(t, 0)[0] if 3 in (a, b)) != colour_east
    )
    lines, grid = _lines([(0, 0, 0, 0), (other, 2, 0, 0)])
    assert _east_lane(lines, grid, 1, 0) == "╎×╎"


def test_a_machine_shows_where_it_attaches():
    lines, grid = _lines([(0, 0, 0, 0)], machines=[(1, 0)])
    assert _east_lane(lines, grid, 0, 0) == " █ "


def test_outer_border_and_corners_outline_the_tile():
    lines, grid = _lines([(0, 0, 0, 0)])
    col, row = grid.lane(0, 0)
    assert lines[row][col : col + 13] == "+╌╌╌╌╌╌╌╌╌╌╌+"  # one outline over both halves
