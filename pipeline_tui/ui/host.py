"""What a screen may ask of the screens that compose it, as protocols, so that imports in the ui
point one way: the app (``app.py``) composes the screens and the table; the table screen
(``table_screen.py``) holds its seat policy (``seats.py``) and opens the network view
(``network_view.py``). Those below reach those above only through :class:`Host` (the app) and
:class:`Table` (the table screen), which the app and the table screen satisfy (mypy checks it:
at the end of ``app.py``, and where the table screen hands itself to its policy and to the
network view). The import-linter contract "The ui's screens" in ``pyproject.toml`` keeps the
direction.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, Sequence, runtime_checkable

if TYPE_CHECKING:
    from rich.text import Text
    from textual.app import App
    from textual.dom import DOMNode
    from textual.message import Message

    from ..engine import Game, GameSetup, State
    from ..engine import moves as M
    from ..net.remote import RemoteGame
    from .network_panel import Ghost


@runtime_checkable
class Host(Protocol):
    """The app a screen runs in (the hot-seat app, or a shared table's): its saves folder and
    the screens it opens. Textual's own ``App`` methods are reached through ``node.app``."""

    saves_dir: Path

    def start_game(self, setup: GameSetup, colours: list[str] | None = None) -> None:
        """Open the table for a new game."""

    def start_tutorial(self) -> None:
        """The guided first game."""

    def open_file(self, path: Path, replay: bool = False) -> None:
        """Load a save and open it at the table (or in the replay viewer)."""

    def play_on(self, game: Game, save_name: str, colours: list[str]) -> None:
        """Replace the replay viewer on top with a hot-seat table of ``game``."""

    def show_scores(self, game: Game | RemoteGame, colours: list[str] | None = None) -> None:
        """The score sheet."""

    def ask_save_as(self, game: Game, meta: dict[str, Any] | None = None) -> None:
        """Ask for a name and save ``game`` under it."""

    def action_reference(self) -> None:
        """Every component table with its source."""


def host(node: DOMNode | Table) -> Host:
    """The app a screen or widget is in: the hot-seat app, or a shared table's (one too), with
    its saves folder and the screens it opens."""
    app = node.app
    assert isinstance(app, Host)
    return app


class Table(Protocol):
    """The table screen, as its seat policy and the network view opened from it see it."""

    message: Text | None  # shown once, after a move

    @property
    def game(self) -> Game | RemoteGame: ...

    @property
    def colours(self) -> list[str]:
        """A colour name per seat."""

    @property
    def error(self) -> Text | None:
        """The last refusal, shown until a move is made."""

    @property
    def log_lines(self) -> Sequence[object]:
        """A line per move drawn in the log."""

    @property
    def ghost(self) -> Ghost | None:
        """The Pipe tile in hand, where it would go."""

    @property
    def shown_seat(self) -> int: ...

    @property
    def is_mounted(self) -> bool: ...

    @property
    def app(self) -> App[Any]: ...

    def current_state(self) -> State: ...

    def bot_kind(self) -> str | None: ...

    def play(self, move: M.Move) -> bool: ...

    def after_change(self) -> None: ...

    def refresh_table(self) -> None: ...

    def show_error(self, text: str) -> None: ...

    def notify(self, message: str) -> None: ...

    def post_message(self, message: Message) -> bool: ...

    def add_class(self, *class_names: str, update: bool = True) -> object: ...
