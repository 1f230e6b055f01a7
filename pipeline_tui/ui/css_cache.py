"""The title's parsed stylesheet, kept on disk from one start to the next (issue 38, point 3).

Textual parses the app's CSS and every widget's ``DEFAULT_CSS`` at every start: 5% of the
instructions to the title's first frame (docs/benchmarks.md, "Cold start"). A start reads the rules the last one parsed from
``$XDG_CACHE_HOME/pipeline-tui/stylesheet.pickle`` (``~/.cache`` when unset) into
``compat.SharedStylesheet.parsed`` before the app runs, and once its first frame is drawn writes
them again if it had to parse anything (a first start, a new version, another theme, a first
screen with more widgets: every start shows the title first, so the file holds its rules). Each
source's rules are keyed by its whole CSS text, where it was read from and the theme's
variables, so a changed source is parsed afresh, never taken from the file.

The file is trusted no further than needed: it is read only if it is the user's own and
nobody else may write to it, only if it was written beside the same files of Textual and
Python (their paths, sizes and times), and through an unpickler that builds the classes of
parsed rules and nothing else. A file that fails any of this, or does not load, is ignored and
replaced (written to a temporary file, then renamed over it); a cache that cannot be read or
written costs only the parsing.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from textual.app import App

from .compat import PARSED_CSS_GLOBALS, SharedStylesheet, dump_parsed_css, load_parsed_css

CACHE_DIR = "pipeline-tui"
CACHE_FILE = "stylesheet.pickle"
MAGIC = b"pipeline-tui parsed CSS 1\n"


def cache_path(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the parsed stylesheet is kept: ``$XDG_CACHE_HOME/pipeline-tui/stylesheet.pickle``
    (found as ``i18n.settings_path`` finds the settings: importing ``platformdirs`` would cost
    the start about 11 ms).

    >>> cache_path({"XDG_CACHE_HOME": "/c"}).as_posix()
    '/c/pipeline-tui/stylesheet.pickle'
    """
    base = environ.get("XDG_CACHE_HOME") or str(Path(environ.get("HOME") or Path.home()) / ".cache")
    return Path(base) / CACHE_DIR / CACHE_FILE


def stamp() -> bytes:
    """What the pickled rules were made by: Python's version and the path, size and time of
    the file of each module whose classes they hold (a new Textual rewrites them all)."""
    parts = [sys.version]
    for module in sorted(PARSED_CSS_GLOBALS):
        package, *inner = module.split(".")
        root = getattr(sys.modules.get(package), "__file__", None) or ""
        path = os.path.join(os.path.dirname(root), *inner) + ".py"
        try:
            info = os.stat(path)
        except OSError:
            parts.append(f"{path} -")
        else:
            parts.append(f"{path} {info.st_size} {info.st_mtime_ns}")
    return "\n".join(parts).encode("utf-8", "surrogateescape") + b"\n\n"


def load(path: Path) -> int:
    """Add the rules kept in ``path`` to ``SharedStylesheet.parsed``; returns how many sources'
    (0 for a missing, foreign, stale or broken file)."""
    try:
        with open(path, "rb") as file:
            info = os.fstat(file.fileno())
            if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
                return 0
            if file.read(len(MAGIC)) != MAGIC:
                return 0
            expected = stamp()
            if file.read(len(expected)) != expected:
                return 0
            rules = load_parsed_css(file)
    except (OSError, ValueError):
        return 0
    SharedStylesheet.parsed.update(rules)
    return len(rules)


def save(app: App[Any], path: Path) -> bool:
    """Keep in ``path`` the rules ``app``'s stylesheet took or parsed (it shares parsed CSS,
    ``compat.share_parsed_css``), if it parsed any itself; whether it wrote them."""
    sheet = app.stylesheet
    if not isinstance(sheet, SharedStylesheet) or not sheet.fresh:
        return False
    rules = {key: value for key, value in sheet.taken.items() if not any(rule.errors for rule in value)}
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".stylesheet-", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(MAGIC)
                file.write(stamp())
                dump_parsed_css(rules, file)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except (OSError, ValueError):
        return False  # a folder we may not write, a full disk, rules that do not pickle
    return True
