"""Snapshots of the network view at 80 x 24 and 160 x 48: both zooms with a Pipeline picked,
and a placement's preview (pytest-textual-snapshot; ``--snapshot-update`` after an intended
change)."""

from __future__ import annotations

import pytest

pytest.importorskip("pytest_textual_snapshot")

from pipeline_tui.ui.app import PipelineApp  # noqa: E402

from tests.ui.pilot import choose  # noqa: E402
from tests.ui.test_network_view import table_with_network  # noqa: E402

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}


def app_for(tmp_path) -> PipelineApp:
    return PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)


@pytest.mark.parametrize("zoom", ["detail", "overview"])
@pytest.mark.parametrize("size", SIZES)
def test_network_view(snap_compare, tmp_path, size, zoom):
    async def run_before(pilot):
        await table_with_network(pilot)
        await pilot.press("n")
        await pilot.pause()
        pilot.app.screen.letters = False
        await pilot.press("tab", *(["z"] if zoom == "overview" else []))
        await pilot.pause()

    assert snap_compare(app_for(tmp_path), terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_network_view_placing_a_tile(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await table_with_network(pilot, rows=2, per_row=3)
        await choose(pilot, "act tanks")
        await choose(pilot, "pipe 1")
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("tab")
        await pilot.pause()

    assert snap_compare(app_for(tmp_path), terminal_size=SIZES[size], run_before=run_before)
