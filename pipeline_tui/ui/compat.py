"""Every private hook of Textual, Rich and textual-serve that the app uses, and nowhere else.

The three are pinned in ``pyproject.toml`` to the versions in :data:`TESTED`;
``tests/ui/test_compat.py`` checks those are the ones installed and that each hook below is
still there and still does what the app relies on, so an upgrade fails there, in one place.
This module imports neither aiohttp nor textual-serve (the game's cold start loads neither).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import pickle
from enum import Enum
from types import SimpleNamespace
from typing import IO, Any, Callable, ClassVar, Iterable, Self

from rich._wrap import divide_line as _divide_line
from rich.align import Align
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import App
from textual.command import CommandList, CommandPalette
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.css.types import CSSLocation
from textual import events
from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode
from textual.screen import Screen
from textual.geometry import Region, Size
from textual.widget import Widget
from textual.widgets import Footer, Input
from textual.widgets._footer import FooterKey
from textual.widgets._key_panel import BindingsTable as BindingsTable
from textual.widgets.option_list import Option

TESTED = {"textual": "8.2.8", "rich": "15.0.0", "textual-serve": "1.1.3"}

# What a session imported on its way to the lobby after the app's modules (measured: the
# difference of sys.modules in a forked child); serve's session zygote (serve/zygote.py)
# imports them so that no session does. Private names of Textual and Rich, so kept here: one
# that a newer version lacks is only not warmed.
SESSION_WARM_MODULES = (
    "rich._emoji_codes",
    "textual._xterm_parser",
    "textual.drivers.linux_driver",
    "textual.layouts.factory",
    "textual.layouts.horizontal",
    "textual.layouts.stream",
    "textual.scrollbar",
    "tty",
    "queue",
)
# The same for a browser tab of ``pipeline-tui web`` on its way to the title screen, imported
# by web's zygote: Textual's web driver and what it reads its pipes with.
TAB_WARM_MODULES = (
    "textual._binary_encode",
    "textual._xterm_parser",
    "textual.drivers._byte_stream",
    "textual.drivers._input_reader",
    "textual.drivers.web_driver",
    "textual.layouts.factory",
    "textual.layouts.horizontal",
    "textual.layouts.stream",
    "textual.pilot",
    "textual.scrollbar",
)


def line_breaks(text: str, width: int) -> list[int]:
    """Where Rich's ``Text.wrap`` breaks ``text`` at ``width`` cells, folding long words
    (``rich._wrap.divide_line``): the offsets that ``Text.divide`` takes."""
    return _divide_line(text, width, fold=True)


def footer_keys_shown(footer: Footer) -> bool:
    """Whether the Footer has built its keys once (``Footer._bindings_ready``)."""
    return bool(footer._bindings_ready)


CssKey = tuple[str, CSSLocation, bool, int, str, tuple[tuple[str, str], ...]]
"""What a source's parsed rules depend on: ``Stylesheet._parse_rules``' arguments (the CSS,
where it was read from, whether it is a widget's ``DEFAULT_CSS``, its tie breaker and scope)
and the stylesheet's variables (the theme's colours)."""


class SharedStylesheet(Stylesheet):
    """Textual's Stylesheet that takes its parsed rules from :attr:`parsed` when they are there:
    the rules every stylesheet of the process parsed from the same CSS with the same variables
    (``Stylesheet._parse_rules``, whose own cache is per stylesheet, so per app). serve's session
    zygote fills it (:func:`parse_ahead`) and each forked session reads it: parsing the app's
    and the widgets' CSS was a sixth of a session's CPU to its first frame (docs/benchmarks.md);
    a local start fills it from the disk (``ui.css_cache``).
    The rules are only read once parsed, as Textual's own cache shares them between parses.
    :attr:`taken` holds what this stylesheet took or parsed, by key, and :attr:`fresh` the keys
    it had to parse itself."""

    parsed: ClassVar[dict[CssKey, list[RuleSet]]] = {}
    taken: dict[CssKey, list[RuleSet]]
    fresh: set[CssKey]

    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self.taken = {}
        self.fresh = set()

    def _parse_rules(
        self,
        css: str,
        read_from: CSSLocation,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        key = (css, read_from, is_default_rules, tie_breaker, scope, tuple(self._variables.items()))
        rules = self.parsed.get(key)
        if rules is None:
            rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            self.fresh.add(key)
        self.taken[key] = rules
        return rules


def share_parsed_css(app: App[Any]) -> SharedStylesheet:
    """Have ``app`` (made, not yet running) take its parsed CSS from :class:`SharedStylesheet`;
    returns its stylesheet."""
    sheet = app.stylesheet
    sheet.__class__ = SharedStylesheet
    assert isinstance(sheet, SharedStylesheet)
    sheet.taken = {}
    sheet.fresh = set()
    return sheet


# What parsed rules are made of (``RuleSet`` and what its selectors and ``Styles`` hold), all
# that :func:`load_parsed_css` lets a pickle name; a test pickles every widget's parsed CSS.
PARSED_CSS_GLOBALS = {
    "textual.color": {"Color"},
    "textual.css.model": {
        "CombinatorType",
        "RuleSet",
        "Selector",
        "SelectorSet",
        "SelectorType",
        "_check_class",
        "_check_id",
        "_check_type",
        "_check_universal",
    },
    "textual.css.scalar": {"Scalar", "ScalarOffset", "Unit"},
    "textual.css.styles": {"Styles"},
    "textual.geometry": {"Spacing"},
    "textual.layouts.grid": {"GridLayout"},
    "textual.layouts.horizontal": {"HorizontalLayout"},
    "textual.layouts.stream": {"StreamLayout"},
    "textual.layouts.vertical": {"VerticalLayout"},
}


def _member(kind: object, name: object) -> Any:
    """What a pickle's ``getattr(owner, name)`` may be: a member of an enum named above (as
    Python 3.11 pickles one), or the ``get`` or ``__contains__`` of a dict (``Styles.get_rule``
    and ``Styles.has_rule`` are its rules')."""
    if (
        isinstance(kind, type)
        and issubclass(kind, Enum)
        and isinstance(name, str)
        and name in kind.__members__
    ):
        return kind[name]
    if isinstance(kind, dict) and name in ("get", "__contains__"):
        return getattr(kind, name)
    raise pickle.UnpicklingError(f"not part of parsed CSS: {name!r}")


class _ParsedCssUnpickler(pickle.Unpickler):
    """An unpickler that builds parsed rules and nothing else: any other global is an error."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("builtins", "getattr"):
            return _member
        if (module, name) == ("functools", "partial"):
            return functools.partial  # a selector's check, of the functions named above
        if name in PARSED_CSS_GLOBALS.get(module, ()):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of parsed CSS")


def dump_parsed_css(rules: dict[CssKey, list[RuleSet]], file: IO[bytes]) -> None:
    """Write ``rules`` (as :attr:`SharedStylesheet.taken` holds them) to ``file``; ValueError
    if they do not pickle."""
    try:
        pickle.dump(rules, file, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError) as error:
        raise ValueError(f"parsed CSS does not pickle: {error}") from None


def load_parsed_css(file: IO[bytes]) -> dict[CssKey, list[RuleSet]]:
    """Read what :func:`dump_parsed_css` wrote, building only the classes of parsed rules
    (:data:`PARSED_CSS_GLOBALS`); anything else, or any other shape, raises ValueError."""
    try:
        rules = _ParsedCssUnpickler(file).load()
    except Exception as error:  # noqa: BLE001 - a broken pickle raises almost anything
        raise ValueError(f"not parsed CSS: {error}") from None
    if not isinstance(rules, dict) or not all(
        isinstance(key, tuple)
        and len(key) == 6
        and isinstance(value, list)
        and all(isinstance(rule, RuleSet) for rule in value)
        for key, value in rules.items()
    ):
        raise ValueError("not parsed CSS")
    return rules


def parse_ahead(app: App[Any]) -> int:
    """Parse into :attr:`SharedStylesheet.parsed`, with ``app``'s variables, what its stylesheet
    will parse: its CSS files and the ``DEFAULT_CSS`` of its class and of every widget class
    imported, each as a node of that class adds it (``DOMNode._get_default_css``), and its
    ``CSS`` (not a screen's ``CSS``, which Textual parses afresh on each push). A source
    that does not parse is left to the app, which reports it. Returns the sources parsed."""
    sheet = SharedStylesheet(variables=app.get_css_variables())
    sheet.read_all(app.css_path)
    sources = [(css, read_from, False, 0, "") for read_from, (css, *_rest) in sheet.source.items()]
    if app.CSS:  # as App._process_messages adds it
        with contextlib.suppress(TypeError, OSError):
            read_from = (inspect.getfile(type(app)), f"{type(app).__name__}.CSS")
            sources.append((app.CSS, read_from, False, 0, ""))
    classes: list[type[DOMNode]] = [type(app), Widget]
    seen: set[type[DOMNode]] = set()
    while classes:
        cls = classes.pop()
        if cls in seen:
            continue
        seen.add(cls)
        classes.extend(cls.__subclasses__())
        node = SimpleNamespace(_node_bases=cls._css_bases(cls))
        for read_from, css, tie_breaker, scope in DOMNode._get_default_css(node):  # type: ignore[arg-type]
            sources.append((css, read_from, True, tie_breaker, scope))
    variables = tuple(sheet._variables.items())
    count = 0
    for css, read_from, is_default, tie_breaker, scope in sources:
        key = (css, read_from, is_default, tie_breaker, scope, variables)
        if key in SharedStylesheet.parsed:
            continue
        try:
            rules = Stylesheet._parse_rules(sheet, css, read_from, is_default, tie_breaker, scope)
        except Exception:  # noqa: BLE001 - the app parses it again and reports it
            continue
        if not any(rule.errors for rule in rules):
            SharedStylesheet.parsed[key] = rules
            count += 1
    return count


def preset_breakpoints(screen: Screen[Any], size: Size) -> None:
    """Give a screen not yet pushed the breakpoint classes Textual gives it at ``size``
    (``Screen._on_resize``, ``Screen._get_breakpoint_classes``), without styling it. A screen
    pushed before the terminal's first size arrives got them then, after it was styled and
    laid out without them: every widget styled again and the screen laid out twice."""
    app = screen.app
    widths = (
        app.HORIZONTAL_BREAKPOINTS if screen.HORIZONTAL_BREAKPOINTS is None else screen.HORIZONTAL_BREAKPOINTS
    ) or []
    heights = (
        app.VERTICAL_BREAKPOINTS if screen.VERTICAL_BREAKPOINTS is None else screen.VERTICAL_BREAKPOINTS
    ) or []
    chosen = screen._get_breakpoint_classes(size.width, widths) | screen._get_breakpoint_classes(
        size.height, heights
    )
    for _threshold, name in widths + heights:
        screen.set_class(name in chosen, name, update=False)


class StyledOnce(Screen[Any]):
    """A Screen not styled again as it is first shown: its widgets were styled as they were
    made, moments before, and Textual's first ``ScreenResume`` styled them all again
    (``Screen._on_screen_resume``, which Textual calls after this one: handlers run down the
    classes). Later resumes are as Textual makes them."""

    _resumed = False

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False


def settle_footer_key(widget: Widget, compact: bool) -> None:
    """Give a key its footer's ``compact`` before it mounts, when ``widget`` is one of a
    Footer's keys bound to it (Textual's private ``FooterKey``, ``data_bind``, which the
    palette's key is not: it keeps its own). A key's own default is compact, so mounting
    restyled each bound key for that, then again for its footer's value: in a session's start,
    a third of its CPU once the lobby showed (docs/benchmarks.md)."""
    if isinstance(widget, FooterKey) and "compact" in (widget._reactive_connect or {}):
        widget.set_reactive(FooterKey.compact, compact)
        widget.set_class(compact, "-compact", update=False)


def show_footer_key_enabled(key: Widget, enabled: bool) -> None:
    """Show a Footer's key enabled or dimmed, in place: Textual's FooterKey is told whether
    it is disabled only as it is made (``_disabled``, the ``-disabled`` class)."""
    if getattr(key, "_disabled", not enabled) == (not enabled):
        return
    setattr(key, "_disabled", not enabled)
    key.set_class(not enabled, "-disabled")


def bind_keys(node: DOMNode, bindings: Iterable[Binding]) -> None:
    """Give one node keys beside its classes' ``BINDINGS``, a key bound here replacing the
    classes' binding of it in place, as a subclass's ``BINDINGS`` would (``DOMNode._bindings``,
    which Textual copies from the merged class bindings when the node is made)."""
    keys = dict(node._bindings.key_to_bindings)
    for key, key_bindings in BindingsMap(bindings).key_to_bindings.items():
        keys[key] = key_bindings
    node._bindings = BindingsMap.from_keys(keys)


def retell_column(table: Table, index: int, retell: Callable[[RenderableType], RenderableType]) -> None:
    """Put ``retell(cell)`` in place of every cell of one column of a Rich Table, after the
    rows are added (``Column._cells``, which ``Table.add_row`` fills)."""
    column = table.columns[index]
    column._cells = [retell(cell) for cell in column._cells]


class SayingPalette(CommandPalette):
    """Textual's command palette with its "No matches found" said by :meth:`no_matches`
    (``CommandPalette._start_no_matches_countdown`` of Textual 8.2.8, the one literal replaced;
    it uses the palette's ``_stop_no_matches_countdown``, ``_no_matches_timer``,
    ``_list_visible``, ``_NO_MATCHES`` and ``_NO_MATCHES_COUNTDOWN``)."""

    def no_matches(self) -> str:
        """What the palette says when a search finds no command."""
        return "No matches found"

    def _start_no_matches_countdown(self, search_value: str) -> None:
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:
                self.query_one(CommandList).add_option(
                    Option(
                        Align.center(Text(self.no_matches(), style="not bold")),
                        disabled=True,
                        id=self._NO_MATCHES,
                    )
                )
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)


def update_scrollbars(widget: Widget, virtual_size: Size) -> None:
    """Tell the scrollbars a new scrollable size without laying the screen out
    (``Widget._scroll_update``, which a layout calls)."""
    widget._scroll_update(virtual_size)


def retitle(widget: Widget, title: str) -> None:
    """Set ``widget``'s border title and repaint the row it is drawn on: Textual's setter
    (``Widget._BorderTitle``) repaints the whole widget, which for a view is every row of its
    border and of the background behind its children. Stored as that setter stores it."""
    widget._border_title = widget.render_str(title).expand_tabs(4).split()[0]
    left, top = widget.content_offset  # the top row, in the content's coordinates
    widget.refresh(Region(-left, -top, widget.outer_size.width, 1))


def mark_stale(widget: Widget) -> None:
    """Forget what Textual drew and measured of ``widget`` and what its containers arranged
    around it, as ``refresh(layout=True)`` does (``Widget._styles_cache``, ``_layout_cache``,
    the arrangement caches of ``Widget._check_refresh``), without the refresh: for a widget in
    a container not displayed, whose showing lays the screen out anyway. A refresh there would
    lay the screen out now for nothing, or (without a layout) invalidate the compositor's map
    of every widget, which the next frame builds again."""
    widget._styles_cache.clear()
    widget._layout_cache.clear()
    widget._layout_updates += 1  # a key of its cached box model
    widget.clear_cached_dimensions()
    for ancestor in widget.ancestors:
        if not isinstance(ancestor, Widget):
            break
        ancestor._clear_arrangement_cache()
        ancestor._layout_updates += 1
        ancestor.clear_cached_dimensions()
        if not ancestor.styles.auto_dimensions:
            break


class FocusWithoutRepaint(Widget, can_focus=True):
    """A widget that takes and loses focus as Textual's ``Widget._on_focus`` and ``_on_blur``
    do, without their repaint of the whole widget: its subclasses redraw what focus changes."""

    def _on_focus(self, event: events.Focus) -> None:
        event.prevent_default()  # Widget._on_focus, without its repaint
        self.has_focus = True
        if self.parent is not None:
            self.parent.post_message(events.DescendantFocus(self))

    def _on_blur(self, event: events.Blur) -> None:
        event.prevent_default()  # Widget._on_blur, without its repaint
        self.has_focus = False
        if self.parent is not None:
            self.parent.post_message(events.DescendantBlur(self))


class StyledFocus(FocusWithoutRepaint, can_focus=True):
    """A widget whose focus shows only through CSS rules of its own (a ``:focus`` border), not
    through its render nor through rules on its descendants.

    Textual restyles a widget and every descendant when its focus changes
    (``Widget.watch_has_focus``) and repaints it whole (``Widget._on_focus``, ``_on_blur``). A
    view of the table holds a dozen panels, so a view switch restyled them all and repainted the
    whole 82 x 46 Table view even when its look did not change at all. Here only the widget is
    restyled, and the restyle repaints it when, and only when, its look changes
    (``tests/ui/test_compat.py`` checks that no rule of the app styles a descendant by an
    ancestor's focus). Name it after the Textual class among a widget's bases: Textual finds a
    widget's default CSS along the first base of each class only.
    """

    def watch_has_focus(self, _has_focus: bool) -> None:
        self.app.stylesheet.update_nodes([self], animate=True)


class QuietFocus(FocusWithoutRepaint, can_focus=True):
    """A widget whose focus changes the look of a few of its lines only: it redraws those
    (:meth:`focus_changed`) instead of all of them.

    Textual repaints a widget whole when it takes or loses focus (``Widget._on_focus``,
    ``_on_blur``), and again when the restyle changes the styles of one of its component
    classes (``Stylesheet._process_component_classes`` calls ``refresh()``). The move list's
    focus shows in its highlighted entry alone, yet every line of it was drawn again. Name it
    after the Textual class among a widget's bases (see :class:`StyledFocus`).
    """

    _focus_restyle = False  # inside watch_has_focus: a bare refresh() is the restyle's

    def watch_has_focus(self, has_focus: bool) -> None:
        self._focus_restyle = True
        try:
            super().watch_has_focus(has_focus)
        finally:
            self._focus_restyle = False
        self.focus_changed()

    def focus_changed(self) -> None:
        """Redraw what the focus changes; by default everything, as Textual does."""
        self.refresh()

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        if self._focus_restyle and not (regions or layout or recompose):
            return self  # the restyle's repaint of the whole widget: focus_changed draws
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


class ValueWatchedInput(Input):
    """An Input that knows when it is inside its own watcher of ``value``
    (``Input._watch_value``, which asks for a layout when the Input's size follows its text)."""

    _in_value_watcher = False

    @property
    def in_value_watcher(self) -> bool:
        return self._in_value_watcher

    def _watch_value(self, value: str) -> None:
        self._in_value_watcher = True
        try:
            super()._watch_value(value)
        finally:
            self._in_value_watcher = False


async def serve_application(server: Any) -> Any:
    """The aiohttp Application of a textual-serve ``Server``, its routes and handlers set up
    (``Server._make_app``, which ``Server.serve`` runs)."""
    return await server._make_app()
