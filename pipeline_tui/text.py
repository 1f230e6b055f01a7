"""Plain-text descriptions of the table and of the final scores (no Rich, no colour).

Used by the command line, logs and tests. Oil is always written as letters (colour O/T/S, grade
C/L/M/H, so ``TH`` is High-Grade Teal): colour is never the only carrier of meaning. Numbers
next to places are the ones the move notation uses, all counting from 1 (``CL.1``, ``gov 2.5``,
``deliver 1.2``), so a player can read a place here and type it. The output is deterministic.
"""

from __future__ import annotations

import textwrap

from .data import components as C
from .data.oil import COLOUR_LETTERS, COLOUR_NAMES, EDGE_LETTERS, GRADE_LETTERS, GRADE_NAMES, barrel_code
from .data.editions import EDITION_NAMES
from .data.reference import Reference
from .engine.rules import edition, market_rows, network
from .engine.scoring import Score
from .engine.setup import GameSetup
from .engine.state import PlayerState, Stage, State

ROMAN = ("-", "I", "II", "III")
ARMS = ("North", "West", "South", "East")  # order of State.action_tiles (INNER_CELLS)
ARM_MARKETS = C.MARKET_ACTIONS  # the arm end of each arm
STAGES = {
    Stage.SETUP: "Setup (placing starting Tanks)",
    Stage.WORK: "Work Phase",
    Stage.ACTION: "Action",
    Stage.MACHINE: "Machine Phase",
    Stage.OVER: "game over",
}
A = C.ActionName
RUNS = {
    A.NETWORK: "running the Pipe Network",
    A.MACHINE: "running one Machine",
    A.MACHINES_PHASE: "Machine Phase run",
    A.MACHINES_EARLY: "Machines III early run",
    A.GOVERNMENT: "Government",
}


def needs_text(tile_id: int) -> str:
    """A Contract's or Order's requirements as barrel codes, e.g. ``OL TL SL``."""
    return " ".join(barrel_code(c, g) for c, g in C.contract_tile(tile_id).needs)


def tile_text(tile_id: int) -> str:
    """A pipe tile by number and paths: ``#12 [EW:O NS:S | ...]`` (edges then colour, halves A|B)."""
    tile = C.pipe_tiles()[tile_id]

    def half(paths) -> str:
        return " ".join(f"{EDGE_LETTERS[a]}{EDGE_LETTERS[b]}:{COLOUR_LETTERS[c]}" for a, b, c in paths)

    return f"#{tile_id} [{half(tile.a.paths)} | {half(tile.b.paths)}]"


def _name(state: State, seat: int) -> str:
    return state.players[seat].name


def _worker_place(where: str) -> str:
    if where.startswith("gov "):
        return f"Government tile {where[4:]}"
    if where.startswith("run "):
        return f"own Pipe Network at {where[4:]}"
    if where.startswith("machine "):
        return f"own Machine at {where[8:]}"
    return C.ACTION_NAMES.get(where, where)


def _header(state: State, setup: GameSetup | None) -> list[str]:
    rounds = C.ROUNDS_PER_YEAR[state.year - 1]
    lines = [
        f"Year {state.year} of 3, Round {state.round} of {rounds}" + ("  (game over)" if state.over else "")
    ]
    if setup is not None:
        seats = ", ".join(f"{p.name} ({p.kind})" for p in setup.players)
        lines.append(f"Players: {seats}" + ("; first-game setup" if setup.first_game else ""))
    order = " > ".join(_name(state, s) for s in state.turn_order)
    if state.next_track:  # rules version 2: the row by space, "." where a space is free
        nxt = " ".join(_name(state, s) if s >= 0 else "." for s in state.next_track)
    else:
        nxt = " > ".join(_name(state, s) for s in state.next_order) or "(empty)"
    lines.append(f"Turn Order: {order}   next Round: {nxt}")
    if not state.over:
        lines.append(_turn_line(state))
    return lines


