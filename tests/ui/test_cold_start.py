"""Cold start (issue 38, point 3): the way to the title screen imports nothing the title does
not draw: not the engine (nor the saves' replay, the component tables or msgspec), the other
screens, the table, the chart (plotext), Markdown (markdown-it), the network layer, the SSH or
web stacks, the bots, the plain-text game. Checked in a fresh interpreter, since this one has
imported everything; the command line's parser is built on the way, as ``pipeline-tui`` does."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline_tui import ui
from pipeline_tui.ui.app import PipelineApp

NOT_FOR_THE_TITLE = (
    "pipeline_tui.ui.table_screen",
    "pipeline_tui.ui.chart",
    "textual_plotext",
    "plotext",
    "markdown_it",
    "asyncssh",
    "aiohttp",
    "textual_serve",
    "pipeline_tui.serve",
    "pipeline_tui.ai",
    "pipeline_tui.engine",
    "pipeline_tui.storage.saves",
    "pipeline_tui.data.components",
    "pipeline_tui.data.editions",
    "pipeline_tui.data.reference",
    "pipeline_tui.net",
    "pipeline_tui.text",
    "pipeline_tui.summary",
    "pipeline_tui.cli.hotseat",
    "pipeline_tui.ui.screens",
    "pipeline_tui.ui.seats",
    "pipeline_tui.ui.tutorial",
    "pipeline_tui.ui.reference_screen",
    "pipeline_tui.ui.panels",
    "pipeline_tui.ui.widgets",
    "pipeline_tui.ui.lobby",
    "msgspec",
)

TITLE = """
import asyncio, gc, json, sys, tempfile
import pipeline_tui.cli
pipeline_tui.cli.build_parser()
from pipeline_tui.ui.app import PipelineApp

async def main():
    saves = tempfile.mkdtemp()
    open(saves + "/autosave-1.json", "w").close()  # "Continue" names it, reading no game
    app = PipelineApp(mode="title", saves_dir=saves)
    app.settle_heap = True  # as run_app does: once the title is drawn
    gc.disable()  # as run_app does, until then
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "autosave-1.json" in str(app.screen.query_one("#title-menu").get_option("continue").prompt)
        frozen = gc.get_freeze_count()
        collecting = gc.isenabled()
    print(json.dumps([frozen, collecting, sorted(sys.modules)]))

asyncio.run(main())
"""


def test_the_title_imports_only_what_it_draws():
    out = subprocess.run(
        [sys.executable, "-c", TITLE], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    frozen, collecting, modules = json.loads(out.strip().splitlines()[-1])
    assert frozen > 10_000  # the start's objects, frozen after the first frame
    assert collecting  # and the collector on again
    loaded = set(modules)
    assert {"pipeline_tui.ui.app", "pipeline_tui.ui.title", "textual.app"} <= loaded
    early = sorted(
        name for name in loaded if any(name == n or name.startswith(n + ".") for n in NOT_FOR_THE_TITLE)
    )
    assert early == []


def test_the_collector_is_off_from_run_app_to_the_first_frame(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    """``run_app`` turns the garbage collector off for the start (the app turns it on again
    once its first screen is drawn, checked above), and on again however the app ends."""
    seen: list[tuple[bool, bool]] = []

    def run(app: PipelineApp, mouse: bool = True) -> None:
        seen.append((gc.isenabled(), app.settle_heap))
        raise RuntimeError("the app fails")

    monkeypatch.setattr(PipelineApp, "run", run)
    with pytest.raises(RuntimeError):
        ui.run_app(saves_dir=tmp_path)
    assert seen == [(False, True)]
    assert gc.isenabled()
