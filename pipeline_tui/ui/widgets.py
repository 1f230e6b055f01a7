"""Small widgets shared by several screens."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Footer, Static

MIN_WIDTH, MIN_HEIGHT = 80, 24


class TooSmall(Static):
    """Covers the screen when the terminal is smaller than 80 x 24 (see the breakpoints)."""

    def __init__(self) -> None:
        super().__init__(
            f"The terminal is too small.\n\nPipeline needs at least {MIN_WIDTH} x {MIN_HEIGHT} "
            f"characters; {MIN_WIDTH * 2} x {MIN_HEIGHT * 2} shows the whole table.\n"
            "Enlarge the window, or press ctrl+q to save and quit.",
            classes="too-small",
        )


class TextPanel(Static):
    """A Static for a panel of the table, redrawn only when its text changes.

    Static.update lays the whole screen out again by default; at a shared table every session
    paid that for every panel a move touched. A TextPanel asks for a layout only when its height
    at its present width changes (or its width follows its text).
    """

    _key: tuple | None = None  # the text shown, with its styles

    def show(self, text: Text) -> bool:
        """Show ``text``; returns whether anything changed."""
        key = (text.plain, tuple(text.spans), str(text.style))
        if key == self._key:
            return False
        self._key = key
        width = self.content_region.width
        if not width or (self.styles.width is not None and self.styles.width.is_auto):
            self.update(text)
            return True
        container, viewport = self.container_size, self.app.size
        before = self.get_content_height(container, viewport, width)
        self.update(text, layout=False)
        if self.get_content_height(container, viewport, width) != before:
            self.refresh(layout=True)
        return True


class SteadyFooter(Footer):
    """A Footer that rebuilds its keys only when the keys it shows change.

    Textual's Footer recomposes (new widgets, restyled, laid out) on every bindings signal, and
    every focus change sends one. At the table most focus changes (F2/F3 views, escape) leave
    the shown keys as they were, so that rebuild was most of a view switch's repaint time.
    """

    _shown: tuple = ()

    def _shown_keys(self, screen: Screen) -> tuple:
        return tuple(
            (binding.key, binding.action, binding.description, enabled, tooltip)
            for key, (_node, binding, enabled, tooltip) in screen.active_bindings.items()
            if binding.show or key == screen.app.COMMAND_PALETTE_BINDING
        )

    def bindings_changed(self, screen: Screen) -> None:
        if self.is_attached and screen is self.screen and screen.app.app_focus:
            shown = self._shown_keys(screen)
            if shown == self._shown and self._bindings_ready:
                return
            self._shown = shown
        super().bindings_changed(screen)


class MoveLog(ScrollView, can_focus=True):
    """The move log, drawn a line at a time.

    Only the lines in sight are rendered, and each once, so a long game's log costs no more to
    show after a move than a short one's. (A Static holding the whole log re-rendered every
    line on every move: about 19 ms a move late in a 4-player game at 160x48.)
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._lines: list[Text] = []
        self._strips: dict[int, Strip] = {}

    @property
    def lines(self) -> list[Text]:
        """The log as shown, a line each."""
        return list(self._lines)

    def set_lines(self, lines: list[Text]) -> None:
        """Show ``lines`` and scroll to the last; lines that did not change keep their render."""
        same = 0
        for old, new in zip(self._lines, lines):
            if old is not new and old != new:  # the table hands back the same Text per move
                break
            same += 1
        for index in range(same, max(len(self._lines), len(lines))):
            self._strips.pop(index, None)
        self._lines = list(lines)
        self._resize(Size(max((line.cell_len for line in lines), default=0), len(lines)))
        self._follow()
        self.refresh()

    def _resize(self, size: Size) -> None:
        """Set the log's scrollable size. Once the vertical scrollbar is up and stays up (every
        move of a game after the first screenful), only the bar needs to know: setting
        ``virtual_size`` would lay the whole screen out again on every move."""
        view = self.scrollable_content_region
        if (self.show_vertical_scrollbar and not self.show_horizontal_scrollbar
                and size.height > view.height and size.width <= view.width):
            self.set_reactive(MoveLog.virtual_size, size)
            self.vertical_scrollbar.window_virtual_size = size.height
        else:
            self.virtual_size = size

    def _follow(self) -> None:
        """Scroll to the newest line at once. Textual's scroll_end waits for a refresh (until
        then the new lines do not allow scrolling), which drew the log twice per move; forcing
        the scroll with the sizes known now draws it once."""
        self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True, force=True)

    def on_resize(self) -> None:
        """Keep the newest move in sight when the log first gets its size, or a new one."""
        self._follow()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        style = self.rich_style
        width = self.scrollable_content_region.width
        if index >= len(self._lines):
            return Strip.blank(width, style)
        strip = self._strips.get(index)
        if strip is None:
            line = self._lines[index]
            strip = Strip(list(line.render(self.app.console)), line.cell_len).apply_style(style)
            self._strips[index] = strip
        return strip.crop_extend(scroll_x, scroll_x + width, style)