def _turn_line(state: State) -> str:
    t = state.turn
    who = _name(state, t.player)
    stage = STAGES.get(t.stage, t.stage)
    if t.stage == Stage.SETUP:
        stage += f", {t.setup_placed} of {C.START_TANKS} placed"
    elif t.stage == Stage.ACTION:
        stage = f"Action: {C.ACTION_NAMES.get(t.action) or RUNS.get(t.action, t.action)}"
    parts = [f"To act: {who}, {stage}"]
    if t.mains:
        parts.append(f"Main Actions taken {t.mains}" + (", Secondary taken" if t.secondary else ""))
    if t.hand_tile >= 0:
        parts.append(f"holding Pipe tile {tile_text(t.hand_tile)}")
    if t.hand_machine:
        parts.append("holding a Machine")
    if t.grants:
        parts.append("due: " + ", ".join(f"{g.count} {g.kind} ({g.source})" for g in t.grants))
    if t.icon and not t.order_chosen:
        parts.append("may choose a Turn Order place")
    return "; ".join(parts)


def _cross(state: State) -> list[str]:
    workers: dict[str, list[str]] = {}
    for p in state.players:
        if p.worker:
            workers.setdefault(p.worker, []).append(p.name)

    def space(action: str) -> str:
        here = workers.pop(action, [])
        return C.ACTION_NAMES[action] + (f" [{', '.join(here)}]" if here else "")

    lines = ["Action cross (arm end / inner space, [workers]):"]
    for arm, market, tile in zip(ARMS, ARM_MARKETS, state.action_tiles):
        lines.append(f"  {arm:<6} {space(market)} / {space(tile)}")
    for where, names in sorted(workers.items()):
        lines.append(f"  {', '.join(names)} on {_worker_place(where)}")
    return lines


def market_row_text(state: State, index: int) -> str:
    """One market row: code, then price and contents of each slot in play, e.g.
    ``2-TH  45[T] 45[ ] 50[ ] 50[ ]`` (slots count from 1, as in ``buy 2-TH#1``)."""
    row = market_rows(state)[index]
    prices = [row.prices[i] for i in row.slots[len(state.players)]]
    slots = " ".join(
        f"{price}[{COLOUR_LETTERS[c] if c >= 0 else ' '}]" for price, c in zip(prices, state.markets[index])
    )
    return f"{row.code:<5} {slots}"


def _markets(state: State) -> list[str]:
    lines = []
    for market in ("C", "1", "2", "3"):
        lines.append(f"{C.MARKET_NAMES[market]}:")
        for index, row in enumerate(market_rows(state)):
            if row.market == market:
                lines.append("  " + market_row_text(state, index))
    lines.append(
        "Oil in the supply: " + ", ".join(f"{COLOUR_LETTERS[c]} {n}" for c, n in enumerate(state.supply))
    )
    return lines


def _contract_rows(state: State) -> list[str]:
    lines = ["Contracts (take with 'contract CL.1'):"]
    for r, (row, stack) in enumerate(zip(state.contract_rows, state.contract_stacks)):
        grade = GRADE_LETTERS[r + 1]
        cells = [f"C{grade}.{s + 1} " + (needs_text(t) if t >= 0 else "(empty)") for s, t in enumerate(row)]
        lines.append(f"  {GRADE_NAMES[r + 1]:<10} " + "   ".join(cells) + f"   ({len(stack)} in stack)")
    lines.append("Orders (fulfil with 'fulfil O3.1 ...'):")
    for r, row in enumerate(state.order_rows):
        size = C.ORDER_ROWS[r]
        cells = [f"O{size}.{s + 1} " + (needs_text(t) if t >= 0 else "(empty)") for s, t in enumerate(row)]
        lines.append(f"  {size} barrels  " + "   ".join(cells))
    return lines


def _shops(state: State) -> list[str]:
    def stock(prices, counts) -> str:
        return ", ".join(f"${p} x{n}" for p, n in zip(prices, counts))

    lines = [
        f"Tank Shop: {stock(edition(state).tank_shop_prices, state.tank_shop)}   "
        f"(reserve {state.tank_reserve})",
        f"Machine Shop: {stock(edition(state).machine_shop_prices, state.machine_shop)}   "
        f"(reserve {state.machine_reserve})",
    ]
    for shop, tiles in zip(C.SHOPS, state.shop_pipes):
        label = "Tank Shop" if shop == "T" else "Machine Shop"
        shown = [f"{shop}{i + 1} " + (tile_text(t) if t >= 0 else "(empty)") for i, t in enumerate(tiles)]
        lines.append(f"Pipe tiles at the {label}:")
        lines.extend(f"  {s}" for s in shown)
    lines.append(f"Pipe stack: {len(state.pipe_deck)} face down, {len(state.pipe_discard)} discarded")
    return lines


