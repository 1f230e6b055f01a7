"""Scenario builders shared by the rules tests.

A scenario starts as a real game (setup dealt from a seed, starting Tanks placed through real
moves) and is then edited directly on ``game.state``: money, oil, Tanks, Pipe tiles, Machines,
Upgrades and Refinement Costs. Tests then play real moves against it, so the engine's checks and
effects are what is being tested, not the builders.

Pipe tiles are described in board orientation, one half at a time, as paths such as
``"EW:O NS:T"`` (an east-west orange path and a north-south teal path; ``*`` for any colour).
:func:`tile_for` finds the real tile (id and rotation) from ``pipe_tiles()`` that lays those paths.
"""

from __future__ import annotations

import msgspec

from pipeline_tui.data import components as C
from pipeline_tui.data.oil import parse_barrel
from pipeline_tui.engine import Game, GameSetup
from pipeline_tui.engine import moves as M
from pipeline_tui.engine import rules
from pipeline_tui.engine.network import Pipeline, rotated_halves, tile_cells
from pipeline_tui.engine.setup import RULES_VERSION
from pipeline_tui.engine.state import PlayerState

Cell = tuple[int, int]
Placed = tuple[int, int, int, int]

# Inner cross spaces N, W, S, E: each action tile next to one market arm end (docs/components.md).
# Upgrades sits by the Crude Market, Tanks & Pipes by Refined Market 1, Machines & Pipes by
# Refined Market 2 and Contracts & Loans by Refined Market 3.
CROSS = ["upgrades", "tanks", "machines", "contracts"]
# The Refinement Cost example of the rulebook, rows Orange, Teal, Silver; steps C>L, L>M, M>H.
EXAMPLE_COSTS = [[4, 4, 6], [4, 6, 5], [5, 7, 7]]
EDGES = "NESW"


def new_game(
    players: int = 2,
    seed: int = 1,
    *,
    tanks: tuple[int, ...] = (0, 0, 1, 2, 3),
    first_game: bool = False,
    cross: list[str] | None = None,
    edition: int = 1,
    rules_version: int = RULES_VERSION,
) -> Game:
    """A game after setup: every player placed their 5 starting Tanks in the rows ``tanks``
    (the rulebook's recommendation by default: 2 Crude, one each of Low, Mid and High) and the
    action tiles lie as :data:`CROSS`. The rules tests name market rows and prices of
    component edition 1 (fixed markets), so that is the default; ``edition=2`` for the printed.
    ``rules_version`` 1 plays the readings of old saves."""
    setup = GameSetup.default(players=players, seed=seed, first_game=first_game, edition=edition)
    game = Game(msgspec.structs.replace(setup, rules_version=rules_version))
    game.state.action_tiles = list(cross or CROSS)
    for _ in range(players):
        for grade in tanks:
            game.apply(M.PlaceStartingTank(grade=grade))
    assert game.state.turn.stage == "work"
    return game


def me(game: Game) -> PlayerState:
    """The player to act."""
    return game.state.players[game.state.turn.player]


def oil_table(barrels: dict[str, int]) -> list[list[int]]:
    """A Tank Farm content ``[grade][colour]`` from barrel codes, e.g. ``{"TL": 2, "OC": 1}``."""
    table = [[0, 0, 0] for _ in range(4)]
    for code, count in barrels.items():
        colour, grade = parse_barrel(code)
        table[grade][colour] += count
    return table


def setup_player(
    game: Game,
    player: PlayerState | None = None,
    *,
    money: int | None = None,
    oil: dict[str, int] | None = None,
    tanks: list[int] | None = None,
    tiles: list[Placed] | None = None,
    machines: list[Cell] | None = None,
    upgrades: dict[str, int] | None = None,
    penalties: int | None = None,
) -> PlayerState:
    """Edit a player (default: the one to act) in place and return it."""
    p = player if player is not None else me(game)
    if money is not None:
        p.money = money
    if tanks is not None:
        p.tanks = list(tanks)
    if oil is not None:
        p.oil = oil_table(oil)
    if tiles is not None:
        p.tiles = list(tiles)
    if machines is not None:
        p.machines = list(machines)
    if upgrades is not None:
        for family, level in upgrades.items():
            p.upgrades[C.UPGRADE_CODES.index(family)] = level
    if penalties is not None:
        p.penalties = penalties
    return p


def use_families(game: Game, families: list[str]) -> None:
    """Put exactly these Upgrade families in play (all tokens face up, all cards available)."""
    s = game.state
    s.upgrade_families = sorted(families, key=C.UPGRADE_CODES.index)
    s.upgrade_tokens = [True] * len(families)
    s.upgrade_cards = [list(C.UPGRADE_CARDS_PER_LEVEL) for _ in families]


def oil(player: PlayerState, code: str) -> int:
    """How many barrels of this code (like ``TL``) the player has in their Tank Farm."""
    colour, grade = parse_barrel(code)
    return player.oil[grade][colour]


def legal(game: Game) -> list[M.Move]:
    """Legal moves computed afresh from the (possibly edited) state; the fast listing must be
    the checked one here too, on the hand-built tables of the rules tests."""
    moves = rules.legal_moves(game.state)
    assert moves == rules.checked_legal_moves(game.state), "fast and checked listings differ"
    return moves


def legal_of(game: Game, kind: type) -> list[M.Move]:
    return [m for m in legal(game) if isinstance(m, kind)]


def play(game: Game, *texts: str) -> None:
    """Play moves given in text notation, each checked by the engine."""
    for text in texts:
        game.play(text)


# --- Turn flow ---------------------------------------------------------------------------------


