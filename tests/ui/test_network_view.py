"""The network view (``n`` at the table): both zooms, panning and centring, the picked
Pipeline and its line, and the previews of placing the Pipe tile in hand."""

from __future__ import annotations

from pipeline_tui import i18n
from pipeline_tui.engine import pipeline_infos
from pipeline_tui.engine.moves import parse_move
from pipeline_tui.ui.app import PipelineApp
from pipeline_tui.ui.network_view import NetworkViewScreen
from pipeline_tui.ui.table_screen import TableScreen

from tests.helpers import build
from tests.ui.pilot import choose

NARROW, WIDE = (80, 24), (160, 48)
SHAPES = ["EW:* NS:*", "NE:* SW:*", "NW:* ES:*"]


def network_specs(rows: int = 5, per_row: int = 5):
    """Tiles lying east-west in ``rows`` rows of ``per_row``, their halves' shapes varied."""
    return [
        ((2 * i, row), SHAPES[(row + i) % 3], (2 * i + 1, row), SHAPES[(row + 2 * i + 1) % 3])
        for row in range(rows)
        for i in range(per_row)
    ]


async def table_with_network(pilot, rows: int = 5, per_row: int = 5, machine=(4, 2)):
    """The table after setup, the player to act given a network (25 tiles by default)."""
    screen = pilot.app.screen
    for _ in range(10):
        assert screen.play(parse_move("start-tank C"))
    player = screen.game.state.players[screen.game.current_player]
    player.tiles = build(*network_specs(rows, per_row))
    player.machines = [machine]
    screen.refresh_table()
    await pilot.pause()
    return screen, player


def text_of(app, widget_id: str) -> str:
    return str(app.screen.query_one(widget_id).render())


def map_lines(app) -> list[str]:
    return text_of(app, "#nv-map").splitlines()


async def open_view(pilot) -> NetworkViewScreen:
    await pilot.press("n")
    await pilot.pause()
    view = pilot.app.screen
    assert isinstance(view, NetworkViewScreen)
    return view


async def test_n_opens_the_view_on_the_last_tile_and_escape_closes_it(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        _, player = await table_with_network(pilot)
        view = await open_view(pilot)
        last = player.tiles[-1]
        assert view.cursor == (last[1], last[2])
        assert view.zoom == "detail"
        assert f"cursor {last[1]},{last[2]}" in text_of(app, "#nv-title")
        assert f"{len(pipeline_infos(app.screen.table.game.state, view.seat))} Pipelines" in text_of(
            app, "#nv-info"
        )
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)


