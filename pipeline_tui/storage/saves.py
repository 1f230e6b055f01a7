"""Save files: a versioned JSON envelope around a game's setup and move log (docs/architecture.md).

A save is ``{"format": "pipeline-tui-save", "version": 2, "meta": {...}, "setup": {...},
"moves": [...]}``. Each move is its tagged msgspec Struct as msgspec writes it by default: an
object whose ``"type"`` field is the move's tag (``{"type": "buy", "row": "C-OC", "slot": 2}``).
``meta`` is a convenience summary for listings; the setup and the moves are the truth, and
loading replays every move with the rules' checks.

A clocked game (``setup.clock``, ``engine.clock``) also keeps each move's game time inside the
move's own entry (``{"type": "buy", ..., "at": 81250}``, ms) and the game time when it was
written (``"game_time"``), where its clocks stand still until it is opened again. Saves without
a clock are written as before (no ``clock``, ``at`` or ``game_time``), and older releases read
a clocked save as the same game without its clock.

Old versions keep loading through :data:`UPCASTERS`; writes are atomic (temp file in the same
directory, fsync, ``os.replace``) and never clobber a file that is not one of our saves.
"""

from __future__ import annotations

import os
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Sequence

import msgspec

from .. import __version__
from ..engine.errors import IllegalMove
from ..engine.clock import GameTime
from ..engine.game import Game
from ..engine.moves import AnyMove, Move, format_move
from ..engine.setup import GameSetup, SetupError
from ..i18n import _
from .folder import AUTOSAVE_PREFIX, SaveError, json_files

FORMAT = "pipeline-tui-save"
VERSION = 2


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 setups name their component edition; every version 1 save played edition 1.
    (The bump makes older releases refuse an edition-2 save instead of replaying it with the
    wrong components.)"""
    setup = data.get("setup")
    if isinstance(setup, dict):
        data["setup"] = {**setup, "edition": setup.get("edition", 1)}
    data["version"] = 2
    return data


# Version N dict -> version N+1 dict, so files written by older releases keep loading.
UPCASTERS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}

# Facts about the game that meta always states from the log itself (a caller cannot override
# them, so meta never contradicts the replay).
_FACT_KEYS = ("app_version", "players", "year", "round", "moves", "finished", "winners", "totals")


class SaveFile(msgspec.Struct, frozen=True):
    """The decoded envelope of a save file (current version)."""

    format: str
    version: int
    setup: GameSetup
    moves: list[AnyMove]
    meta: dict[str, Any] = {}
    times: list[int | None] = []  # each move's game time (ms), from its entry's "at"; clocked games
    game_time: int = 0  # a clocked game's time when it was written (ms)


class SaveInfo(msgspec.Struct, frozen=True):
    """One row of a saves listing. A broken file has ``error`` set and zeros elsewhere."""

    path: Path
    modified: float  # seconds since the epoch (file mtime)
    players: tuple[str, ...] = ()
    year: int = 0
    round: int = 0
    moves: int = 0
    finished: bool = False
    winners: tuple[str, ...] = ()
    error: str | None = None


# --- Reading ----------------------------------------------------------------------------------


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise SaveError(_("{name}: no such file").format(name=path.name)) from None
    except IsADirectoryError:
        raise SaveError(_("{name}: is a directory, not a save file").format(name=path.name)) from None
    except PermissionError:
        raise SaveError(_("{name}: permission denied").format(name=path.name)) from None
    except OSError as exc:
        raise SaveError(
            _("{name}: cannot be read ({error})").format(name=path.name, error=exc.strerror or exc)
        ) from None


def _upcast(data: dict[str, Any], name: str) -> dict[str, Any]:
    """Bring an envelope of an older version up to :data:`VERSION`, one step at a time."""
    version = data["version"]
    while version < VERSION:
        step = UPCASTERS.get(version)
        if step is None:
            raise SaveError(
                _("{name}: save format version {version} is not known").format(name=name, version=version)
            )
        try:
            data = step(dict(data))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise SaveError(
                _("{name}: cannot upgrade it from format version {version} ({error})").format(
                    name=name, version=version, error=f"{type(exc).__name__}: {exc}"
                )
            ) from None
        if not isinstance(data, dict) or data.get("version") != version + 1:
            raise SaveError(
                _("{name}: the upgrade from format version {version} went wrong").format(
                    name=name, version=version
                )
            )
        version += 1
    return data


def decode_save(raw: bytes, name: str = "save") -> SaveFile:
    """Decode and validate the bytes of a save (no replay); ``name`` prefixes error messages."""
    if not raw.strip():
        raise SaveError(_("{name}: the file is empty").format(name=name))
    try:
        data = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        text = str(exc)
        if "truncated" in text:
            raise SaveError(
                _("{name}: the file is truncated (its JSON ends too early)").format(name=name)
            ) from None
        raise SaveError(_("{name}: not valid JSON ({error})").format(name=name, error=text)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(
            _('{name}: not a pipeline-tui save (no "format": "{format}")').format(name=name, format=FORMAT)
        )
    version = data.get("version")
    if type(version) is not int:
        raise SaveError(_("{name}: the save format version is missing or not a number").format(name=name))
    if version > VERSION:
        raise SaveError(
            _(
                "{name}: save format version {version} is newer than this program understands "
                "({known}); update pipeline-tui"
            ).format(name=name, version=version, known=VERSION)
        )
    data = _upcast(data, name)
    moves = data.get("moves")
    if isinstance(moves, list):
        data["times"] = [entry.pop("at", None) if isinstance(entry, dict) else None for entry in moves]
    try:
        return msgspec.convert(data, SaveFile)
    except msgspec.ValidationError as exc:
        raise SaveError(
            _("{name}: does not match the save format: {error}").format(name=name, error=exc)
        ) from None


def read_save(path: str | os.PathLike[str]) -> SaveFile:
    """Read and validate a save's envelope without replaying it. Raises :class:`SaveError`."""
    path = Path(path)
    return decode_save(_read_bytes(path), path.name)


