"""What a player's Pipelines are worth, and what placing the Pipe tile in hand would make of them.

The network view asks these questions; the answers are the rules' own (rulebook "Running Your
Personal Pipe Network": a Pipeline's Refinement Value is its Segment count plus Engineering, and
one run takes a barrel up the grades whose Refinement Costs that value covers; "Machine Phase": a
Pipeline ending at a Machine's edge is attached to it; "Adding Pipe tiles to your Personal Pipe
Network": where a tile may go). Nothing here changes the state.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import moves as M
from .network import Cell, NetworkMap, Pipeline, SegmentKey, build_map
from .rules import highest_grade_from_crude, why_illegal
from .rules import network as traced
from .state import PlayerState, State


@dataclass(frozen=True, slots=True)
class PipelineInfo:
    """One Pipeline as a player reads it: colour, Segments, Refinement Value (with
    Engineering), the best grade one run takes a Crude barrel to (0: none), the Machines it is
    attached to, and its Segments as ``(x, y, path)`` keys (to draw it whole)."""

    key: SegmentKey
    colour: int
    segments: int
    value: int
    best_grade: int
    machines: tuple[Cell, ...]
    segment_keys: frozenset[SegmentKey]


@dataclass(frozen=True, slots=True)
class PipelineChange:
    """A Pipeline through a newly placed tile: what it becomes, the Segment counts of the
    Pipelines it joins (largest first) and the Machines it reaches that none of them did."""

    after: PipelineInfo
    joined: tuple[int, ...]
    new_machines: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class PlacementPreview:
    """Placing the Pipe tile in hand at ``(x, y, rot)``: why not (``None`` when legal), and each
    Pipeline through the tile afterwards, the longest first."""

    x: int
    y: int
    rot: int
    reason: str | None
    changes: tuple[PipelineChange, ...]


def _segments_of(net: NetworkMap) -> dict[SegmentKey, list[SegmentKey]]:
    by_key: dict[SegmentKey, list[SegmentKey]] = {}
    for seg, pipeline in net.segment_pipeline.items():
        by_key.setdefault(pipeline.key, []).append(seg)
    return by_key


def _info(state: State, player: PlayerState, pipeline: Pipeline, segs: list[SegmentKey]) -> PipelineInfo:
    value = pipeline.value(player.level("ENG"))
    return PipelineInfo(
        key=pipeline.key,
        colour=pipeline.colour,
        segments=pipeline.segments,
        value=value,
        best_grade=highest_grade_from_crude(state, pipeline.colour, value),
        machines=tuple(sorted(pipeline.machines)),
        segment_keys=frozenset(segs),
    )


def pipeline_infos(state: State, seat: int) -> list[PipelineInfo]:
    """Every Pipeline of seat ``seat``'s network, longest first (then by colour and place).

    >>> from pipeline_tui.engine import Game, GameSetup
    >>> pipeline_infos(Game(GameSetup.default(players=2, seed=1)).state, 0)
    []
    """
    player = state.players[seat]
    net = traced(player)
    segments = _segments_of(net)
    infos = [_info(state, player, p, segments[p.key]) for p in net.pipelines]
    infos.sort(key=lambda i: (-i.segments, i.colour, i.key))
    return infos


def placement_preview(state: State, x: int, y: int, rot: int) -> PlacementPreview:
    """What placing the current player's Pipe tile in hand at ``(x, y, rot)`` would do: the
    rules' refusal if any, and each Pipeline through the tile afterwards with what it joined
    and the Machines it newly reaches. Works on a copy of the network; the state is untouched.
    A placement the rules refuse makes nothing: its refusal, and no changes."""
    reason = why_illegal(state, M.PlaceTile(x=x, y=y, rot=rot))
    tile = state.turn.hand_tile
    if tile < 0 or reason is not None:
        return PlacementPreview(x, y, rot, reason, ())
    player = state.players[state.turn.player]
    before = traced(player)
    after = build_map([*player.tiles, (tile, x, y, rot)], player.machines)
    segments = _segments_of(after)
    changes = []
    for pipeline in after.through_tile(len(player.tiles)):
        segs = segments[pipeline.key]
        was = before.segment_pipeline
        old = {was[s].key: was[s] for s in segs if s in was}
        reached = set().union(*(p.machines for p in old.values()))
        changes.append(
            PipelineChange(
                after=_info(state, player, pipeline, segs),
                joined=tuple(sorted((p.segments for p in old.values()), reverse=True)),
                new_machines=tuple(sorted(pipeline.machines - reached)),
            )
        )
    changes.sort(key=lambda c: (-c.after.segments, c.after.colour, c.after.key))
    return PlacementPreview(x, y, rot, reason, tuple(changes))
