"""Pilot tests of the Textual app: a new game, moves from the list, the prompt and the ghost tile,
undo/redo, saves, the other screens and the terminal-size handling."""

from __future__ import annotations

import contextlib
from pathlib import Path

from textual.widgets import DataTable, Input, OptionList, Select, Static

from pipeline_tui import storage
from pipeline_tui.engine.moves import format_move, parse_move
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.network_panel import NetworkGrid, NetworkPanel
from pipeline_tui.ui.screens import EndScreen, LoadScreen, NewGameScreen
from pipeline_tui.ui.title import TitleScreen
from pipeline_tui.ui.seats import Replay
from pipeline_tui.ui.table_screen import TableScreen
from pipeline_tui.ui.widgets import MoveList, MoveLog

from tests.ui.pilot import choose, hint, table_for, type_move

WIDE = (160, 48)
NARROW = (80, 24)


async def place_starting_tanks(pilot) -> None:
    """Setup through the screen's own play() (the keyboard path is tested once, below)."""
    for _ in range(10):
        assert pilot.app.screen.play(parse_move("start-tank C"))
    await pilot.pause()


async def take_a_pipe_tile(pilot) -> int:
    """Past setup, the first player takes the Tanks action and buys pipe 1: a ghost to place.
    Returns that player's seat."""
    await place_starting_tanks(pilot)
    seat = pilot.app.screen.game.current_player
    await choose(pilot, "act tanks")
    await choose(pilot, "pipe 1")
    return seat


def new_app(tmp_path: Path, **options) -> PipelineApp:
    options.setdefault("mode", "new")
    options.setdefault("players", 2)
    options.setdefault("seed", 7)
    return PipelineApp(saves_dir=tmp_path, **options)