def pass_turn(game: Game) -> None:
    """Finish the current player's turn doing nothing (declining any yearly grant first)."""
    while game.state.turn.grants:
        game.apply(M.Decline())
    t = game.state.turn
    if t.stage == "action":
        game.apply(M.EndAction())
    if game.state.turn.stage == "work" and game.state.turn.mains == 0:
        game.apply(M.Pass())
    game.apply(M.EndTurn())


def pass_round(game: Game) -> None:
    """Everyone passes until the Round marker moves."""
    start = (game.state.year, game.state.round)
    while (game.state.year, game.state.round) == start and not game.is_over():
        pass_turn(game)


def pass_to_year(game: Game, year: int) -> None:
    """Everyone passes until ``year`` begins (its Refresh Phase done)."""
    while game.state.year < year:
        pass_round(game)


def to_last_round(game: Game) -> None:
    """Skip to the first turn of the last Round of Year 3 by editing the Round marker."""
    game.state.year = 3
    game.state.round = C.ROUNDS_PER_YEAR[2]
    for p in game.state.players:
        p.benefits_year = 3


# --- Pipe tiles ------------------------------------------------------------------------------


def _parse_paths(text: str) -> list[tuple[frozenset[int], str]]:
    out = []
    for part in text.split():
        edges, colour = part.split(":")
        out.append((frozenset(EDGES.index(e) for e in edges), colour))
    assert len(out) == 2, f"a half has two paths, not {text!r}"
    return out


def _half_matches(paths, wanted) -> bool:
    have = {frozenset((a, b)): c for a, b, c in paths}
    for edges, colour in wanted:
        if edges not in have:
            return False
        if colour != "*" and "OTS".index(colour) != have[edges]:
            return False
    return True


def tile_for(
    cell_a: Cell, paths_a: str, cell_b: Cell, paths_b: str, used: set[int] | frozenset[int] = frozenset()
) -> Placed:
    """The placed tile (id, x, y, rot) whose halves lay ``paths_a`` on ``cell_a`` and ``paths_b``
    on ``cell_b`` (board orientation), skipping tile ids in ``used``."""
    want = {cell_a: _parse_paths(paths_a), cell_b: _parse_paths(paths_b)}
    for tile in C.pipe_tiles():
        if tile.id in used:
            continue
        for x, y in (cell_a, cell_b):
            for rot in range(4):
                ca, cb = tile_cells(x, y, rot)
                if {ca, cb} != {cell_a, cell_b} or ca != (x, y):
                    continue
                ha, hb = rotated_halves(tile.id, rot)
                if _half_matches(ha, want[ca]) and _half_matches(hb, want[cb]):
                    return (tile.id, x, y, rot)
    raise LookupError(f"no unused tile lays {paths_a} on {cell_a} and {paths_b} on {cell_b}")


def build(*specs: tuple[Cell, str, Cell, str]) -> list[Placed]:
    """Several tiles, each a distinct real tile, from (cell, paths, cell, paths) specs."""
    used: set[int] = set()
    out = []
    for spec in specs:
        placed = tile_for(*spec, used=used)
        used.add(placed[0])
        out.append(placed)
    return out


def straight_row(
    colour: str, tiles: int, x0: int = 0, y: int = 0, cross: str = "*"
) -> list[tuple[Cell, str, Cell, str]]:
    """Specs for a straight east-west Pipeline of ``colour`` over ``tiles`` horizontal tiles
    (2 segments each) starting at (x0, y); the crossing north-south paths are ``cross``."""
    return [
        ((x0 + 2 * i, y), f"EW:{colour} NS:{cross}", (x0 + 2 * i + 1, y), f"EW:{colour} NS:{cross}")
        for i in range(tiles)
    ]


def straight_column(
    colour: str, tiles: int, x: int = 0, y0: int = 0, cross: str = "*"
) -> list[tuple[Cell, str, Cell, str]]:
    """Specs for a straight north-south Pipeline over ``tiles`` vertical tiles going south from
    (x, y0)."""
    return [
        ((x, y0 + 2 * i), f"NS:{colour} EW:{cross}", (x, y0 + 2 * i + 1), f"NS:{colour} EW:{cross}")
        for i in range(tiles)
    ]


def pipeline_at(player: PlayerState, cell: Cell, edges: str) -> Pipeline:
    """The Pipeline whose segment in ``cell`` joins the two ``edges`` (like ``"NS"``)."""
    want = frozenset(EDGES.index(e) for e in edges)
    net = rules.network(player)
    paths = net.cells[cell][1]
    k = next(i for i, (a, b, _) in enumerate(paths) if frozenset((a, b)) == want)
    return net.segment_pipeline[(cell[0], cell[1], k)]


def refine(pipeline: Pipeline, from_grade: str, to_grade: str) -> M.Refine:
    """The move refining one barrel through ``pipeline``, grades as letters C, L, M, H."""
    x, y, k = pipeline.key
    return M.Refine(x=x, y=y, k=k, from_grade="CLMH".index(from_grade), to_grade="CLMH".index(to_grade))


def in_the_machine_phase(oil: dict[str, int], money: int) -> Game:
    """A game whose current player has two Machines on an Orange Pipeline of 3 tiles, 2 Tanks a
    row, ``oil`` and ``money``, and has passed into the Machine Phase (the example costs)."""
    game = new_game()
    game.state.refinement_costs = EXAMPLE_COSTS
    setup_player(
        game,
        tiles=build(*straight_row("O", 3)),
        machines=[(0, 0), (5, 0)],
        tanks=[2, 2, 2, 2],
        oil=oil,
        money=money,
    )
    play(game, "pass")
    return game
