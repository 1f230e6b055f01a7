"""The guided first game: the coach follows the turn with the engine's moves, frames the panel
it names, and F9 leaves it with the game going on."""

from pipeline_tui.engine import Game, SeatKind, Stage, format_move
from pipeline_tui.engine import moves as M
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.table_screen import TableScreen
from pipeline_tui.ui.tutorial import COACHED_BORDER, Coach, Tutorial, step_name, tutorial_setup
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
