"""Small widgets shared by several screens."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, NamedTuple, Self

from rich.cells import cell_len
from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.css.scalar import Unit
from textual.dom import DOMNode
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Checkbox

from .footer import SteadyFooter as SteadyFooter
from .too_small import MIN_HEIGHT as MIN_HEIGHT, MIN_WIDTH as MIN_WIDTH, TooSmall as TooSmall
from .compat import (
    QuietFocus,
    StyledFocus,
    ValueWatchedInput,
    mark_stale,
    line_breaks,
    update_scrollbars,
)


def out_of_sight(widget: Widget) -> bool:
    """Whether ``widget`` or a container of it is not displayed (``display: none``), so that
    nothing it shows can change the screen's layout until that container is shown, which lays
    the screen out anyway."""
    node: DOMNode | None = widget
    while isinstance(node, Widget):
        if not node.display:
            return True
        node = node.parent
    return False


class TextPanel(Widget):
    """A panel of the table: its text drawn a line at a time, and only changed lines redrawn.

    A move changes a line or two of most panels (a player's money, a price). A Static rendered
    every line of every panel a move touched again, and sent them all to the terminal again:
    at a shared table, in every session. A TextPanel repaints the lines whose text changed, and
    asks for the screen to be laid out again only when its height changes. Text taller than the
    panel (a long hint at 80x24) ends its last line shown with "…", so a reader knows there is
    more.
    """

    DEFAULT_CSS = "TextPanel { height: auto; }"
    WRAP = True  # wrap lines wider than the panel (False: the panel is as wide as its text)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._text = Text()
        self._key: tuple[object, ...] | None = None  # the text shown, with its styles
        self._width = 0  # the width _lines are wrapped at
        self._lines: list[Text] = []
        self._strips: dict[int, Strip] = {}
        self._blank: Strip | None = None  # a line below the text
        self._height = 0  # the height the lines were drawn at (the last one shown may be cut)

    def render(self) -> Text:
        """The text shown, whole (what tests and a reader ask for; drawing is by line)."""
        return self._text

    def show(self, text: Text, layout: bool | None = None) -> bool:
        """Show ``text``; returns whether anything changed. The screen is laid out again if
        ``layout``, or by default when the panel's height changes."""
        key = (text.plain, tuple(text.spans), str(text.style))
        if key == self._key:
            return False
        self._key, self._text = key, text
        if out_of_sight(self):
            # A view not shown (the board on an 80-column table): wrapped and drawn when it
            # is shown, whose layout sizes it. A layout asked for now laid the whole screen out
            # for nothing on most moves, and a refresh made the next frame map every widget
            # again, in every session watching at 80 x 24.
            self._rewrap(0)
            mark_stale(self)
            return True
        width = self.content_region.width
        old = self._lines if width and width == self._width else None
        new = self._wrap(width) if width else []
        if old is None or len(old) != len(new):
            if layout is None:
                before = self._box_height(len(old)) if old is not None else None
                layout = before is None or before != self._box_height(len(new))
            self._rewrap(width)
            self.refresh(layout=layout)
            return True
        self._lines = new  # the lines that did not change keep their drawing
        for y, (was, now) in enumerate(zip(old, new)):
            if was != now or was.style != now.style:
                self._strips.pop(y, None)
                self.refresh(Region(0, y, width, 1))
        if layout:
            self.refresh(layout=True)
        return True

    def _box_height(self, lines: int) -> int | None:
        """The panel's height with ``lines`` of text, where its styles make that plain (an
        auto height, its limits in cells); None otherwise. A panel with a minimum height
        (the hint at a shared table) keeps its height for a line more or less, and then the
        screen needs no new layout; so does one filling its view while its text is shorter
        (the player board, ``min-height: 100%``)."""
        styles = self.styles
        if styles.height is None or not styles.height.is_auto or styles.box_sizing != "border-box":
            return None
        height = lines + styles.gutter.height
        for limit, pick in ((styles.min_height, max), (styles.max_height, min)):
            if limit is None:
                continue
            if limit.unit == Unit.CELLS:
                height = pick(height, int(limit.value))
            elif limit.unit in (Unit.PERCENT, Unit.HEIGHT) and self.container_size.height:
                height = pick(height, int(limit.resolve(self.container_size, self.app.size)))
            else:
                return None
        return height

    def _wrap(self, width: int) -> list[Text]:
        """The text's lines, each wrapped at ``width`` (as a Static would wrap it)."""
        lines: list[Text] = []
        for line in self._text.split("\n", allow_blank=True):
            if line.cell_len <= width or not self.WRAP:
                lines.append(line)
            else:
                lines.extend(line.wrap(self.app.console, width))
        return lines

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return max((cell_len(line) for line in self._text.plain.split("\n")), default=0)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if width == self._width:
            return len(self._lines)
        return len(self._wrap(width)) if width > 0 else 0

    def _rewrap(self, width: int) -> None:
        """Wrap the text at ``width`` (0: not laid out yet) and forget the lines drawn."""
        self._lines, self._width = (self._wrap(width), width) if width else ([], 0)
        self._strips.clear()
        self._blank = None

    def on_resize(self) -> None:
        if self.content_region.width != self._width:
            self._rewrap(self.content_region.width)
            self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()
        self._blank = None

    def render_line(self, y: int) -> Strip:
        """A line of the text, rendered once. The widget's style (``rich_style`` walks every
        ancestor's styles) is looked up only for a line not rendered before."""
        width = self.content_region.width
        if width != self._width:  # drawn at a new width before the Resize event
            self._rewrap(width)
        if y >= len(self._lines):
            if self._blank is None:
                self._blank = Strip.blank(width, self.rich_style)
            return self._blank
        height = self.content_region.height
        if height != self._height:
            self._strips.clear()
            self._height = height
        strip = self._strips.get(y)
        if strip is None:
            style = self.rich_style
            line = self._lines[y]
            if y == height - 1 and len(self._lines) > height:  # the panel cuts the text here
                line = line[: max(0, width - 1)]
                line.rstrip()
                line.append("…", style="bold")
            strip = text_strip(self.app.console, line, style)
            strip = strip.crop_extend(0, width, style)
            self._strips[y] = strip
        return strip


class MovePrompt(ValueWatchedInput):
    """The move prompt: an Input that does not lay the screen out as it is typed in.

    Input asks for a layout on every change of its text, for inputs whose width follows it. The
    prompt's size is fixed (app.tcss), so each key, and clearing it once a move is sent, only
    needs the prompt itself redrawn; at a shared table that layout was in every move's path.
    """

    _passing = False  # listing the keys to show: the prompt takes none of them as text

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """':' is left to the table, which opens the prompt anew: no move's notation has one."""
        return not self._passing and character != ":" and super().check_consume_key(key, character)

    @contextmanager
    def passing_keys(self) -> Iterator[None]:
        """While the screen lists its keys: none of them is taken as text here."""
        self._passing = True
        try:
            yield
        finally:
            self._passing = False

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        if self.in_value_watcher and not self.styles.auto_dimensions:
            layout = False
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


class TickBox(Checkbox):
    """A Checkbox whose box shows X only when ticked: Textual's shows X either way and tells
    the two apart by a faint colour alone."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # noqa: N802
        """The box's inside (Textual's class attribute, read here as the box is ticked)."""
        return "X" if self.value else " "


def text_strip(console: Console, text: Text, style: Style) -> Strip:
    """One line of ``text`` as a Strip over ``style``, with the text's own style and spans.
    (Text.render leaves out the text's own style; a Static's renderer adds it.)"""
    if text.style:
        style = style + console.get_style(text.style)
    return Strip(list(text.render(console)), text.cell_len).apply_style(style)


class LineView(ScrollView):
    """A ScrollView drawn a line at a time, whose scrollable size changes without a layout.

    Setting ``virtual_size`` lays the whole screen out again. That is needed only when a
    scrollbar comes or goes (the lines get narrower or wider); a longer log or another list of
    moves that keeps its scrollbars as they were only needs the bars told. Each subclass keeps
    the lines it has rendered in ``_strips``, forgotten when its styles change.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._strips: dict[Any, Strip] = {}
        self._blanks: dict[int, Strip] = {}  # a line below the last, by width
        self._style: Style | None = None  # rich_style, as the lines in _strips were drawn with

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()
        self._blanks.clear()
        self._style = None

    @property
    def line_style(self) -> Style:
        """The widget's ``rich_style``, looked up once per style (it walks every ancestor's
        styles, and a line drawn before needs it for its padding each time it is drawn)."""
        if self._style is None:
            self._style = self.rich_style
        return self._style

    def blank(self, width: int) -> Strip:
        """A line below the last: made once per width and style (``rich_style`` walks every
        ancestor's styles, and a short list has dozens of such lines to repaint)."""
        strip = self._blanks.get(width)
        if strip is None:
            strip = self._blanks[width] = Strip.blank(width, self.line_style)
        return strip

    def _resize(self, size: Size) -> None:
        """Set the scrollable size; lay the screen out only if the scrollbars shown change."""
        if size == self.virtual_size:
            return
        bars = (self.show_vertical_scrollbar, self.show_horizontal_scrollbar)
        self.set_reactive(Widget.virtual_size, size)
        if not self.container_size:
            self.refresh(layout=True)  # not laid out yet: the first layout sizes the bars
            return
        update_scrollbars(self, size)
        if (self.show_vertical_scrollbar, self.show_horizontal_scrollbar) != bars:
            self.refresh(layout=True)


