"""The Textual user interface. Only this package imports Textual."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from ..engine import ClockSetting


def run_app(
    mode: str = "title",
    players: int | Sequence[str] | None = None,
    seed: int | None = None,
    first_game: bool = False,
    file: str | Path | None = None,
    saves_dir: str | Path | None = None,
    mouse: bool = True,
    bots: str | None = None,
    clock: ClockSetting | None = None,
    served: str = "local",
) -> None:
    """Build and run the app.

    ``mode``: "title" (menu), "new" (with ``players`` a count or names: start at once; without:
    the new-game screen; ``bots`` a bot kind for every seat after the first), "load" or
    "replay" (``file``, or the saves list when ``None``). ``served``: "local" (the player's
    own terminal) or "web" (a browser tab of ``pipeline-tui web``), see ``app.Served``.

    The garbage collector is off from here until the first screen is drawn: importing Textual
    and building that screen make objects that live for good, and the collections they set
    off were 3% of a cold start's instructions. The app collects once, freezes what is left and
    turns the collector on again after its first frame (``PipelineApp._settle_heap``, issue 38,
    point 3). The app's CSS is parsed as the last start parsed it, if it can be (``css_cache``).
    """
    gc.disable()
    try:
        from . import css_cache
        from .app import PipelineApp, Served
        from .compat import share_parsed_css

        app = PipelineApp(
            mode=mode,
            players=players,
            seed=seed,
            first_game=first_game,
            file=file,
            saves_dir=saves_dir,
            bots=bots,
            clock=clock,
            served=Served(served),
        )
        app.settle_heap = True
        app.css_cache = css_cache.cache_path()
        css_cache.load(app.css_cache)
        share_parsed_css(app)
        app.run(mouse=mouse)
    finally:
        gc.enable()
