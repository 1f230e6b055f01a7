"""The guided first game: the coach follows the turn with the engine's moves, frames the panel
it names (the status line by its colour), brings it into sight, numbers its steps in order, and
F9 leaves it with the game going on."""

from pipeline_tui.engine import Game, SeatKind, Stage, format_move
from pipeline_tui.engine import moves as M
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.table_screen import TableScreen
from pipeline_tui.ui.tutorial import COACHED_BORDER, COACHED_LINE, Coach, Tutorial, step_name, tutorial_setup
from tests.ui.pilot import settled
from tests.ui.test_table import fake_bots


def first_legal(game: Game) -> M.Move:
    return game.legal_moves()[0]


def play_text(game: Game, text: str) -> None:
    game.apply(next(m for m in game.legal_moves() if format_move(m) == text))


def test_the_setup_is_the_first_game_against_one_computer() -> None:
    setup = tutorial_setup(5)
    assert setup.first_game
    assert [p.kind for p in setup.players] == [SeatKind.HUMAN, SeatKind.HEURISTIC]


def test_steps_follow_the_turn() -> None:
    game = Game(tutorial_setup(7))
    seat = 0
    seen = []
    while game.state.round == 1 and game.state.year == 1 and len(game.moves) < 60:
        name = step_name(game.state, seat, game.legal_moves())
        seen.append(name)
        if game.state.turn.player != seat:
            assert name == "watch"
            game.apply(first_legal(game))
            continue
        if game.state.turn.stage == Stage.SETUP:
            assert name == "tanks"
            game.apply(first_legal(game))
        elif name == "main_action":
            play_text(game, "act crude")
            assert step_name(game.state, seat, game.legal_moves()) == "crude"
            game.apply(next(m for m in game.legal_moves() if isinstance(m, M.Buy)))
            play_text(game, "done")
        else:
            assert name in ("after_main", "turn_order", "machine_phase")
            ends = [m for m in game.legal_moves() if isinstance(m, (M.EndTurn, M.EndAction, M.Pass))]
            game.apply(ends[0] if ends else first_legal(game))
    assert {"tanks", "main_action", "watch"} <= set(seen)
    assert step_name(game.state, seat, game.legal_moves()) == "done"


async def test_the_coach_names_the_panel_frames_it_and_leaves_on_f9(tmp_path, monkeypatch) -> None:
    fake_bots(monkeypatch, "heuristic", first_legal)
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        game = Game(tutorial_setup(7))
        screen = TableScreen(game, tmp_path, policy=Tutorial())
        app.push_screen(screen)
        await pilot.pause()
        coach = screen.query_one(Coach)
        for _ in range(200):  # the computer places its Tanks first on this seed
            if game.state.turn.player == 0 and not screen.thinking and "Tanks" in str(coach.border_title):
                break
            await pilot.pause(0.05)
        assert "Your starting Tanks" in str(coach.border_title)
        text = str(coach.render())
        assert "Look at: Player board" in text and "start-tank C" in text
        assert screen.query_one("#board-view").styles.border.top[0] == COACHED_BORDER[0]
        for _ in range(5):
            screen.play(game.legal_moves()[0])
        await pilot.pause()
        assert "Choose your Main Action" in str(coach.border_title)
        assert screen.query_one("#cross").styles.border.top[0] == COACHED_BORDER[0]
        assert screen.query_one("#board-view").styles.border.top[0] != COACHED_BORDER[0]
        screen.play(next(m for m in game.legal_moves() if format_move(m) == "act crude"))
        await pilot.pause()
        assert "At the Crude Market" in str(coach.border_title)
        await pilot.press("f9")
        await pilot.pause()
        assert not screen.query(Coach)
        assert screen.query_one("#market-C").styles.border.top[0] != COACHED_BORDER[0]
        screen.play(next(m for m in game.legal_moves() if isinstance(m, M.Buy)))
        await pilot.pause()
        assert not screen.query(Coach) and len(game.moves) > 0