class StatusBar(TextPanel):
    """The status line: its parts are kept whole, each line taking as many as fit, so a
    narrow terminal breaks it between parts ("Next: . . . ." never loses a dot to the next
    line, in a language whose words are longer)."""

    SEPARATOR = "  "

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._parts: list[Text] = []

    def show_parts(self, parts: list[Text]) -> bool:
        """Show ``parts`` on as few lines as keep each whole; returns whether anything changed."""
        self._parts = parts
        return self.show(Text(self.SEPARATOR).join(parts))

    def _wrap(self, width: int) -> list[Text]:
        if not self._parts:
            return super()._wrap(width)
        lines: list[Text] = []
        line: Text | None = None
        for part in self._parts:
            if line is not None and line.cell_len + len(self.SEPARATOR) + part.cell_len <= width:
                line.append(self.SEPARATOR)
                line.append_text(part)
                continue
            if line is not None:
                lines.append(line)
            line = Text()
            line.append_text(part)  # a part's own style stays on the part
            if line.cell_len > width:  # a part wider than the bar: Rich wraps it by words
                *whole, line = line.wrap(self.app.console, width)
                lines.extend(whole)
        if line is not None:
            lines.append(line)
        return lines


class View(VerticalScroll, StyledFocus):
    """A scrolling view of the table (the Table, a player board): taking or losing the focus
    restyles and repaints the view alone, not the panels in it (``StyledFocus``)."""