def _government(state: State) -> list[str]:
    limit = C.GOVERNMENT_OPEN_LIMIT[state.year - 1]
    opened = sum(1 for y in state.government_opened if y)
    lines = [f"Government ({opened} of at most {limit} quadrants open in Year {state.year}):"]
    for q, spaces in enumerate(state.government):
        left = [s for s, t in enumerate(spaces) if t >= 0]
        since = state.government_opened[q]
        status = f"open since Year {since}" if since else "closed"
        where = " ".join(f"{q + 1}.{s + 1}" for s in left) or "-"
        lines.append(f"  Quadrant {q + 1}: {status}, {len(left)} tiles left: {where}")
    return lines


def _upgrades(state: State) -> list[str]:
    lines = ["Upgrades ($20 each; token up = may be bought this Year; cards left by level):"]
    for family, up, cards in zip(state.upgrade_families, state.upgrade_tokens, state.upgrade_cards):
        name = C.UPGRADE_FAMILIES[C.UPGRADE_CODES.index(family)].name
        left = " ".join(f"{ROMAN[i + 1]}:{n}" for i, n in enumerate(cards))
        lines.append(f"  {family:<4} {name:<18} token {'up  ' if up else 'down'}  {left}")
    return lines


def _valuation(state: State) -> list[str]:
    lines = ["Valuation:", f"  tile: {C.VALUATION_TILE}"]
    lines.extend(f"  card {c}: {C.VALUATION_BY_ID[c].name}" for c in state.valuation_cards)
    return lines


def _costs(state: State) -> list[str]:
    lines = ["Refinement costs   C>L L>M M>H"]
    for colour, row in enumerate(state.refinement_costs):
        lines.append(f"  {COLOUR_NAMES[colour]:<16}" + "".join(f"{c:>4}" for c in row))
    return lines


def tank_farm_text(player: PlayerState) -> list[str]:
    """The Tank Farm, High row first: each Tank as two places, e.g. ``[OO] [T ] [  ]``."""
    lines = []
    for grade in range(3, -1, -1):
        barrels = [COLOUR_LETTERS[c] for c in range(3) for _ in range(player.oil[grade][c])]
        tanks = []
        for i in range(player.tanks[grade]):
            pair = "".join(barrels[2 * i : 2 * i + 2])
            tanks.append(f"[{pair:<2}]")
        overflow = barrels[2 * player.tanks[grade] :]
        text = " ".join(tanks) or "(no Tanks)"
        if overflow:
            text += " +" + "".join(overflow)
        lines.append(f"    {GRADE_NAMES[grade]:<10} {text}")
    return lines


def _held_contract(index: int, held) -> str:
    tile = C.contract_tile(held.tile)
    kind = "Order as Contract" if tile.kind == C.ContractKind.ORDER else f"{GRADE_NAMES[tile.row]} Contract"
    status = "deferred" if held.deferred else "active"
    progress = []
    for n, ((colour, grade), used) in enumerate(zip(tile.needs, held.filled)):
        filled = f"={GRADE_LETTERS[used]}" if used >= 0 else ""
        progress.append(f"{n + 1}:{barrel_code(colour, grade)}{filled}")
    return (
        f"    {index + 1}. {kind}: {' '.join(progress)}  ({status}, fulfilled {held.completions} this Year)"
    )