async def test_the_coach_numbers_steps_in_order_brings_panels_into_sight_and_lights_the_status_line(
    tmp_path, monkeypatch
) -> None:
    fake_bots(monkeypatch, "heuristic", first_legal)
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        game = Game(tutorial_setup(5))  # the person places Tanks first on this seed
        screen = TableScreen(game, tmp_path, policy=Tutorial())
        app.push_screen(screen)
        await pilot.pause()
        coach = screen.query_one(Coach)
        numbers = [str(coach.border_title).split(":")[0]]
        for _ in range(5):
            screen.play(game.legal_moves()[0])
            await pilot.pause()
        for _ in range(200):  # the computer places its Tanks
            if game.state.turn.player == 0 and not screen.thinking:
                break
            await pilot.pause(0.05)
        numbers.append(str(coach.border_title).split(":")[0])
        table = screen.query_one("#table-view")
        table.scroll_end(animate=False, immediate=True)
        await pilot.pause()
        screen.play(next(m for m in game.legal_moves() if format_move(m) == "act tanks"))
        await settled(pilot)
        assert "At the Shops" in str(coach.border_title)
        numbers.append(str(coach.border_title).split(":")[0])
        shops = screen.query_one("#shops")
        assert table.region.contains_region(shops.region)  # scrolled to, though the Table was at its end
        table.scroll_end(animate=False, immediate=True)
        await pilot.pause()
        screen.play(next(m for m in game.legal_moves() if format_move(m) == "done"))
        await settled(pilot)
        assert "Turn Order" in str(coach.border_title)
        numbers.append(str(coach.border_title).split(":")[0])
        status = screen.query_one("#status")
        assert status.styles.border.top[0] != COACHED_BORDER[0]  # a frame left its two rows empty
        assert status.styles.background == COACHED_LINE
        table.scroll_end(animate=False, immediate=True)
        await pilot.pause()
        screen.play(next(m for m in game.legal_moves() if isinstance(m, M.ChooseTurnOrder)))
        await settled(pilot)
        assert "After your Main Action" in str(coach.border_title)
        numbers.append(str(coach.border_title).split(":")[0])
        cross = screen.query_one("#cross")
        assert table.region.contains_region(cross.region)  # scrolled to, though the Table was at its end
        assert numbers == ["Tutorial 1", "Tutorial 3", "Tutorial 4", "Tutorial 5", "Tutorial 6"], numbers


async def test_f1_says_how_the_keyboard_scrolls_the_table(tmp_path) -> None:
    from textual.widgets import Markdown

    from tests.helpers import new_game
    from tests.ui.pilot import table_for

    async with table_for(new_game(), tmp_path, (80, 24)) as (app, pilot):
        await pilot.press("f1")
        await pilot.pause()
        text = " ".join(app.screen.query_one(Markdown).source.split())
        assert "pgup / pgdn, home / end scroll it (F2 the Table" in text


async def test_the_step_numbers_never_go_back_when_a_step_comes_again(tmp_path, monkeypatch) -> None:
    fake_bots(monkeypatch, "heuristic", first_legal)
    shown: list[str] = []  # every title the coach is given, in order (no sampling: none missed)
    show = Tutorial.show

    def recording(self: Tutorial, text: object) -> None:
        show(self, text)  # type: ignore[arg-type]
        if not shown or shown[-1] != str(self.title):
            shown.append(str(self.title))

    monkeypatch.setattr(Tutorial, "show", recording)

    def until_watching() -> list[str] | None:
        """The titles up to the first that leaves the tutorial or, after three, watches."""
        for i, title in enumerate(shown):
            if "Tutorial" not in title or (i >= 3 and "computer's turn" in title):
                return shown[: i + 1]
        return None

    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        game = Game(tutorial_setup(5))  # the person places Tanks first, and plays first
        screen = TableScreen(game, tmp_path, policy=Tutorial())
        app.push_screen(screen)
        await pilot.pause()
        for _ in range(400):
            if until_watching() is not None or not game.legal_moves():
                break
            if game.state.turn.player == 0 and not screen.thinking:
                ends = [m for m in game.legal_moves() if isinstance(m, (M.EndTurn, M.Pass, M.EndAction))]
                screen.play(ends[0] if ends else game.legal_moves()[0])
            await pilot.pause(0.02)
        titles = until_watching() or shown
        numbers = [int(title.split(":")[0].split()[-1]) for title in titles if "Tutorial" in title]
        assert "computer's turn" in titles[-1] and len(numbers) > 3, titles
        assert numbers == list(range(1, len(numbers) + 1)), titles  # the watching step again: on


async def test_a_pipe_tiles_preview_shows_whole_while_the_coach_is_up(tmp_path, monkeypatch) -> None:
    """Issue 37.7: at 80x24 the coach leaves the hint 3 rows, and a shop Pipe tile's preview
    (its price and its 3-row picture) was cut, the status line after it. The hint now holds
    the preview's every line, and the coach says what to do."""
    from pipeline_tui.ui.widgets import MoveList, TextPanel

    fake_bots(monkeypatch, "heuristic", first_legal)
    game = Game(tutorial_setup(5))
    while game.state.turn.stage == Stage.SETUP or game.state.turn.player != 0:
        game.apply(first_legal(game))
    play_text(game, "act tanks")
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = TableScreen(game, tmp_path, policy=Tutorial())
        app.push_screen(screen)
        await pilot.pause()
        moves = screen.query_one("#moves", MoveList)
        wanted = next(i for i, m in enumerate(screen.shown_moves) if isinstance(m, M.BuyPipe))
        moves.focus()
        moves.highlighted = next(
            i
            for i in range(moves.option_count)
            if moves.get_option_at_index(i).id == f"m{screen.listing}-{wanted}"
        )
        await settled(pilot)
        hint = screen.query_one("#hint", TextPanel)
        lines = str(hint.render()).splitlines()
        assert lines[0].startswith("Costs $15") and len(lines) == 4  # the price, the tile's 3 rows
        assert hint.size.height >= len(lines)
