"""What the server remembers of each player's key besides their seats: the language they chose,
and whether a bell rings when their turn comes (``players/bells.json``, kept the same way).

A player who picks a language in the lobby (or the palette) of a shared table gets it again at
their next session, whatever their ssh client sends (issue 15, point 3). The choices are one
small JSON file, ``players/languages.json`` in the tables folder (a folder of its own: every
``*.json`` beside the tables is read as a table), mapping a key's SHA256 fingerprint to a
language code, written to a temporary file and renamed so a crash never leaves half of it.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from ..i18n import language_of
from .private import FILE_MODE, FOLDER_MODE

log = logging.getLogger(__name__)

FOLDER = "players"
LANGUAGES_FILE = "languages.json"
BELLS_FILE = "bells.json"


class KeyLanguages:
    """The language each key chose, kept in ``<tables>/players/languages.json``."""

    def __init__(self, tables_dir: Path) -> None:
        self.path = Path(tables_dir) / FOLDER / LANGUAGES_FILE
        self.chosen: dict[str, str] = {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            log.warning("%s not read (every key starts without a choice): %s", self.path, exc)
            return
        if isinstance(data, dict):
            for key, value in data.items():
                language = language_of(value) if isinstance(value, str) else None
                if isinstance(key, str) and language is not None:
                    self.chosen[key] = language

    def get(self, identity: str) -> str:
        """The language ``identity`` chose, or ``""``."""
        return self.chosen.get(identity, "")

    def set(self, identity: str, language: str) -> None:
        """Remember ``language`` for ``identity``; OSError if the file cannot be written (the
        choice then holds until the server stops)."""
        self.chosen[identity] = language
        self.path.parent.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".tmp")
        text = json.dumps(self.chosen, indent=1, sort_keys=True) + "\n"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(temporary, FILE_MODE)  # an older temporary file kept its own mode
        os.replace(temporary, self.path)


class KeyBells:
    """The keys that asked for a bell when their turn comes, kept in ``<tables>/players/bells.json``
    (a list of fingerprints)."""

    def __init__(self, tables_dir: Path) -> None:
        self.path = Path(tables_dir) / FOLDER / BELLS_FILE
        self.on: set[str] = set()
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            log.warning("%s not read (no key has a bell): %s", self.path, exc)
            return
        if isinstance(data, list):
            self.on = {key for key in data if isinstance(key, str)}

    def get(self, identity: str) -> bool:
        return identity in self.on

    def set(self, identity: str, on: bool) -> None:
        """Remember the choice; OSError if the file cannot be written (it then holds until the
        server stops)."""
        if on:
            self.on.add(identity)
        else:
            self.on.discard(identity)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".tmp")
        temporary.write_text(json.dumps(sorted(self.on), indent=1) + "\n", encoding="utf-8")
        os.replace(temporary, self.path)
