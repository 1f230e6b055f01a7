"""The tables folder is the server's alone (issue 36, point 4): table files hold the key
fingerprints bound to seats, ``players/languages.json`` the language each key chose. Other
local users read neither: folders 0700, files 0600, set on what is created and fixed at every
start on what an older version (or a hand) left more open.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)

FOLDER_MODE = 0o700
FILE_MODE = 0o600


def make_private(folder: Path) -> None:
    """Create ``folder`` (and its parents) if missing, then give it and everything in it, one
    level of folders down, the private modes. A path we cannot change (not ours, say) is
    logged, not fatal: the server still serves. OSError only if the folder cannot be made."""
    folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    _chmod(folder, FOLDER_MODE)
    for path in _entries(folder):
        if path.is_symlink():
            continue  # a link's mode is its target's: never follow one out of the folder
        if path.is_dir():
            _chmod(path, FOLDER_MODE)
            for inner in _entries(path):
                if not inner.is_symlink() and inner.is_file():
                    _chmod(inner, FILE_MODE)
        elif path.is_file():
            _chmod(path, FILE_MODE)


def _entries(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir())
    except OSError as exc:
        log.warning("%s: cannot be listed to make it private (%s)", folder, exc.strerror or exc)
        return []


def _chmod(path: Path, mode: int) -> None:
    try:
        if stat.S_IMODE(path.stat().st_mode) != mode:
            os.chmod(path, mode)
    except OSError as exc:
        log.warning("%s: cannot be made private (%s)", path, exc.strerror or exc)
