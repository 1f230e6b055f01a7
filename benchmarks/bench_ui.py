"""UI figures for docs/benchmarks.md (issue 3): cold start to the first frame, keypress to
repaint on the table at 160x48, and peak memory over a whole game played through the app.

Keypress to repaint is the time from handing the key to the app (Pilot) until the app hands
the next screen update to its driver (``App._display``): handling, layout and rendering, without
Pilot's idle polling. The same span is also given in CPU time of the process
(``time.process_time``), which other work on a shared machine inflates far less than wall time.

Run from the repository root: ``python benchmarks/bench_ui.py``. Prints one line per figure;
``--cold-start-only`` (with ``--starts N``) times only the cold start.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pty
import random
import resource
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def cold_start(runs: int = 7) -> list[float]:
    """Seconds from spawning ``pipeline-tui`` in a pseudo-terminal until the title is drawn.

    As every start after an install's first: one untimed start first, which may write the
    caches a start leaves for the next, the package's bytecode (even where
    ``PYTHONDONTWRITEBYTECODE`` is set; without it each start compiles every module of the
    package it imports, a hundred milliseconds before issue 38's point 3: docs/benchmarks.md,
    "Cold start to the title") and the title's parsed stylesheet (``ui.css_cache``, in a
    cache folder of the benchmark's own, written once the title is drawn: so this start
    lasts a second, as a player's would)."""
    times = []
    cache = tempfile.TemporaryDirectory()
    for run in range(runs + 1):
        master, slave = pty.openpty()
        os.set_blocking(master, False)
        env = dict(os.environ, TERM="xterm-256color", COLUMNS="160", LINES="48", XDG_CACHE_HOME=cache.name)
        if run == 0:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        with tempfile.TemporaryDirectory() as saves:
            start = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "-m", "pipeline_tui", "title", "--saves", saves],
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=env,
                cwd=ROOT,
            )
            seen = b""
            while b"PIPELINE" not in seen:
                if time.perf_counter() - start > 20:
                    raise RuntimeError("the title never appeared")
                ready, _, _ = select.select([master], [], [], 0.05)
                if ready:
                    try:
                        seen += os.read(master, 65536)
                    except OSError:
                        break
            if run:
                times.append(time.perf_counter() - start)
            else:
                time.sleep(1)
            proc.terminate()
            proc.wait(5)
        os.close(master)
        os.close(slave)
    cache.cleanup()
    return times


# Keys of ordinary play: the move list, another player's board, and switching views (which
# moves the focus, so Textual restyles and repaints the panels whose borders change).
KEYS = ["down", "down", "up", "2", "1", "f3", "f2", "f4", "f5", "escape"]


async def keypress_and_memory(
    seed: int = 3,
) -> tuple[dict[str, list[float]], dict[str, list[float]], int, int]:
    """Keypress-to-repaint times on the table (160x48), wall and CPU, then a whole game through
    the app."""
    from pipeline_tui.ui.app import PipelineApp
    from tests.policies import purposeful_choice

    with tempfile.TemporaryDirectory() as saves:
        app = PipelineApp(mode="new", players=2, seed=seed, saves_dir=saves)
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            table = app.screen
            for widget in app.screen.query("Input"):
                widget.cursor_blink = False
            shown: list[tuple[float, float]] = []  # (wall, CPU) at each screen update
            display = app._display

            def timed_display(screen, renderable):
                display(screen, renderable)
                if renderable is not None:
                    shown.append((time.perf_counter(), time.process_time()))

            app._display = timed_display
            times: dict[str, list[float]] = {}
            cpu: dict[str, list[float]] = {}
            for key in KEYS * 4:
                await pilot.pause()
                start, start_cpu = time.perf_counter(), time.process_time()
                await pilot.press(key)
                while (not shown or shown[-1][0] < start) and time.perf_counter() - start < 1:
                    await asyncio.sleep(0.0005)  # until the repaint that follows the key
                if shown and shown[-1][0] >= start:  # a key that changes nothing draws nothing
                    times.setdefault(key, []).append(shown[-1][0] - start)
                    cpu.setdefault(key, []).append(shown[-1][1] - start_cpu)
            rng = random.Random(seed)
            moves = 0
            while not table.game.is_over():
                move = purposeful_choice(table.game.legal_moves(), rng, table.game.state)
                table.play(move)
                moves += 1
                if moves % 10 == 0:
                    await pilot.pause()
            await pilot.pause()
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return times, cpu, peak_kib, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold-start-only", action="store_true", help="only the cold start")
    parser.add_argument("--starts", type=int, default=7, help="timed cold starts (default 7)")
    options = parser.parse_args()
    starts = cold_start(options.starts)
    print(
        f"cold start to title frame: median {statistics.median(starts) * 1000:.0f} ms "
        f"(min {min(starts) * 1000:.0f}, max {max(starts) * 1000:.0f}, {len(starts)} runs)"
    )
    if options.cold_start_only:
        return
    times, cpu, peak, moves = asyncio.run(keypress_and_memory())
    for what, spans in (("keypress to repaint at 160x48", times), ("  in CPU time", cpu)):
        ms = sorted(t * 1000 for key_times in spans.values() for t in key_times)
        print(
            f"{what}: median {statistics.median(ms):.1f} ms, "
            f"p90 {ms[int(len(ms) * 0.9)]:.1f} ms, max {ms[-1]:.1f} ms ({len(ms)} presses)"
        )
        print(
            "  by key (median ms): "
            + ", ".join(f"{key} {statistics.median(t) * 1000:.1f}" for key, t in spans.items())
        )
    print(
        f"peak memory (max RSS) over a whole 2-player game of {moves} moves in the app: {peak / 1024:.1f} MiB"
    )


if __name__ == "__main__":
    main()