def _notation(move: AnyMove) -> str:
    """The move's notation (which names even out-of-range values without failing)."""
    return format_move(move)


def game_from_save(save: SaveFile, name: str = "save") -> Game:
    """Rebuild the game of a decoded save, replaying every move with the rules' checks."""
    try:
        game = Game(save.setup)
    except SetupError as exc:
        raise SaveError(_("{name}: bad setup: {error}").format(name=name, error=exc)) from None
    for index, move in enumerate(save.moves):
        try:
            game.apply(move)
        except IllegalMove as exc:
            raise SaveError(
                _("{name}: move {n} ({move}): {error}").format(
                    name=name, n=index + 1, move=_notation(move), error=exc
                )
            ) from None
        except Exception as exc:  # the file is untrusted input: any failure is a bad save
            raise SaveError(
                _("{name}: move {n} ({move}) cannot be played ({error})").format(
                    name=name, n=index + 1, move=_notation(move), error=f"{type(exc).__name__}: {exc}"
                )
            ) from None
    if save.setup.clock is not None:
        game.restamp(save.times)
        last = game.times[-1] if game.times else 0
        game.timer = GameTime(max(save.game_time, last), running=False)  # the host resumes it
    return game


def load_game(path: str | os.PathLike[str]) -> Game:
    """Read a save and rebuild its game, checking every move. Never writes to the file."""
    path = Path(path)
    return game_from_save(read_save(path), path.name)


# --- Writing ----------------------------------------------------------------------------------


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def game_meta(game: Game) -> dict[str, Any]:
    """The facts meta states about a game, all read from its current state."""
    state = game.state
    meta: dict[str, Any] = {
        "app_version": __version__,
        "players": [p.name for p in game.setup.players],
        "year": state.year,
        "round": state.round,
        "moves": len(game.moves),
        "finished": game.is_over(),
    }
    if game.is_over():
        scores = game.scores()
        meta["winners"] = [s.name for s in scores if s.rank == 1]
        meta["totals"] = [s.total for s in sorted(scores, key=lambda s: s.seat)]
    return meta


def encode_entry(move: Move, at: int | None = None) -> bytes:
    """One log entry as a save writes it: the move's JSON object, with its game time ``at``
    (ms) inside it in a clocked game (a store that keeps entries keeps the time with them).

    >>> from ..engine.moves import Pass
    >>> encode_entry(Pass()), encode_entry(Pass(), 81250)
    (b'{"type":"pass"}', b'{"type":"pass","at":81250}')
    """
    data = msgspec.json.encode(move)
    return data if at is None else data[:-1] + b',"at":%d}' % at


def encode_save(game: Game, meta: dict[str, Any]) -> bytes:
    """The bytes of a save: readable JSON with one move per line (diff-friendly)."""
    enc = msgspec.json.encode
    setup = msgspec.to_builtins(game.setup)
    head = [
        b'{\n "format": ' + enc(FORMAT),
        b' "version": ' + enc(VERSION),
        b' "meta": ' + enc(meta),
    ]
    if game.setup.clock is None:
        del setup["clock"]
        moves = b",\n  ".join(enc(m) for m in game.moves)
    else:  # each move's game time inside its entry, so whatever stores the entries keeps it
        head.append(b' "game_time": ' + enc(game.now()))
        moves = b",\n  ".join(encode_entry(m, at) for m, at in zip(game.moves, game.times))
    head.append(b' "setup": ' + enc(setup))
    body = b",\n".join(head) + b',\n "moves": [' + (b"\n  " + moves + b"\n ]" if moves else b"]")
    return body + b"\n}\n"


