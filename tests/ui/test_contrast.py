"""Legible panels (issue 14): every panel title and the panels' text meet a contrast ratio of
4.5:1 (WCAG 2) against what they are drawn on, in the default theme and again after Textual
and Rich bring the colours down to a 16-colour terminal's."""

import pytest
from rich.color import Color as RichColor
from rich.color import ColorSystem
from rich.terminal_theme import DEFAULT_TERMINAL_THEME
from textual.color import Color

from pipeline_tui.engine import Game, GameSetup
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.table_screen import TableScreen

TITLED = ".panel, .view, #hint, #moves"


def luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG contrast ratio, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def sixteen(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """The colour a 16-colour terminal shows for ``rgb`` (Rich's downgrade, standard palette)."""
    colour = RichColor.from_rgb(*rgb).downgrade(ColorSystem.STANDARD)
    return tuple(colour.get_truecolor(DEFAULT_TERMINAL_THEME))


def test_the_ratio_is_wcag() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert contrast((0x24, 0x2F, 0x38), (0x12, 0x12, 0x12)) < 1.5  # the old titles: $panel


async def test_titles_and_text_are_legible_in_colour_and_at_16_colours(tmp_path) -> None:
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        app.push_screen(TableScreen(Game(GameSetup.default(players=2, seed=1)), tmp_path))
        await pilot.pause()
        checked = 0
        for widget in app.screen.query(TITLED):
            if widget.styles.border_top[0] in ("", "none", "hidden"):
                continue  # no border, so no title drawn (the wide table-view)
            behind = widget.background_colors[0]
            title = widget.styles.border_title_color
            if title.a == 0:  # unset: Textual draws the title in the border's colour
                title = widget.styles.border_top[1]
            pairs = {
                "title": (behind + title).rgb,
                "text": (behind + widget.styles.color).rgb,
            }
            for what, rgb in pairs.items():
                ratio = contrast(rgb, behind.rgb)
                assert ratio >= 4.5, (
                    f"#{widget.id} {what}: {Color(*rgb).hex} on {behind.hex} is {ratio:.2f}:1"
                )
                low = contrast(sixteen(rgb), sixteen(behind.rgb))
                assert low >= 4.5, f"#{widget.id} {what} at 16 colours: {low:.2f}:1"
            checked += 1
        assert checked >= 13  # every panel of the table, the views, the hint and the move list