def _player(state: State, player: PlayerState) -> list[str]:
    marker = "  <- to act" if not state.over and state.turn.player == player.seat else ""
    lines = [
        f"{player.name} (seat {player.seat}): ${player.money}, Penalty markers: {player.penalties}{marker}"
    ]
    if player.worker:
        lines.append(f"  worker on {_worker_place(player.worker)}")
    lines.append("  Tank Farm:")
    lines.extend(tank_farm_text(player))
    if player.contracts:
        lines.append("  Contracts (deliver with 'deliver 1.2 L'):")
        lines.extend(_held_contract(i, h) for i, h in enumerate(player.contracts))
    if player.orders:
        lines.append("  Orders fulfilled: " + ", ".join(needs_text(o.tile) for o in player.orders))
    owned = [f"{code} {ROMAN[level]}" for code, level in zip(C.UPGRADE_CODES, player.upgrades) if level]
    lines.append("  Upgrades: " + (", ".join(owned) or "none"))
    net = network(player)
    longest = ", ".join(f"{COLOUR_LETTERS[c]} {n}" for c, n in enumerate(net.longest()))
    lines.append(
        f"  Pipe Network: {len(player.tiles)} tiles, {len(player.machines)} Machines; "
        f"longest Pipeline {longest}"
    )
    return lines


def render_state(state: State, setup: GameSetup | None = None) -> str:
    """The whole table as plain text: the shared board, then each player's board."""
    sections = [
        _header(state, setup),
        _cross(state),
        _markets(state),
        _contract_rows(state),
        _shops(state),
        _government(state),
        _upgrades(state),
        _valuation(state),
        _costs(state),
    ]
    sections.extend(_player(state, p) for p in state.players)
    return "\n\n".join("\n".join(lines) for lines in sections) + "\n"


def render_scores(scores: list[Score]) -> str:
    """A table of every scoring step per player (best first), with totals and ranks.

    Rows follow the scoring steps; a label's per-player detail in brackets is dropped so one
    label fits every column.
    """
    if not scores:
        return "(no scores)\n"
    steps = [(line.step, line.label.split(" (")[0]) for line in scores[0].lines]
    amounts = [{line.step: line.amount for line in s.lines} for s in scores]
    width = max(len(label) for _, label in steps + [("", "Total")])
    cols = [max(len(s.name), 6) for s in scores]
    out = [" " * width + "".join(f"  {s.name:>{w}}" for s, w in zip(scores, cols))]
    for step, label in steps:
        out.append(f"{label:<{width}}" + "".join(f"  {a.get(step, 0):>{w}}" for a, w in zip(amounts, cols)))
    out.append("-" * len(out[0]))
    out.append(f"{'Total':<{width}}" + "".join(f"  {s.total:>{w}}" for s, w in zip(scores, cols)))
    out.append(f"{'Rank':<{width}}" + "".join(f"  {s.rank:>{w}}" for s, w in zip(scores, cols)))
    out.append("Winner: " + ", ".join(s.name for s in scores if s.rank == 1))
    return "\n".join(out) + "\n"


# --- The component reference (``pipeline-tui components`` and the app's reference screen) -------

COMPONENT_SECTIONS = (
    "Contracts",
    "Orders",
    "Markets",
    "Shops",
    "Upgrades",
    "Valuation",
    "Refinement markers",
)


def _wrap(text: str, indent: str, width: int, hang: str | None = None) -> list[str]:
    return textwrap.wrap(
        text,
        width=width,
        initial_indent=indent,
        break_on_hyphens=False,
        subsequent_indent=indent if hang is None else hang,
    )


SOURCE_WORDS = {"printed": "printed (public transcription)", "rulebook": "rulebook", "design": "our design"}


def _source_line(ref: Reference, *names: str, width: int) -> list[str]:
    """``Source: ...`` for one table, or a line per table when a section shows several; a name
    stands for its table and the tables named after it (``refresh 3-4 players``)."""
    lines: list[str] = []
    tables = [t for name in names for t in ref.sources if t == name or t.startswith(name + " ")]
    for table in tables:
        src = ref.sources[table]
        what = f" ({table})" if len(tables) > 1 else ""
        lines += _wrap(f"Source{what}: {SOURCE_WORDS[src.source.value]}, {src.note}.", "", width, hang="  ")
    return lines


def _slots(spaces: list[int]) -> str:
    """Printed slots in use, runs shortened: ``[2, 3, 4, 6]`` -> ``2-4,6``."""
    runs: list[list[int]] = []
    for s in spaces:
        if runs and s == runs[-1][-1] + 1:
            runs[-1].append(s)
        else:
            runs.append([s])
    return ",".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ",".join(map(str, r)) for r in runs)