class MoveLog(LineView, StyledFocus, can_focus=True):
    """The move log, drawn a line at a time.

    Only the lines in sight are rendered, and each once, so a long game's log costs no more to
    show after a move than a short one's. (A Static holding the whole log re-rendered every
    line on every move: about 19 ms a move late in a 4-player game at 160x48.)
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._lines: list[Text] = []
        self._strips: dict[int, Strip] = {}  # by line of the log
        self._behind = False  # lines were set while out of sight, not yet sized and drawn

    @property
    def lines(self) -> list[Text]:
        """The log as shown, a line each."""
        return list(self._lines)

    def set_lines(self, lines: list[Text]) -> None:
        """Show ``lines`` and scroll to the last; lines that did not change keep their render,
        and a log that did not change at all (another board shown) is not repainted."""
        same = 0
        for old, new in zip(self._lines, lines):
            if old is not new and old != new:  # the table hands back the same Text per move
                break
            same += 1
        if same == len(self._lines) == len(lines):
            return
        for index in range(same, max(len(self._lines), len(lines))):
            self._strips.pop(index, None)
        self._lines = list(lines)
        if out_of_sight(self):
            # The log's view is not shown (an 80-column table): sized, scrolled and drawn when
            # it is (catch_up). Its scrollbars' repaints made every frame of every watcher at
            # 80 x 24 map the whole screen again.
            self._behind = True
            return
        self._show_lines()

    def catch_up(self) -> None:
        """Size, scroll and draw the lines set while the log was out of sight; the table calls
        it as it shows the log's view."""
        if self._behind:
            self._show_lines()

    def _show_lines(self) -> None:
        self._behind = False
        lines = self._lines
        self._resize(Size(max((line.cell_len for line in lines), default=0), len(lines)))
        self._follow()
        self.refresh(self.scrollable_content_region.reset_offset)  # the lines; not the border

    def _follow(self) -> None:
        """Scroll to the newest line at once. Textual's scroll_end waits for a refresh (until
        then the new lines do not allow scrolling), which drew the log twice per move; forcing
        the scroll with the sizes known now draws it once."""
        self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True, force=True)

    def on_resize(self) -> None:
        """Keep the newest move in sight when the log first gets its size, or a new one."""
        self._follow()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        if index >= len(self._lines):
            return self.blank(width)
        style = self.line_style
        strip = self._strips.get(index)
        if strip is None:
            line = self._lines[index]
            strip = text_strip(self.app.console, line, style)
            self._strips[index] = strip
        return strip.crop_extend(scroll_x, scroll_x + width, style)


class Choice(NamedTuple):
    """One entry of a MoveList: what it shows, the id it answers to, and whether it can be
    chosen (a heading cannot)."""

    prompt: Text
    id: str | None = None
    disabled: bool = False