async def test_the_overview_shows_a_25_tile_network_whole_at_80x24(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await table_with_network(pilot)
        await open_view(pilot)
        detail = map_lines(app)
        assert len(detail) > 20 or max(len(line) for line in detail) > 80  # too big to see whole
        await pilot.press("z")
        await pilot.pause()
        lines = map_lines(app)
        assert app.screen.zoom == "overview"
        # 10 x 5 cells and a blank cell round them, two characters a cell
        assert len(lines) == 7 and all(len(line) == 24 for line in lines)
        scroll = app.screen.query_one("MapScroll")
        assert scroll.max_scroll_x == 0 and scroll.max_scroll_y == 0  # nothing hidden
        body = "".join(lines[1:6])
        assert body.count("MM") == 1  # the Machine
        assert any(ch in body for ch in "┼└┘┌┐")  # pipes in box drawing
        await pilot.press("l")
        await pilot.pause()
        letters = "".join(map_lines(app)[1:6])
        assert set(letters.replace("M", "").replace("▪", "").strip()) <= set("OTS ")


async def test_arrows_pan_and_c_centres_on_the_last_tile(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        _, player = await table_with_network(pilot)
        view = await open_view(pilot)
        scroll = view.query_one("MapScroll")
        start = scroll.scroll_offset
        await pilot.press(*["left"] * 9, *["up"] * 4)
        await pilot.pause()
        assert view.cursor == (0, 0)
        assert scroll.scroll_offset != start  # the view followed the cursor
        await pilot.press(*["left"] * 5)
        await pilot.pause()
        assert view.cursor == (-1, 0)  # kept on the drawing: one cell round the network
        await pilot.press("c")
        await pilot.pause()
        last = player.tiles[-1]
        assert view.cursor == (last[1], last[2])
        assert "cursor 9,4" in text_of(app, "#nv-title")


async def test_tab_picks_a_pipeline_whole_with_its_value_grade_and_machine(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen, _ = await table_with_network(pilot)
        view = await open_view(pilot)
        await pilot.press("tab")
        await pilot.pause()
        infos = pipeline_infos(screen.game.state, view.seat)
        top = infos[0]
        info = text_of(app, "#nv-info")
        assert info.startswith(f"Pipeline 1 of {len(infos)}:")
        assert f"{top.segments} Segments" in info and f"value {top.value}" in info
        colour = ("Orange", "Teal", "Silver")[top.colour]
        assert colour in info
        grade = ("Crude", "Low", "Mid", "High")[top.best_grade]
        assert (f"Crude to {grade}" if top.best_grade else "too short for Crude") in info
        assert ("Machine at" in info) == bool(top.machines)
        # the picked Pipeline is drawn in reverse: exactly its Segments' characters
        drawn = view.drawing
        reversed_chars = sum(
            len(drawn.plain[s.start : s.end]) for s in drawn.spans if "reverse" in str(s.style)
        )
        assert reversed_chars > top.segments
        await pilot.press("shift+tab")
        await pilot.pause()
        assert text_of(app, "#nv-info").startswith(f"Pipeline {len(infos)} of {len(infos)}:")
        await pilot.press("z")
        await pilot.pause()
        picked = infos[-1]
        overview = view.drawing
        lit = [overview.plain[s.start : s.end] for s in overview.spans if "reverse" in str(s.style)]
        assert len("".join(lit).replace("M", "")) == picked.segments  # a character a Segment


async def test_enter_picks_the_pipeline_at_the_cursor_and_its_machine(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen, _ = await table_with_network(pilot)
        view = await open_view(pilot)
        view.cursor = (5, 2)  # next to the Machine on (4, 2)
        await pilot.press("enter")
        await pilot.pause()
        infos = pipeline_infos(screen.game.state, view.seat)
        picked = infos[view.picked]
        assert any(s[:2] == (5, 2) for s in picked.segment_keys)
        at_cursor = [i for i in infos if any(s[:2] == (5, 2) for s in i.segment_keys)]
        assert len(at_cursor) == 2
        await pilot.press("enter")
        await pilot.pause()
        assert infos[view.picked] is not picked and infos[view.picked] in at_cursor
        with_machine = [i for i in at_cursor if i.machines]
        assert with_machine
        view.picked = infos.index(with_machine[0])
        view.redraw()
        assert "Machine at 4,2" in text_of(app, "#nv-info")


async def test_placing_shows_the_legal_places_and_what_each_makes_of_the_pipelines(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen, player = await table_with_network(pilot, rows=2, per_row=2)
        await choose(pilot, "act tanks")
        await choose(pilot, "pipe 1")
        assert screen.ghost is not None
        view = await open_view(pilot)
        places = [m for m in screen.game.legal_moves() if m.__class__.__name__ == "PlaceTile"]
        info = text_of(app, "#nv-info")
        assert f"({len(places)} places in all)" in info or "not here" in info
        await pilot.press("tab")
        await pilot.pause()
        ghost = screen.ghost
        assert (ghost.x, ghost.y, ghost.rot) in view.places
        info = text_of(app, "#nv-info")
        assert "may go here" in info
        preview = view.preview
        assert preview is not None and preview.reason is None
        for change in preview.changes:
            segments = change.after.segments
            if len(change.joined) == 1:
                assert f"to {segments} Segment" in info
            elif not change.joined:
                assert f"a new {('Orange', 'Teal', 'Silver')[change.after.colour]} Pipeline" in info
        assert len(info.splitlines()) == 1 + len(preview.changes)
        await pilot.press(*["up"] * 6)
        await pilot.pause()
        assert "not here" in text_of(app, "#nv-info")
        assert view.preview is not None and view.preview.changes == ()
        await pilot.press("tab", "enter")
        await pilot.pause()
        assert len(player.tiles) == 5
        assert screen.ghost is None
        assert view.cursor == (player.tiles[-1][1], player.tiles[-1][2])


async def test_a_placement_reaching_the_machine_says_so(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        screen, player = await table_with_network(pilot, rows=1, per_row=1, machine=(1, 0))
        await choose(pilot, "act tanks")
        await choose(pilot, "pipe 1")
        view = await open_view(pilot)
        found = None
        for x, y, rot in view.places:
            preview = view._preview(x, y, rot)
            if any(c.new_machines for c in preview.changes):
                found = (x, y, rot)
                break
        assert found is not None
        screen.ghost.x, screen.ghost.y, screen.ghost.rot = found
        view.redraw()
        assert "reaches your Machine at 1,0" in text_of(app, "#nv-info")


async def test_the_view_speaks_russian(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    try:
        async with app.run_test(size=NARROW) as pilot:
            await table_with_network(pilot)
            i18n.set_language("ru")
            await open_view(pilot)
            await pilot.press("tab")
            await pilot.pause()
            assert "Сеть нефтепроводов" in text_of(app, "#nv-title")
            assert "Нефтепровод 1 из" in text_of(app, "#nv-info")
            assert "мощность" in text_of(app, "#nv-info")
    finally:
        i18n.set_language("en")


async def test_the_view_follows_a_move_played_while_it_is_open(tmp_path):
    app = PipelineApp(mode="new", players=2, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        screen, player = await table_with_network(pilot, rows=1, per_row=2)
        await choose(pilot, "act tanks")
        await choose(pilot, "pipe 1")
        view = await open_view(pilot)
        before = list(view.infos)
        x, y, rot = view.places[0]
        assert screen.play(parse_move(f"place {x},{y} r{rot}"))  # played from the table's side
        await pilot.pause(0.6)
        assert view.preview is None and view.ghost is None
        assert len(player.tiles) == 3
        assert view.infos == pipeline_infos(screen.game.state, view.seat) != before
