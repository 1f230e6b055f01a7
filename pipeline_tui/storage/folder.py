"""The saves folder without the engine: where saves live, which autosave is the latest, and
the one-line error of a save. The title screen needs only these (issue 38, point 3: cold
start); reading, replaying and writing a game are in ``saves``, which imports the engine."""

from __future__ import annotations

import os
from pathlib import Path

ENV_DIR = "PIPELINE_TUI_SAVES"
AUTOSAVE_PREFIX = "autosave-"
MAX_MESSAGE = 400


class SaveError(ValueError):
    """A save that cannot be read, written or replayed; the message is one line naming the file.

    Text taken from the file (a market row name, say) could hold line breaks or be huge, so the
    message is kept to one line of at most :data:`MAX_MESSAGE` characters.
    """

    def __init__(self, message: str) -> None:
        line = " ".join(str(message).split())
        if len(line) > MAX_MESSAGE:
            line = line[: MAX_MESSAGE - 3] + "..."
        super().__init__(line)


def default_saves_dir() -> Path:
    """``$PIPELINE_TUI_SAVES`` if set, else ``./saves`` (absolute)."""
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env).expanduser().absolute()
    return Path.cwd() / "saves"


def json_files(directory: Path) -> list[tuple[float, Path]]:
    """Every ``*.json`` file in ``directory`` with its modification time, newest first (an
    absent folder has none; a file that vanishes meanwhile is left out)."""
    if not directory.is_dir():
        return []
    found = []
    for path in directory.glob("*.json"):
        try:
            if path.is_file():
                found.append((path.stat().st_mtime, path))
        except OSError:
            continue
    found.sort(key=lambda item: (-item[0], item[1].name))
    return found


def latest_autosave(directory: str | os.PathLike[str]) -> Path | None:
    """The most recently written ``autosave-*.json`` in ``directory``, or ``None``."""
    for _mtime, path in json_files(Path(directory)):
        if path.name.startswith(AUTOSAVE_PREFIX):
            return path
    return None
