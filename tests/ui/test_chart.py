"""The scores chart: a line per seat by Round, titled, with Year ticks and seat letters."""

from textual.app import App, ComposeResult

from pipeline_tui.engine import Game, GameSetup, RoundPoint, round_history
from pipeline_tui.ui.chart import RoundChart

POINTS = [
    RoundPoint(0, 1, 1, (40, 40), (40, 40)),
    RoundPoint(9, 1, 2, (55, 31), (70, 35)),
    RoundPoint(20, 2, 1, (80, 12), (120, 20)),
    RoundPoint(31, 2, 0, (95, 60), (150, 61)),
]


class ChartApp(App[None]):
    def __init__(self, kind: str, points: list[RoundPoint]) -> None:
        super().__init__()
        self.chart = RoundChart(kind, points, ["Ann", "Bo"], ["red", "blue"])

    def compose(self) -> ComposeResult:
        yield self.chart


async def test_the_chart_draws_each_seat_with_its_letter_and_the_years() -> None:
    app = ChartApp("projected", POINTS)
    async with app.run_test(size=(80, 24)):
        text = app.chart.render().plain
        assert "Projected final score by Round" in text
        assert "Y1" in text and "Y2" in text and "end" in text
        assert "Ann" in text and "Bo" in text
        assert text.count("A") >= len(POINTS) and text.count("B") >= len(POINTS)
        assert "$150" in text  # the top of the scale is the highest value shown


async def test_money_is_its_own_series() -> None:
    app = ChartApp("money", POINTS)
    async with app.run_test(size=(80, 24)):
        assert app.chart.values(1) == [40, 31, 12, 60]
        assert "Money by Round" in app.chart.render().plain


async def test_a_new_game_charts_its_single_point() -> None:
    game = Game(GameSetup.default(players=2, seed=2))
    app = ChartApp("money", round_history(game))
    async with app.run_test(size=(80, 24)):
        assert app.chart.bounds() == (40, 40)
        assert "$40" in app.chart.render().plain


def test_an_unknown_chart_is_refused() -> None:
    try:
        RoundChart("debt", POINTS, ["Ann", "Bo"], ["red", "blue"])
    except ValueError as exc:
        assert "unknown chart 'debt'" in str(exc)
    else:
        raise AssertionError("an unknown chart was accepted")


async def test_the_scores_screen_shows_the_chart_by_round_on_g(tmp_path) -> None:
    from textual.widgets import TabbedContent

    from pipeline_tui.ui.app import PipelineApp
    from pipeline_tui.ui.screens import EndScreen

    game = Game(GameSetup.default(players=2, seed=2))
    for _ in range(40):
        game.apply(game.legal_moves()[0])
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(EndScreen(game, ["red", "blue"]))
        await pilot.pause()
        tabs = app.screen.query_one("#end-tabs", TabbedContent)
        assert tabs.active == "end-scores"
        await pilot.press("g")
        await pilot.pause()
        assert tabs.active == "end-chart"
        money = app.screen.query_one("#chart-money", RoundChart)
        assert money.points == round_history(game)
        assert money.values(0)[0] == 40 and "Money by Round" in money.render().plain
        await pilot.press("g")
        assert tabs.active == "end-scores"