def render_components(ref: Reference, width: int = 78) -> list[tuple[str, list[str]]]:
    """Every component table of an edition as (title, lines), each opening with its source."""
    contracts = _source_line(ref, "contracts", width=width) + [""]
    for row in ("Low", "Mid", "High"):
        contracts.append(f"{row} row")
        contracts += [f"  #{c.id:<3} {' '.join(c.needs):<12} ${c.pay}" for c in ref.contracts if c.row == row]
    orders = _source_line(ref, "orders", width=width) + [""]
    for size in (3, 4, 5):
        orders.append(f"{size} barrels")
        orders += [f"  #{o.id:<3} {' '.join(o.needs):<18} ${o.pay}" for o in ref.orders if o.size == size]
    markets = _source_line(ref, "markets", "market overlays", "refresh", width=width) + [""]
    for tile in ref.market_tiles:
        if "crude" in tile.prices:
            markets.append(f"  crude ladder {tile.name:<7} {' '.join(map(str, tile.prices['crude']))}")
        else:
            markets.append(
                f"  refined pattern {tile.name}  "
                + "   ".join(f"{grade} {' '.join(map(str, p))}" for grade, p in tile.prices.items())
            )
    if ref.market_tiles:
        markets.append("")
    markets += _wrap(ref.market_rows_note, "", width)
    markets += _wrap(
        "Prices per printed slot; then the slots in use by player count, numbered "
        "from the left. At each Refresh supply fills empty slots from the right, "
        "demand empties slots from the left.",
        "",
        width,
    )
    name = ""
    for m in ref.markets:
        if m.market != name:
            name = m.market
            markets += ["", name]
        change = f"supply {m.supply}" if m.supply else f"demand {m.demand}"
        use = "  ".join(f"{n}p {_slots(s)}" for n, s in sorted(m.slots.items()))
        markets.append(
            f"  {m.code:<5} {' '.join(f'{p:>2}' for p in m.prices):<24} {use:<24} {change}".rstrip()
        )
    shops = _source_line(ref, "tank shop", "machine shop", "shop pipes", width=width) + [""]
    for shop in ref.shops:
        prices = " ".join(f"${p}" for p in shop.prices)
        use = "  ".join(f"{n}p {'/'.join(map(str, s))}" for n, s in sorted(shop.spaces.items()))
        shops.append(f"{shop.shop:<13} {prices:<12} {shop.printed} a row; in use {use}")
    shops += [""] + _wrap(ref.shop_pipes, "", width)
    upgrades = _source_line(ref, "upgrades", width=width)
    for u in ref.upgrades:
        if u.level == 1:
            upgrades += ["", f"{u.name} ({u.family})"]
        upgrades += _wrap(u.text, f"  {'I' * u.level:<4}", width, hang="      ")
    valuation = _source_line(ref, "valuation", width=width) + [""]
    valuation += _wrap(f"{ref.valuation_tile.name}. {ref.valuation_tile.text}", "Tile: ", width, hang="    ")
    for v in ref.valuations:
        valuation += [""] + _wrap(f"{v.name}. {v.text}", f"{v.id:>2}. ", width, hang="    ")
    markers = ref.refinement_markers
    marker_lines = _source_line(ref, "refinement markers", width=width) + [""]
    marker_lines += [f"Markers: {' '.join(map(str, markers.values))} ({len(markers.values)})"]
    marker_lines += _wrap(markers.text, "", width)
    return list(
        zip(COMPONENT_SECTIONS, (contracts, orders, markets, shops, upgrades, valuation, marker_lines))
    )


def render_components_text(ref: Reference, width: int = 78) -> str:
    """The whole reference as plain text, a heading per table."""
    out = _wrap(
        f"Pipeline components, edition {ref.edition}: {EDITION_NAMES[ref.edition]}", "", width, hang="  "
    )
    for title, lines in render_components(ref, width):
        out += ["", title.upper(), *lines]
    return "\n".join(out) + "\n"