class MoveList(LineView, QuietFocus, can_focus=True):
    """A list to choose from (the legal moves, the moves of a replay), drawn a line at a time.

    Textual's OptionList measures and renders every option whenever its options change; at a
    shared table every session paid that on every turn, for up to 80 placements. Here an entry
    is wrapped only when it comes into sight, a highlight redraws its two entries, and a new
    list lays the screen out only when the scrollbar comes or goes.
    """

    BINDINGS = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("pageup", "page(-1)", "Page Up", show=False),
        Binding("pagedown", "page(1)", "Page Down", show=False),
        Binding("enter", "select", "Select", show=False),
    ]
    COMPONENT_CLASSES = {"move-list--highlighted", "move-list--heading", "move-list--hover"}
    DEFAULT_CSS = """
    MoveList {
        overflow-x: hidden;
        padding: 0 1;
        color: $foreground;
        background: $surface;
        & > .move-list--highlighted {
            color: $foreground;
            background: $block-cursor-blurred-background;
        }
        &:focus {
            & > .move-list--highlighted {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
        & > .move-list--heading { color: $text-disabled; }
        & > .move-list--hover { background: $block-hover-background; }
    }
    """

    class ChoiceMessage(Message):
        """About entry ``option_index`` of ``move_list``: ``option``."""

        def __init__(self, move_list: MoveList, option: Choice, index: int, by_user: bool = False) -> None:
            super().__init__()
            self.move_list, self.option, self.option_index = move_list, option, index
            self.by_user = by_user  # moved by a key or the mouse, not by the program

        @property
        def control(self) -> MoveList:
            return self.move_list

    class Highlighted(ChoiceMessage):
        """The highlight moved to ``option`` (never a heading)."""

    class Selected(ChoiceMessage):
        """``option`` was chosen: enter, or a click."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._options: tuple[Choice, ...] = ()
        self._highlighted: int | None = None
        self._hover: int | None = None
        self._rows: list[tuple[int, int]] = []  # (entry, line of it) for each line of the list
        self._first_row: list[int] = []  # each entry's first line
        self._width = 0  # the width the rows were wrapped at
        self._wrapped: dict[int, list[Text]] = {}
        self._strips: dict[tuple[int, int, str], Strip] = {}  # by (entry, its line, look)
        self._by_user = False  # the highlight is being moved by a key or the mouse

    # --- what is listed ---
    @property
    def options(self) -> tuple[Choice, ...]:
        return self._options

    @property
    def option_count(self) -> int:
        return len(self._options)

    def get_option_at_index(self, index: int) -> Choice:
        return self._options[index]

    def set_options(self, options: list[Choice]) -> None:
        """List ``options`` from the top, nothing highlighted."""
        self._options = tuple(options)
        self._highlighted = self._hover = None
        self._wrapped.clear()
        self._strips.clear()
        self._rows, self._first_row, self._width = [], [], 0
        self.scroll_to(y=0, animate=False, immediate=True, force=True)  # the bar's thumb too
        self._lay_rows()
        self.refresh()

    @property
    def highlighted(self) -> int | None:
        """The entry highlighted; setting it to a choosable entry scrolls it into sight and
        posts Highlighted."""
        return self._highlighted

    @highlighted.setter
    def highlighted(self, index: int | None) -> None:
        if index is not None and not 0 <= index < len(self._options):
            index = None
        old, self._highlighted = self._highlighted, index
        self._refresh_entry(old)
        self._refresh_entry(index)
        if index is not None and not self._options[index].disabled:
            self._scroll_to_entry(index)
            self.post_message(self.Highlighted(self, self._options[index], index, self._by_user))

    def _move_to(self, index: int) -> None:
        """Highlight ``index`` for a key or the mouse."""
        self._by_user = True
        try:
            self.highlighted = index
        finally:
            self._by_user = False

    # --- lines ---
    def _lay_rows(self) -> None:
        """Which line of which entry each line of the list is, at the width in sight."""
        width = self.scrollable_content_region.width
        if width <= 0 or width == self._width:
            return
        self._width = width
        self._wrapped.clear()
        self._strips.clear()
        rows: list[tuple[int, int]] = []
        first: list[int] = []
        for index, option in enumerate(self._options):
            first.append(len(rows))
            plain = option.prompt.plain
            # line_breaks are those of rich's Text.wrap: the breaks a Static would use
            # (tests/ui/test_move_list.py holds the two to the same lines)
            height = 1 if cell_len(plain) <= width else len(line_breaks(plain, width)) + 1
            rows.extend((index, line) for line in range(height))
        self._rows, self._first_row = rows, first
        self._resize(Size(width, len(rows)))
        if self._highlighted is not None:
            self._scroll_to_entry(self._highlighted)

    def _lines_of(self, index: int) -> list[Text]:
        """Entry ``index`` wrapped at the list's width, at the breaks its rows were counted by."""
        lines = self._wrapped.get(index)
        if lines is None:
            prompt = self._options[index].prompt
            breaks = line_breaks(prompt.plain, self._width)
            lines = list(prompt.divide(breaks))
            for line in lines:
                line.rstrip()
            self._wrapped[index] = lines
        return lines

    def _refresh_entry(self, index: int | None) -> None:
        if index is None or index >= len(self._first_row):
            return
        end = self._first_row[index + 1] if index + 1 < len(self._first_row) else len(self._rows)
        self.refresh_lines(self._first_row[index], end - self._first_row[index])

    def _scroll_to_entry(self, index: int) -> None:
        if index >= len(self._first_row):
            return
        top = self._first_row[index]
        end = self._first_row[index + 1] if index + 1 < len(self._first_row) else len(self._rows)
        self.scroll_to_region(
            Region(0, top, self._width, end - top), animate=False, force=True, immediate=True
        )

    def on_resize(self) -> None:
        self._lay_rows()

    def render_line(self, y: int) -> Strip:
        self._lay_rows()
        row = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        if row >= len(self._rows):
            return self.blank(width)
        index, line = self._rows[row]
        option = self._options[index]
        kind = (
            "heading"
            if option.disabled
            else "highlighted"
            if index == self._highlighted
            else "hover"
            if index == self._hover
            else ""
        )
        key = (index, line, kind)
        strip = self._strips.get(key)
        if strip is None:
            style = self.get_visual_style(*([f"move-list--{kind}"] if kind else [])).rich_style
            lines = self._lines_of(index)
            text = lines[line] if line < len(lines) else Text()
            strip = (
                text_strip(self.app.console, text, style)
                .extend_cell_length(width, style)
                .apply_meta({"option": index})
            )
            self._strips[key] = strip
        return strip

    # --- focus ---
    def focus_changed(self) -> None:
        """Focus shows only in the highlighted entry's colours (no tint of the whole list), so
        only that entry is drawn again: repainting every line of the list was the slowest part
        of the keys that move the focus (docs/benchmarks.md)."""
        super(LineView, self).notify_style_update()  # the styles, not every drawn line
        self._strips = {key: strip for key, strip in self._strips.items() if key[2] != "highlighted"}
        self._refresh_entry(self._highlighted)

    # --- keys and mouse ---
    def _choosable(self) -> list[int]:
        return [i for i, option in enumerate(self._options) if not option.disabled]

    def action_cursor(self, step: int) -> None:
        """The next choosable entry up or down; at the last (first) entry Down (Up) stays, so
        a key pressed once too often never lands on the other end of the list (issue 37)."""
        choosable = self._choosable()
        if not choosable:
            return
        if self._highlighted is None:
            self._move_to(choosable[0 if step > 0 else -1])
            return
        ahead = [i for i in choosable if (i - self._highlighted) * step > 0]
        if ahead:
            self._move_to(ahead[0] if step > 0 else ahead[-1])

    def action_first(self) -> None:
        choosable = self._choosable()
        if choosable:
            self._move_to(choosable[0])

    def action_last(self) -> None:
        choosable = self._choosable()
        if choosable:
            self._move_to(choosable[-1])

    def action_page(self, step: int) -> None:
        """About a screenful up or down, to the nearest choosable entry."""
        choosable = self._choosable()
        if not choosable or not self._rows:
            return
        current = self._highlighted if self._highlighted is not None else choosable[0]
        row = self._first_row[current] + step * self.scrollable_content_region.height
        target = self._rows[max(0, min(len(self._rows) - 1, row))][0]
        ahead = [i for i in choosable if (i - target) * step >= 0]
        self._move_to(
            (ahead[0] if step > 0 else ahead[-1]) if ahead else (choosable[-1] if step > 0 else choosable[0])
        )

    def action_select(self) -> None:
        index = self._highlighted
        if index is not None and not self._options[index].disabled:
            self.post_message(self.Selected(self, self._options[index], index))

    def on_click(self, event: events.Click) -> None:
        index = event.style.meta.get("option")
        if index is not None and not self._options[index].disabled:
            self._move_to(index)
            self.action_select()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._set_hover(event.style.meta.get("option"))

    def on_leave(self, _event: events.Leave) -> None:
        self._set_hover(None)

    def _set_hover(self, index: int | None) -> None:
        if index != self._hover:
            old, self._hover = self._hover, index
            self._refresh_entry(old)
            self._refresh_entry(index)
