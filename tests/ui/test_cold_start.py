"""Cold start (issue 38, point 3): the way to the title screen imports nothing the title does
not draw: not the table, the chart (plotext), Markdown (markdown-it), the SSH or web stacks,
the bots. Checked in a fresh interpreter, since this one has imported everything."""

from __future__ import annotations

import json
import subprocess
import sys

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
)

TITLE = """
import asyncio, json, sys, tempfile
import pipeline_tui.cli
from pipeline_tui.ui.app import PipelineApp

async def main():
    app = PipelineApp(mode="title", saves_dir=tempfile.mkdtemp())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    print(json.dumps(sorted(sys.modules)))

asyncio.run(main())
"""


def test_the_title_imports_only_what_it_draws():
    out = subprocess.run(
        [sys.executable, "-c", TITLE], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    loaded = set(json.loads(out.strip().splitlines()[-1]))
    assert "pipeline_tui.ui.app" in loaded and "textual.app" in loaded
    early = sorted(
        name for name in loaded if any(name == n or name.startswith(n + ".") for n in NOT_FOR_THE_TITLE)
    )
    assert early == []
