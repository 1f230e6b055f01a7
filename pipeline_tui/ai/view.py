"""What a bot may know: the public table, with every hidden order guessed afresh.

A seat at the table sees everything but the face-down Pipe stack's order and the Contract stacks
below their top tiles. :func:`determinize` returns a clone whose hidden parts are resampled from
the tiles the seat cannot see, so a bot that decides only from such clones cannot peek at the
real deck order or the seed. :func:`fingerprint` names a position by its public parts only.
"""

from __future__ import annotations

import random
import zlib

import msgspec

from ..data import components as C
from ..data import editions as E
from ..engine import Game, State, clone_state

_ENCODER = msgspec.msgpack.Encoder()


def _state(source: State | Game) -> State:
    return source.state if isinstance(source, Game) else source


def visible_pipe_tiles(state: State) -> set[int]:
    """Pipe tile ids in sight: Government, both shops, the discard, a tile in hand, networks."""
    seen = {t for quadrant in state.government for t in quadrant if t >= 0}
    seen.update(t for shop in state.shop_pipes for t in shop if t >= 0)
    seen.update(state.pipe_discard)
    if state.turn.hand_tile >= 0:
        seen.add(state.turn.hand_tile)
    for player in state.players:
        seen.update(tile for tile, _, _, _ in player.tiles)
    return seen


def visible_contracts(state: State) -> set[int]:
    """Contract ids in sight: the display, every player's Contracts, each stack's top tile."""
    seen = {t for row in state.contract_rows for t in row if t >= 0}
    for player in state.players:
        seen.update(
            h.tile for h in player.contracts if C.contract_tile(h.tile).kind == C.ContractKind.CONTRACT
        )
    seen.update(stack[-1] for stack in state.contract_stacks if stack)
    return seen


def determinize(source: State | Game, seat: int, rng: random.Random) -> State:
    """A clone of the position as ``seat`` sees it, hidden orders drawn from ``rng``.

    The Pipe stack becomes a random ordering of the tiles not in sight (sorted first, so the
    real order never leaks into the draw); each Contract stack keeps its top tile and its size,
    the rest drawn from unseen Contracts of its grade.
    """
    state = clone_state(_state(source))
    unseen = sorted(set(range(C.PIPE_TILES)) - visible_pipe_tiles(state))
    rng.shuffle(unseen)
    state.pipe_deck = unseen[: len(state.pipe_deck)]
    seen = visible_contracts(state)
    contracts = E.edition(state.edition).contracts
    for grade, stack in zip(C.CONTRACT_ROWS, state.contract_stacks):
        if len(stack) < 2:
            continue
        pool = sorted(t.id for t in contracts if t.row == grade and t.id not in seen)
        below = rng.sample(pool, min(len(stack) - 1, len(pool)))
        stack[:] = below + [stack[-1]]
    return state


def fingerprint(source: State | Game) -> int:
    """A number naming the public position (hidden stacks left out): equal positions as a seat
    sees them give equal fingerprints."""
    state = _state(source)
    public = msgspec.structs.replace(
        state,
        pipe_deck=[len(state.pipe_deck)],
        contract_stacks=[[len(s), s[-1] if s else -1] for s in state.contract_stacks],
    )
    return zlib.crc32(_ENCODER.encode(public))


def seat_rng(source: State | Game, seat: int, seed: int = 0) -> random.Random:
    """A random source for a seat's decision, derived from the public position, the seat and a
    caller's seed (never the game seed), so a decision is reproducible and peeks at nothing."""
    return random.Random(fingerprint(source) * 1_000_003 + seat * 7919 + seed)
