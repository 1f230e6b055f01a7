"""Saves: versioned JSON files of a game's setup and move log, written atomically."""

from .saves import (
    AUTOSAVE_PREFIX, ENV_DIR, FORMAT, UPCASTERS, VERSION, SaveError, SaveFile, SaveInfo,
    autosave, autosave_path, decode_save, default_saves_dir, encode_save, game_from_save,
    game_meta, latest_autosave, list_saves, load_game, read_save, save_game,
)

__all__ = [
    "AUTOSAVE_PREFIX", "ENV_DIR", "FORMAT", "UPCASTERS", "VERSION", "SaveError", "SaveFile",
    "SaveInfo", "autosave", "autosave_path", "decode_save", "default_saves_dir", "encode_save",
    "game_from_save", "game_meta", "latest_autosave", "list_saves", "load_game", "read_save",
    "save_game",
]