def _write_atomic(path: Path, data: bytes, new_mode: int = 0o644) -> None:
    """Write via a temp file in the same directory, flushed and fsynced, then ``os.replace``;
    an existing file keeps its mode, a new one gets ``new_mode``."""
    directory = path.parent
    mode = path.stat().st_mode & 0o777 if path.exists() else new_mode
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def save_game(
    game: Game,
    path: str | os.PathLike[str],
    meta: dict[str, Any] | None = None,
    *,
    force: bool = False,
    new_mode: int = 0o644,
) -> None:
    """Write ``game`` to ``path`` atomically.

    ``meta`` adds the caller's own keys (a title, a note, fixed timestamps); the game facts in
    meta always come from the game. An existing file is overwritten only if it is one of our
    saves (its ``created`` time is kept); anything else raises :class:`SaveError` unless
    ``force`` is true, so a user's unrelated or corrupt file is never clobbered. An existing
    file keeps its mode; a new one gets ``new_mode`` (a shared table's: 0600).
    """
    path = Path(path)
    created = None
    if path.is_dir():
        raise SaveError(_("{name}: is a directory, not a save file").format(name=path.name))
    if path.exists() and not force:
        try:
            old = read_save(path)
        except SaveError as exc:
            raise SaveError(
                _("{name}: refusing to overwrite a file that is not a readable save ({error})").format(
                    name=path.name, error=str(exc).removeprefix(path.name + ": ")
                )
            ) from None
        created = old.meta.get("created")
    stamp = _now()
    full: dict[str, Any] = {"created": created or stamp, "updated": stamp}
    full.update({k: v for k, v in (meta or {}).items() if k not in _FACT_KEYS})
    full.update(game_meta(game))
    try:
        data = encode_save(game, full)
    except (TypeError, msgspec.EncodeError) as exc:
        raise SaveError(
            _("{name}: meta cannot be written as JSON ({error})").format(name=path.name, error=exc)
        ) from None
    if not path.parent.is_dir():
        raise SaveError(
            _("{name}: the folder {folder} does not exist").format(name=path.name, folder=path.parent)
        )
    try:
        _write_atomic(path, data, new_mode)
    except PermissionError:
        raise SaveError(_("{name}: permission denied").format(name=path.name)) from None
    except OSError as exc:
        raise SaveError(
            _("{name}: cannot be written ({error})").format(name=path.name, error=exc.strerror or exc)
        ) from None


# --- Folders of saves -------------------------------------------------------------------------


def _continues(path: Path, game: Game, written: Sequence[Move] | None) -> bool:
    """Whether writing ``game`` at ``path`` loses no play: the file is absent, not a readable
    save (:func:`save_game` refuses it with its own message), an earlier point of this game's
    line (same setup, its moves a prefix of the game's log), or what this line of play last
    wrote there (``written``, which an undo may shorten)."""
    if not path.exists():
        return True
    try:
        old = read_save(path)
    except SaveError:
        return True
    if old.setup != game.setup:
        return False
    return game.moves[: len(old.moves)] == old.moves or (written is not None and list(written) == old.moves)


def autosave_path(
    game: Game,
    directory: str | os.PathLike[str],
    name: str | None = None,
    written: Sequence[Move] | None = None,
) -> Path:
    """Where ``game`` autosaves: ``directory/autosave-<seed>.json`` (or ``name``) unless that
    file holds another game or a later point of this one; then the first free
    ``<name>-2.json``, ``<name>-3.json``... An autosave belongs to one line of play, so no save
    is ever overwritten by an older state of its game."""
    directory = Path(directory)
    base = name or f"{AUTOSAVE_PREFIX}{game.setup.seed}.json"
    path = directory / base
    stem = base.removesuffix(".json")
    number = 2
    while not _continues(path, game, written if path.name == base else None):
        path = directory / f"{stem}-{number}.json"
        number += 1
    return path


def autosave(
    game: Game,
    directory: str | os.PathLike[str],
    name: str | None = None,
    written: Sequence[Move] | None = None,
    meta: dict[str, Any] | None = None,
) -> Path:
    """Save to :func:`autosave_path` (creating the folder) and return the path written.

    ``written``: the moves this line of play last wrote to ``name`` (or loaded from it), so an
    undo may write a shorter log over its own autosave.
    """
    directory = Path(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SaveError(
            _("{folder}: cannot create the saves folder ({error})").format(
                folder=directory, error=exc.strerror or exc
            )
        ) from None
    path = autosave_path(game, directory, name, written)
    save_game(game, path, meta)
    return path


def list_saves(directory: str | os.PathLike[str]) -> list[SaveInfo]:
    """Every ``*.json`` in ``directory``, newest first; broken files carry their error."""
    out = []
    for mtime, path in json_files(Path(directory)):
        try:
            game = load_game(path)
        except SaveError as exc:
            out.append(SaveInfo(path=path, modified=mtime, error=str(exc)))
            continue
        over = game.is_over()
        out.append(
            SaveInfo(
                path=path,
                modified=mtime,
                players=tuple(p.name for p in game.setup.players),
                year=game.state.year,
                round=game.state.round,
                moves=len(game.moves),
                finished=over,
                winners=tuple(s.name for s in game.scores() if s.rank == 1) if over else (),
            )
        )
    return out
