"""The story of the game as a chart: each player's money, or projected final score, by Round.

Drawn with textual-plotext from the engine's :func:`round_history`. Each seat is one line in
its seat colour and with its own marker letter (its name's first letter), so the lines can be
told apart without colour too (NO_COLOR, 16-colour terminals).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.color import Color
from textual_plotext import PlotextPlot

from ..engine import RoundPoint
from ..i18n import N_, _
from .style import SEAT_COLOURS, dollars

SERIES = {
    "money": N_("Money by Round"),
    "projected": N_("Projected final score by Round"),
}
"""What a chart can show, with its title (a kind of :class:`RoundChart`)."""


def year_ticks(points: Sequence[RoundPoint]) -> tuple[list[int], list[str]]:
    """Where each Year begins along the x axis, and the end: positions and labels.

    >>> from pipeline_tui.engine import RoundPoint
    >>> pts = [RoundPoint(0, 1, 1, (), ()), RoundPoint(5, 1, 2, (), ()),
    ...        RoundPoint(9, 2, 1, (), ()), RoundPoint(12, 2, 0, (), ())]
    >>> year_ticks(pts)
    ([1, 3, 4], ['Y1', 'Y2', 'end'])
    """
    ticks: list[int] = []
    labels: list[str] = []
    for x, point in enumerate(points, 1):
        if point.round == 0:
            ticks.append(x)
            labels.append(_("end"))
        elif point.round == 1:
            ticks.append(x)
            labels.append(_("Y{year}").format(year=point.year))
    return ticks, labels


def markers(names: Sequence[str]) -> list[str]:
    """One marker letter per seat, its name's initial unless two seats share it.

    >>> markers(["Ann", "Bo", "Al"])
    ['A', 'B', '3']
    """
    out: list[str] = []
    for seat, name in enumerate(names, 1):
        letter = (name[:1] or str(seat)).upper()
        out.append(letter if letter not in out else str(seat))
    return out


class RoundChart(PlotextPlot):
    """One series of :data:`SERIES` for every seat, a point where each Round began."""

    DEFAULT_CSS = """
    RoundChart { height: 1fr; min-height: 8; }
    """

    def __init__(
        self,
        kind: str,
        points: Sequence[RoundPoint],
        names: Sequence[str],
        colours: Sequence[str],
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        if kind not in SERIES:
            raise ValueError(f"unknown chart {kind!r} (choose from {', '.join(SERIES)})")
        self.kind = kind
        self.points = list(points)
        self.names = list(names)
        self.colours = list(colours)

    def values(self, seat: int) -> list[int]:
        """The seat's series, one value a point."""
        return [getattr(point, self.kind)[seat] for point in self.points]

    def bounds(self) -> tuple[int, int]:
        """The lowest and highest value over every seat (both 0 with no data)."""
        values = [v for seat in range(len(self.names)) for v in self.values(seat)]
        return (min(values), max(values)) if values else (0, 0)

    def on_mount(self) -> None:
        super().on_mount()
        self.draw()

    def draw(self) -> None:
        """Plot every seat's series again (after the data or the language changed)."""
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        plt.title(_(SERIES[self.kind]))
        xs = list(range(1, len(self.points) + 1))
        for seat, (name, marker) in enumerate(zip(self.names, markers(self.names))):
            colour = SEAT_COLOURS.get(self.colours[seat]) if seat < len(self.colours) else None
            rgb = Color.parse(colour).triplet if colour else None
            tint = (rgb.red, rgb.green, rgb.blue) if rgb else None  # plotext's default: None
            plt.plot(xs, self.values(seat), marker="braille", color=tint)
            plt.scatter(xs, self.values(seat), marker=marker, label=name, color=tint)
        ticks, labels = year_ticks(self.points)
        if ticks:
            plt.xticks([float(tick) for tick in ticks], labels)
        low, high = self.bounds()
        ys = sorted({low + round(i * (high - low) / 4) for i in range(5)})
        plt.yticks([float(y) for y in ys], [dollars(y) for y in ys])
        self.refresh()
