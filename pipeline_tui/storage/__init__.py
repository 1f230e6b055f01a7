"""Saves: versioned JSON files of a game's setup and move log, written atomically.

The folder's names (``folder``) load with the package; those that read, replay or write a game
(``saves``, which imports the engine) load when first used, so the title screen starts without
the engine (issue 38, point 3: cold start). Both are this package's API, used as before.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .folder import AUTOSAVE_PREFIX, ENV_DIR, SaveError, default_saves_dir, latest_autosave

if TYPE_CHECKING:
    from .saves import (
        FORMAT,
        UPCASTERS,
        VERSION,
        SaveFile,
        SaveInfo,
        autosave,
        autosave_path,
        decode_save,
        encode_entry,
        encode_save,
        game_from_save,
        game_meta,
        list_saves,
        load_game,
        read_save,
        save_game,
    )


def __getattr__(name: str) -> object:
    """A name of ``saves``, imported on first use (PEP 562): one of ``__all__`` not yet here."""
    if name in __all__:
        value = getattr(importlib.import_module(".saves", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AUTOSAVE_PREFIX",
    "ENV_DIR",
    "FORMAT",
    "UPCASTERS",
    "VERSION",
    "SaveError",
    "SaveFile",
    "SaveInfo",
    "autosave",
    "autosave_path",
    "decode_save",
    "default_saves_dir",
    "encode_entry",
    "encode_save",
    "game_from_save",
    "game_meta",
    "latest_autosave",
    "list_saves",
    "load_game",
    "read_save",
    "save_game",
]
