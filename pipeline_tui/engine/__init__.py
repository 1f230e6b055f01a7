"""The rules engine: headless, pure Python, no Textual or Rich (a test enforces it).

This package is the engine's API for the ai and the ui: they import from here (and the move
classes from ``moves``), never from its other modules (an import-linter contract checks it).
"""

from . import moves
from .clock import (
    ClockError,
    ClockKind,
    ClockSetting,
    ClockState,
    FlagRule,
    GameTime,
    clock_state,
    format_clock,
    format_duration,
    parse_clock,
)
from .errors import IllegalMove, NotationError
from .game import Game, LogEntry, Turn, public_view, replay
from .history import RoundPoint, round_history
from .preview import Preview, best_sale, preview
from .moves import Move, format_move, parse_move
from .pipelines import PipelineChange, PipelineInfo, PlacementPreview, pipeline_infos, placement_preview
from .network import (
    DIRS,
    ROT_DIRS,
    NetworkMap,
    Pipeline,
    SegmentKey,
    build_map,
    legal_placements,
    rotated_halves,
    tile_cells,
)
from .rules import (
    action_title,
    apply_trusted,
    edition,
    government_adjacency,
    highest_grade_from_crude,
    legal_moves,
    machines_would_refine,
    market_price,
    market_row_index,
    market_rows,
    pipe_tile_taken,
    place_on_track,
    price,
    refine_cost,
    why_idle,
    why_illegal,
)
from .rules import network as network_map  # a player's traced network (``engine.network``: its module)
from .scoring import Score, ScoreLine, card_value, score_player
from .setup import GameSetup, PlayerSetup, SeatKind, SetupError, initial_state
from .state import GrantKind, PlayerState, Stage, State, TurnState, clone_state

__all__ = [
    "ClockError",
    "ClockKind",
    "ClockSetting",
    "ClockState",
    "FlagRule",
    "GameTime",
    "clock_state",
    "format_clock",
    "format_duration",
    "parse_clock",
    "DIRS",
    "Game",
    "GameSetup",
    "GrantKind",
    "IllegalMove",
    "LogEntry",
    "Move",
    "NetworkMap",
    "NotationError",
    "Pipeline",
    "PipelineChange",
    "PipelineInfo",
    "PlacementPreview",
    "PlayerSetup",
    "PlayerState",
    "Preview",
    "ROT_DIRS",
    "RoundPoint",
    "Score",
    "ScoreLine",
    "SeatKind",
    "SegmentKey",
    "SetupError",
    "Stage",
    "State",
    "Turn",
    "TurnState",
    "action_title",
    "apply_trusted",
    "best_sale",
    "build_map",
    "card_value",
    "clone_state",
    "edition",
    "format_move",
    "government_adjacency",
    "highest_grade_from_crude",
    "initial_state",
    "legal_moves",
    "legal_placements",
    "machines_would_refine",
    "why_idle",
    "why_illegal",
    "market_price",
    "market_row_index",
    "market_rows",
    "moves",
    "network_map",
    "parse_move",
    "pipeline_infos",
    "placement_preview",
    "pipe_tile_taken",
    "place_on_track",
    "preview",
    "price",
    "public_view",
    "refine_cost",
    "replay",
    "round_history",
    "rotated_halves",
    "score_player",
    "tile_cells",
]