async def test_new_game_screen_starts_a_seeded_game(tmp_path):
    app = PipelineApp(mode="new", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        assert isinstance(app.screen, NewGameScreen)
        app.screen.query_one("#seed", Input).value = "42"
        app.screen.query_one("#name-0", Input).value = "Alice"
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        setup = app.screen.game.setup
        assert setup.seed == 42
        assert [p.name for p in setup.players] == ["Alice", "Bo"]


async def test_starting_tanks_market_buy_and_end_turn(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        game = screen.game
        for _ in range(10):
            await choose(pilot, "start-tank C")
        assert game.state.turn.stage == "work"
        assert all(p.tanks[0] == 5 for p in game.state.players)
        seat = game.current_player
        money = game.state.players[seat].money
        await choose(pilot, "act crude")
        buy = next(format_move(m) for m in screen.shown_moves if format_move(m).startswith("buy"))
        await choose(pilot, buy)
        assert game.state.players[seat].money < money
        assert sum(game.state.players[seat].oil[0]) == 1
        await choose(pilot, "done")
        await choose(pilot, "end")
        assert game.current_player != seat
        lines = screen.query_one(MoveLog).lines
        assert buy in "\n".join(line.plain for line in lines)
        number = lines[0].get_style_at_offset(app.console, 0)
        name = lines[0].get_style_at_offset(app.console, 5)
        assert number.dim and not name.dim  # only the move's number is dimmed
        other = game.state.players[game.current_player]
        await choose(pilot, "pass")
        moves = [format_move(m) for m in screen.shown_moves]
        assert "end" in moves and "pass" not in moves
        await choose(pilot, "end")
        assert other.money == 40 and game.state.round == 2
        assert (tmp_path / f"{storage.AUTOSAVE_PREFIX}7.json").exists()


async def test_ghost_tile_moves_turns_and_places(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        game = screen.game
        seat = await take_a_pipe_tile(pilot)
        assert game.state.turn.hand_tile >= 0
        assert isinstance(app.focused, NetworkPanel)
        assert screen.ghost is not None and screen.ghost.legal
        await pilot.press("right")
        await pilot.pause()
        assert not screen.ghost.legal
        assert "first tile" in hint(app)
        await pilot.press("enter")
        await pilot.pause()
        assert game.state.players[seat].tiles == []
        assert "Not allowed" in hint(app)
        await pilot.press("left", "r", "r")
        await pilot.pause()
        assert screen.ghost.legal and screen.ghost.rot == 2
        await pilot.press("enter")
        await pilot.pause()
        tiles = game.state.players[seat].tiles
        assert len(tiles) == 1 and tiles[0][1:] == (0, 0, 2)
        assert screen.ghost is None


async def test_undo_and_redo_keys(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        game = app.screen.game
        await choose(pilot, "start-tank M")
        await choose(pilot, "start-tank H")
        assert len(game.moves) == 2
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert [format_move(m) for m in game.moves] == ["start-tank M"]
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert [format_move(m) for m in game.moves] == ["start-tank M", "start-tank H"]
        await pilot.press("ctrl+z", "ctrl+z", "ctrl+z")
        await pilot.pause()
        assert game.moves == []


async def test_prompt_plays_moves_and_shows_errors(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        game = app.screen.game
        await type_move(pilot, "start-tank Q")
        assert "unknown grade" in hint(app)
        assert game.moves == []
        assert app.screen.query_one("#prompt", Input).value == "start-tank Q"
        await type_move(pilot, "act crude")
        assert "Setup" in hint(app)
        await type_move(pilot, "start-tank L", keys=True)
        assert [format_move(m) for m in game.moves] == ["start-tank L"]
        assert app.screen.query_one("#prompt", Input).value == ""


async def test_save_as_and_load_back(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await choose(pilot, "start-tank L")
        await choose(pilot, "start-tank M")
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.screen.query_one("#save-name", Input).value = "mine"
        await pilot.press("enter")
        await pilot.pause()
    assert storage.read_save(tmp_path / "mine.json").meta["colours"] == ["red", "blue"]
    app = PipelineApp(mode="load", file=tmp_path / "mine.json", saves_dir=tmp_path)
    async with app.run_test(size=NARROW):
        assert isinstance(app.screen, TableScreen)
        assert [format_move(m) for m in app.screen.game.moves] == ["start-tank L", "start-tank M"]


async def test_load_screen_lists_saves_and_refuses_broken_ones(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await choose(pilot, "start-tank L")
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    app = PipelineApp(mode="load", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        assert isinstance(app.screen, LoadScreen)
        table = app.screen.query_one("#saves", DataTable)
        assert table.row_count == 2
        names = [info.path.name for info in app.screen.saves]
        table.move_cursor(row=names.index("broken.json"))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)
        error = str(app.screen.query_one("#load-error", Static).render())
        assert "Cannot open broken.json" in error
        table.move_cursor(row=names.index(f"{storage.AUTOSAVE_PREFIX}7.json"))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert len(app.screen.game.moves) == 1


async def test_title_screen_continue_and_quit_saves(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await choose(pilot, "start-tank L")
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.is_running
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        assert isinstance(app.screen, TitleScreen)
        menu = app.screen.query_one("#title-menu", OptionList)
        menu.highlighted = 1
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert len(app.screen.game.moves) == 1


async def test_scores_screen_shows_every_step(tmp_path):
    app = new_app(tmp_path, players=["Ann", "Ben", "Cat"])
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("f6")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        table = app.screen.query_one("#scores", DataTable)
        assert len(table.columns) == 4
        labels = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        assert labels[-1] == "Total" and "Cash" in labels
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)


async def test_narrow_terminal_switches_views(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        assert screen.has_class("-narrow")
        await pilot.pause()
        assert screen.query_one("#table-view").has_class("-active")  # the table first
        assert screen.query_one("#table-view").region.width > 0
        assert screen.query_one("#board-view").region.width == 0
        await pilot.press("f3")
        await pilot.pause()
        assert screen.query_one("#board-view").has_class("-active")
        assert not screen.query_one("#table-view").has_class("-active")
        assert screen.query_one("#board-view").region.width > 0
        assert screen.query_one("#table-view").region.width == 0


async def test_too_small_terminal_shows_a_message(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        message = app.screen.query_one(".too-small")
        assert message.region.width > 0
        assert "too small" in str(message.render())


async def test_other_players_boards_one_key_away(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        screen = app.screen
        other = 1 - screen.game.current_player
        screen.query_one("#moves").focus()
        await pilot.press(str(other + 1))
        await pilot.pause()
        assert screen.shown_seat == other
        name = screen.game.state.players[other].name
        assert name in screen.query_one("#board-view").border_title
        await pilot.press("0")
        await pilot.pause()
        assert screen.shown_seat == screen.game.current_player


async def test_replay_steps_through_a_save(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        for text in ("start-tank L", "start-tank M", "start-tank H"):
            assert app.screen.play(parse_move(text))
    path = tmp_path / f"{storage.AUTOSAVE_PREFIX}7.json"
    app = PipelineApp(mode="replay", file=path, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        assert isinstance(screen, TableScreen) and isinstance(screen.policy, Replay)
        assert screen.policy.position == 0
        await pilot.press("right", "right")
        await pilot.pause()
        assert screen.policy.position == 2
        seat = screen.current_state().players
        assert sum(sum(p.tanks) for p in seat) == 2
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and not isinstance(app.screen.policy, Replay)
        assert len(app.screen.game.moves) == 2


async def test_a_replay_is_drawn_once_when_it_opens_and_titled_as_a_replay(tmp_path, monkeypatch):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        assert app.screen.play(parse_move("start-tank L"))
    drawn: list[TableScreen] = []
    real = TableScreen.refresh_table
    monkeypatch.setattr(TableScreen, "refresh_table", lambda self: (drawn.append(self), real(self)))
    path = tmp_path / f"{storage.AUTOSAVE_PREFIX}7.json"
    app = PipelineApp(mode="replay", file=path, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen) and isinstance(screen.policy, Replay) and drawn == [screen]
        assert screen.query_one("#moves").border_title == "Replay: moves"
        assert not screen.query_one("#prompt").display


async def test_help_opens_and_closes(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)


async def test_the_new_game_screen_offers_bots_by_difficulty(tmp_path):
    from textual.widgets import Select

    from pipeline_tui import ai

    app = PipelineApp(mode="new", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        legend = str(app.screen.query_one("#levels", Static).render())
        for level, line in zip(ai.LEVELS, ai.LEVEL_LINES):
            offered = ai.KINDS[ai.LEVELS.index(level)] in ai.OFFERED
            assert (f"bot: {level}" in legend and line in legend) == offered
        select = app.screen.query_one("#kind-1", Select)
        assert select.value == "heuristic"  # you against a "normal" computer player
        select.focus()
        await pilot.press("space")  # Enter would start the game: space opens the list
        await pilot.pause()
        assert select.expanded
        options = select.query_one("SelectOverlay", OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert labels == ["human", "bot: easy", "bot: normal", "bot: hard", "bot: expert"]
        await pilot.press("down", "enter")
        await pilot.pause()
        assert select.value == "search"
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert [p.kind for p in app.screen.game.setup.players] == ["human", "search"]


async def setup_until_the_computer_has_played(pilot) -> None:
    """Ann (seat 0) places her starting Tanks through the move list until the computer at seat
    1 has played and it is her turn again, the computer done thinking."""
    screen = pilot.app.screen
    game = screen.game
    for _ in range(80):
        if 1 in game.movers() and game.current_player == 0 and not screen.thinking:
            return
        if game.current_player == 0:
            await choose(pilot, "start-tank C")
        await pilot.pause(0.05)
    raise AssertionError("the computer did not play")


def fake_bots(monkeypatch, kind: str, choose) -> list:
    """Put a stand-in ``pipeline_tui.ai`` in place whose one bot ``kind`` plays ``choose(game)``;
    returns the bots the table makes, in order."""
    import sys
    import types

    made: list = []

    class FakeBot:
        def __init__(self, kind, seed=0):
            self.kind = kind
            made.append(self)

        def choose(self, game):
            return choose(game)

    fake = types.ModuleType("pipeline_tui.ai")
    fake.KINDS = (kind,)
    fake.make_bot = FakeBot
    monkeypatch.setitem(sys.modules, "pipeline_tui.ai", fake)
    monkeypatch.setattr("pipeline_tui.ui.table_screen.BOT_DELAY", 0.01)
    return made


async def test_computer_seats_play_through_the_bot_module(tmp_path, monkeypatch):
    from pipeline_tui.engine.setup import GameSetup, PlayerSetup

    made = fake_bots(monkeypatch, "first", lambda game: game.legal_moves()[0])
    app = PipelineApp(mode="new", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        assert not app.screen.query_one("#kind-1").disabled
        setup = GameSetup(seed=3, players=(PlayerSetup("Ann"), PlayerSetup("Bot", "first")))
        app.start_game(setup)
        await pilot.pause()
        game = app.screen.game
        for _ in range(40):
            if game.setup.players[game.current_player].kind == "human" and len(game.moves) >= 5:
                break
            if game.setup.players[game.current_player].kind == "human":
                await choose(pilot, "start-tank C")
            await pilot.pause(0.05)
        assert len(game.moves) >= 5
        bot_seat = 1
        assert bot_seat in app.screen.game.movers()
        assert len(made) == 1 and app.screen.bots == {bot_seat: made[0]}  # one bot for the seat
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert game.setup.players[game.current_player].kind == "human"


async def test_clicking_the_network_moves_the_ghost_then_places_it(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        game = screen.game
        seat = await take_a_pipe_tile(pilot)
        panel = screen.query_one(NetworkPanel)
        col, row = panel.grid.origin(1, 0)
        await pilot.click("#net-grid", offset=(col + 2, row + 1))
        await pilot.pause()
        assert (screen.ghost.x, screen.ghost.y) == (1, 0) and not screen.ghost.legal
        col, row = panel.grid.origin(0, 0)
        await pilot.click("#net-grid", offset=(col + 2, row + 1))
        await pilot.pause()
        assert (screen.ghost.x, screen.ghost.y) == (0, 0) and screen.ghost.legal
        await pilot.click("#net-grid", offset=(col + 2, row + 1))
        await pilot.pause()
        assert len(game.state.players[seat].tiles) == 1


async def test_a_loaded_named_save_is_not_overwritten(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await choose(pilot, "start-tank L")
    named = tmp_path / "kept.json"
    named.write_bytes((tmp_path / f"{storage.AUTOSAVE_PREFIX}7.json").read_bytes())
    before = named.read_bytes()
    app = PipelineApp(mode="load", file=named, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await choose(pilot, "start-tank M")
    assert named.read_bytes() == before
    assert len(storage.load_game(tmp_path / f"{storage.AUTOSAVE_PREFIX}7.json").moves) == 2


async def test_a_whole_game_ends_on_the_score_sheet(tmp_path):
    from pipeline_tui.engine import moves as M

    quick = (M.Pass, M.EndAction, M.EndTurn, M.Decline)
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        game = screen.game
        while not game.is_over():
            legal = game.legal_moves()
            move = next((m for kind in quick for m in legal if isinstance(m, kind)), legal[0])
            assert screen.play(move)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        title = str(app.screen.query_one("#end-title", Static).render())
        assert title.startswith("Final scores. Winner:")
        saved = storage.load_game(tmp_path / f"{storage.AUTOSAVE_PREFIX}7.json")
        assert saved.is_over() and len(saved.moves) == len(game.moves)


async def test_a_failing_bot_hands_its_seat_to_the_table(tmp_path, monkeypatch):
    from pipeline_tui.engine.setup import GameSetup, PlayerSetup

    def broken(game):
        raise RuntimeError("no idea")

    fake_bots(monkeypatch, "broken", broken)
    app = PipelineApp(mode="title", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        bots = (PlayerSetup("Bot", "broken"), PlayerSetup("Bot2", "broken"))
        setup = GameSetup(seed=3, players=bots)
        app.start_game(setup)
        for _ in range(20):
            await pilot.pause(0.05)
            if app.screen.bot_broken:
                break
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, TableScreen)
        assert "computer player failed" in hint(app)
        assert app.screen.shown_moves


async def test_without_colour_the_ghost_and_barrels_still_read(tmp_path, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await take_a_pipe_tile(pilot)
        await pilot.press("right")
        await pilot.pause()
        assert "░" in app.export_screenshot()
        assert "Not here" in hint(app)


async def test_the_panel_of_the_action_comes_into_view(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await place_starting_tanks(pilot)
        await pilot.press("f3")
        await pilot.pause()
        await choose(pilot, "act refined3")
        screen = app.screen
        assert screen.query_one("#table-view").has_class("-active")
        assert "(visiting)" in screen.query_one("#market-3").border_title
        assert isinstance(app.focused, MoveList)


async def test_new_game_screen_takes_the_seed_given_on_the_command_line(tmp_path):
    app = PipelineApp(mode="new", seed=99, first_game=True, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        assert app.screen.query_one("#seed", Input).value == "99"
        app.screen.query_one("#players", Select).value = 3
        await pilot.press("enter")
        await pilot.pause()
        setup = app.screen.game.setup
        assert (setup.seed, setup.first_game, len(setup.players)) == (99, True, 3)


async def test_escape_returns_to_the_move_list(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("colon")
        assert isinstance(app.focused, Input)
        await pilot.press("escape")
        assert isinstance(app.focused, MoveList)
        await pilot.press("f4", "escape")
        assert isinstance(app.focused, MoveList)


async def test_quitting_a_replay_writes_nothing(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=NARROW):
        for text in ("start-tank L", "start-tank M"):
            assert app.screen.play(parse_move(text))
    path = tmp_path / f"{storage.AUTOSAVE_PREFIX}7.json"
    before = path.read_bytes()
    app = PipelineApp(mode="replay", file=path, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("right", "ctrl+z", "ctrl+q")
        await pilot.pause()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


async def test_seat_colours_are_chosen_shown_and_kept_in_saves(tmp_path):
    app = PipelineApp(mode="new", seed=5, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        screen.query_one("#colour-0").value = "green"
        screen.query_one("#colour-1").value = "green"
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert "own colour" in str(screen.query_one("#new-error", Static).render())
        screen.query_one("#colour-1").value = "yellow"
        screen.query_one("#name-1").focus()
        await pilot.press("enter")
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen) and table.colours == ["green", "yellow"]
        svg = app.export_screenshot()
        assert "#5fd75f" in svg and "#ffd75f" in svg
        assert "#ff5f5f" not in svg  # the default colour of seat 1 is not used
        await choose(pilot, "start-tank L")
    path = tmp_path / f"{storage.AUTOSAVE_PREFIX}5.json"
    assert storage.read_save(path).meta["colours"] == ["green", "yellow"]
    for mode in ("load", "replay"):
        app = PipelineApp(mode=mode, file=path, saves_dir=tmp_path)
        async with app.run_test(size=NARROW):
            assert app.screen.colours == ["green", "yellow"]


def test_seat_colours_fall_back_to_the_defaults():
    from pipeline_tui.ui.style import seat_colours

    assert seat_colours(["green", "yellow"], 2) == ["green", "yellow"]
    for stored in (None, ["green"], ["green", "green"], ["green", "plaid"], "green", [1, 2]):
        assert seat_colours(stored, 2) == ["red", "blue"]
    assert seat_colours(None, 4) == ["red", "blue", "green", "magenta"]


async def test_the_network_lists_each_pipeline_and_lights_the_one_highlighted(tmp_path):
    from tests.helpers import EXAMPLE_COSTS, build, new_game, setup_player, straight_row

    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    setup_player(game, tiles=build(*straight_row("O", 3)), machines=[(0, 0)], upgrades={"ENG": 1})
    async with table_for(game, tmp_path, NARROW) as (app, pilot):
        panel = app.screen.query_one(NetworkPanel)
        pipelines = app.screen.query_one("#pipelines", OptionList)
        assert not pipelines.display
        await pilot.press("f4", "v")
        await pilot.pause()
        assert pipelines.display and app.focused is pipelines
        rows = [str(pipelines.get_option_at_index(i).prompt) for i in range(pipelines.option_count)]
        # 5 orange segments (the Machine covers the sixth) + Engineering I = 6: Crude to Low
        assert rows[0] == "O  5 seg  value  6  to Low   Machine"
        assert len(rows) == 6 and all(r.endswith("to -") for r in rows[1:])
        assert panel.lit == {(x, 0) for x in range(1, 6)}
        assert "∙" in str(app.screen.query_one("#net-grid", NetworkGrid).render())
        await pilot.press("down")
        await pilot.pause()
        assert len(panel.lit) == 1
        await pilot.press("v")
        await pilot.pause()
        assert not pipelines.display and panel.lit == frozenset()
        assert "∙" not in str(app.screen.query_one("#net-grid", NetworkGrid).render())


async def test_replay_jumps_by_year_and_round(tmp_path):
    from pipeline_tui.engine.game import Game
    from pipeline_tui.engine.setup import GameSetup
    from tests.helpers import pass_round, pass_to_year

    game = Game(GameSetup.default(2, 7))
    for _ in range(10):
        game.play("start-tank C")
    pass_to_year(game, 2)
    pass_round(game)
    game.play("pass")
    path = tmp_path / "two-years.json"
    storage.save_game(game, path)
    app = PipelineApp(mode="replay", file=path, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen

        def at() -> tuple[int, int]:
            state = screen.current_state()
            return state.year, state.round

        await pilot.press("y")
        year_two = screen.policy.position
        assert at() == (2, 1) and screen.game.state_at(year_two - 1).year == 1
        assert "Year 2 Round 1" in hint(app)
        await pilot.press("r")
        assert at() == (2, 2) and screen.game.state_at(screen.policy.position - 1).round == 1
        await pilot.press("y")
        assert at() == (2, 2)  # no Year 3 yet: the replay stays
        await pilot.press("R")
        assert screen.policy.position == year_two
        await pilot.press("R")
        assert at() == (1, 8)
        await pilot.press("Y")
        assert screen.policy.position == 0
        await pilot.press("end")
        assert screen.policy.position == len(game.moves)
        await pilot.press("home")
        assert screen.policy.position == 0


@contextlib.asynccontextmanager
async def narrow_table_after_the_computer_setup(tmp_path, monkeypatch):
    """Ann against a computer at 80x24, its five starting Tanks placed after hers (a long turn
    summary in the hint panel), a hint asked of the same fake bot: the pilot."""
    import sys

    from pipeline_tui.engine.setup import GameSetup, PlayerSetup

    fake_bots(monkeypatch, "first", lambda game: game.legal_moves()[-(len(game.moves) % 2)])
    monkeypatch.setattr(sys.modules["pipeline_tui.ai"], "STRONGEST", "first", raising=False)
    app = PipelineApp(mode="new", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        app.start_game(GameSetup(seed=3, players=(PlayerSetup("Ann"), PlayerSetup("Bot", "first"))))
        await pilot.pause()
        await setup_until_the_computer_has_played(pilot)
        yield pilot


async def ask_for_a_hint(pilot, reason: str) -> None:
    """h, with the advisor answering the first legal move and ``reason``; back once it is shown."""
    import types

    app = pilot.app
    move = app.screen.game.legal_moves()[0]
    app.screen.advisor = types.SimpleNamespace(
        advise=lambda table: types.SimpleNamespace(move=move, reason=reason)
    )
    await pilot.press("h")
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_a_hint_asked_after_a_long_computer_turn_shows_at_80x24(tmp_path, monkeypatch):
    """The hint panel has a height it cuts at: the hint comes before the computer's last turn
    (here its five starting Tanks, several rows at 80 columns), not below it."""
    async with narrow_table_after_the_computer_setup(tmp_path, monkeypatch) as pilot:
        app = pilot.app
        assert "Bot: placed 1 starting" in hint(app) and len(hint(app)) > 150
        await ask_for_a_hint(pilot, "the reason given")
        shown = app.export_screenshot().replace("&#160;", " ")
        assert "Hint:" in shown and "the reason given" in shown


async def test_a_hint_taller_than_its_panel_ends_its_last_line_shown_with_an_ellipsis(tmp_path, monkeypatch):
    """At 80x24 a long hint is cut at the panel's height: its last row says there is more."""
    from pipeline_tui.ui.widgets import TextPanel

    async with narrow_table_after_the_computer_setup(tmp_path, monkeypatch) as pilot:
        panel = pilot.app.screen.query_one("#hint", TextPanel)

        def rows() -> list[str]:
            lines = [panel.render_line(y) for y in range(panel.content_region.height)]
            return ["".join(segment.text for segment in line).rstrip() for line in lines]

        assert not any(row.endswith("…") for row in rows())
        await ask_for_a_hint(pilot, " ".join(f"step{n}" for n in range(80)))
        shown = rows()
        assert shown[0].startswith("Hint:") and "step0" in shown[1]
        assert shown[-1].endswith("…") and "step79" not in "".join(shown)
        assert all(not row.endswith("…") for row in shown[:-1])


async def test_a_computer_turn_is_summarised_in_the_log_and_the_hint(tmp_path, monkeypatch):
    """Issue 16 point 6: after the computer's turn, one line says what it did."""
    from pipeline_tui.engine.setup import GameSetup, PlayerSetup
    from pipeline_tui.summary import turn_summary

    fake_bots(monkeypatch, "first", lambda game: game.legal_moves()[0])
    app = PipelineApp(mode="new", saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        app.start_game(GameSetup(seed=3, players=(PlayerSetup("Ann"), PlayerSetup("Bot", "first"))))
        await pilot.pause()
        game = app.screen.game
        await setup_until_the_computer_has_played(pilot)
        bot = [n for n, seat in enumerate(game.movers()) if seat == 1]
        line = turn_summary(game, bot[0], bot[-1] + 1)
        assert line.startswith("Bot: placed ")
        log = [text.plain for text in app.screen.query_one(MoveLog).lines]
        after = log[bot[-1] + 1 :]  # right after the computer's last move, wrapped
        assert after[0].startswith("     = Bot: placed ")
        assert " ".join(row.strip() for row in after if row.startswith("     ")) == f"= {line}"
        assert max(len(row) for row in log) <= 60  # the log does not scroll sideways
        assert sum(text.startswith("     = Ann") for text in log) == 0  # a person's turn is not
        assert line in hint(app)
