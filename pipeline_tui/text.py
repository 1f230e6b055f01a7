"""Plain-text descriptions of the table and of the final scores (no Rich, no colour).

Used by the command line (``play``, ``replay --text``, ``components``) and tests. Oil is always
written as letters (colour O/T/S, grade C/L/M/H, so ``TH`` is High-Grade Teal): colour is never
the only carrier of meaning. Numbers next to places are the ones the move notation uses, all
counting from 1 (``CL.1``, ``gov 2.5``, ``deliver 1.2``), so a player can read a place here and
type it. The words are in the current language (:mod:`pipeline_tui.i18n`); the letters, codes and
notation are the same ASCII in every language (issue 15). The output is deterministic.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from .data import components as C
from .data.oil import COLOUR_LETTERS, COLOUR_NAMES, EDGE_LETTERS, GRADE_LETTERS, GRADE_NAMES, barrel_code
from .data.editions import EDITION_NAMES
from .data.reference import Reference
from .engine.rules import edition, market_rows, network
from .engine.scoring import Score
from .engine.setup import GameSetup, SeatKind
from .engine.state import GrantKind, HeldContract, PlayerState, Stage, State
from .i18n import N_, _, ngettext

ROMAN = ("-", "I", "II", "III")
ARMS = (N_("North"), N_("West"), N_("South"), N_("East"))  # order of State.action_tiles (INNER_CELLS)
ARM_MARKETS = C.MARKET_ACTIONS  # the arm end of each arm
STAGES = {
    Stage.SETUP: N_("Setup (placing starting Tanks)"),
    Stage.WORK: N_("Work Phase"),
    Stage.ACTION: N_("Action"),
    Stage.MACHINE: N_("Machine Phase"),
    Stage.OVER: N_("game over"),
}
A = C.ActionName
RUNS: dict[str, str] = {
    A.NETWORK: N_("running the Pipe Network"),
    A.MACHINE: N_("running one Machine"),
    A.MACHINES_PHASE: N_("Machine Phase run"),
    A.MACHINES_EARLY: N_("Machines III early run"),
    A.GOVERNMENT: N_("Government"),
}
SEAT_KINDS: dict[str, str] = {
    SeatKind.HUMAN: N_("human"),
    SeatKind.RANDOM: N_("easy"),
    SeatKind.HEURISTIC: N_("normal"),
    SeatKind.SEARCH: N_("hard"),
    SeatKind.EXPERT: N_("expert"),
}
"""Who plays a seat (``SeatKind`` values, kept in saves) as the header names them: a person, or
a computer player by the level players choose it by (``ai.LEVELS``), never the bot's own name."""
CONTRACT_KINDS = {
    1: N_("Low-Grade Contract"),
    2: N_("Mid-Grade Contract"),
    3: N_("High-Grade Contract"),
}
"""A held Contract by its row (the highest grade it needs), named whole for the grammar's sake."""


def refusal(reason: str, head: str, area_head: str) -> tuple[str, str]:
    """A refused move's line in two parts, the head and the rest: ``head`` ("Not allowed: ")
    and the engine's reason; or, when the reason names the rule's area first ("Markets: that
    slot is taken"), ``area_head`` ("Not allowed: {area}: ") with that area in it and the rest
    of the reason after it, so a language can say it without two colons in a row ("Нельзя
    (Рынки): это место занято").

    >>> refusal("Markets: that slot is taken", "no: ", "no ({area}): ")
    ('no (Markets): ', 'that slot is taken')
    >>> refusal("the game is over", "no: ", "no ({area}): ")
    ('no: ', 'the game is over')
    """
    area, colon, detail = reason.partition(": ")
    if colon and area and detail:
        return area_head.format(area=area), detail
    return head, reason


def _shown(name: str) -> str:
    """A name or text from the data tables in the current language (the tables mark them with
    ``N_``); an empty text stays empty instead of becoming the catalogue's header."""
    return _(name) if name else name


def _grant_text(kind: str, n: int) -> str:
    """What an upgrade still gives this turn, counted (rulebook "Upgrades": Government, Shops,
    Machines)."""
    if kind == GrantKind.GOV:
        return ngettext("{n} Government pipe tile", "{n} Government pipe tiles", n).format(n=n)
    if kind == GrantKind.TANK:
        return ngettext("{n} Tank", "{n} Tanks", n).format(n=n)
    if kind == GrantKind.PIPE:
        return ngettext("{n} pipe tile", "{n} pipe tiles", n).format(n=n)
    return ngettext("{n} Machine", "{n} Machines", n).format(n=n)


def _grant_source(source: str) -> str:
    """The upgrade a gift comes from: ``GOV II`` as it is, ``GOV yearly`` with the word translated."""
    code, _sep, rest = source.partition(" ")
    return _("{code} yearly").format(code=code) if rest == "yearly" else source


def needs_text(tile_id: int) -> str:
    """A Contract's or Order's requirements as barrel codes, e.g. ``OL TL SL``."""
    return " ".join(barrel_code(c, g) for c, g in C.contract_tile(tile_id).needs)


def tile_text(tile_id: int) -> str:
    """A pipe tile by number and paths: ``#12 [EW:O NS:S | ...]`` (edges then colour, halves A|B)."""
    tile = C.pipe_tiles()[tile_id]

    def half(paths: Iterable[tuple[int, int, int]]) -> str:
        return " ".join(f"{EDGE_LETTERS[a]}{EDGE_LETTERS[b]}:{COLOUR_LETTERS[c]}" for a, b, c in paths)

    return f"#{tile_id} [{half(tile.a.paths)} | {half(tile.b.paths)}]"


def _name(state: State, seat: int) -> str:
    return state.players[seat].name


def _pad(width: int, names: list[str]) -> int:
    """A column as wide as the English layout wants, wider where a translation is longer."""
    return max([width, *(len(n) for n in names)])


def _worker_place(where: str) -> str:
    if where.startswith("gov "):
        return _("Government tile {place}").format(place=where[4:])
    if where.startswith("run "):
        return _("own Pipe Network at {place}").format(place=where[4:])
    if where.startswith("machine "):
        return _("own Machine at {place}").format(place=where[8:])
    return _shown(C.ACTION_NAMES.get(where, where))


def _header(state: State, setup: GameSetup | None) -> list[str]:
    rounds = C.ROUNDS_PER_YEAR[state.year - 1]
    year = _("Year {year} of 3, Round {round} of {rounds}").format(
        year=state.year, round=state.round, rounds=rounds
    )
    lines = [year + ("  " + _("(game over)") if state.over else "")]
    if setup is not None:
        seats = ", ".join(f"{p.name} ({_shown(SEAT_KINDS.get(p.kind, p.kind))})" for p in setup.players)
        players = _("Players: {seats}").format(seats=seats)
        lines.append(players + ("; " + _("first-game setup") if setup.first_game else ""))
    order = " > ".join(_name(state, s) for s in state.turn_order)
    if state.next_track:  # rules version 2: the row by space, "." where a space is free
        nxt = " ".join(_name(state, s) if s >= 0 else "." for s in state.next_track)
    else:
        nxt = " > ".join(_name(state, s) for s in state.next_order) or _("(empty)")
    lines.append(_("Turn Order: {order}   next Round: {next}").format(order=order, next=nxt))
    if not state.over:
        lines.append(_turn_line(state))
    return lines


def _turn_line(state: State) -> str:
    t = state.turn
    who = _name(state, t.player)
    stage = _shown(STAGES.get(t.stage, t.stage))
    if t.stage == Stage.SETUP:
        stage = _("{stage}, {placed} of {tanks} placed").format(
            stage=stage, placed=t.setup_placed, tanks=C.START_TANKS
        )
    elif t.stage == Stage.ACTION:
        action = _shown(C.ACTION_NAMES.get(t.action) or RUNS.get(t.action, t.action))
        stage = _("Action: {action}").format(action=action)
    parts = [_("To act: {name}, {stage}").format(name=who, stage=stage)]
    if t.mains:
        if t.secondary:
            parts.append(_("Main Actions taken {n}, Secondary taken").format(n=t.mains))
        else:
            parts.append(_("Main Actions taken {n}").format(n=t.mains))
    if t.hand_tile >= 0:
        parts.append(_("holding Pipe tile {tile}").format(tile=tile_text(t.hand_tile)))
    if t.hand_machine:
        parts.append(_("holding a Machine"))
    if t.grants:
        due = ", ".join(f"{_grant_text(g.kind, g.count)} ({_grant_source(g.source)})" for g in t.grants)
        parts.append(_("due: {gifts}").format(gifts=due))
    if t.icon and not t.order_chosen:
        parts.append(_("may choose a Turn Order place"))
    return "; ".join(parts)


def _cross(state: State) -> list[str]:
    workers: dict[str, list[str]] = {}
    for p in state.players:
        if p.worker:
            workers.setdefault(p.worker, []).append(p.name)

    def space(action: str) -> str:
        here = workers.pop(action, [])
        return _shown(C.ACTION_NAMES[action]) + (f" [{', '.join(here)}]" if here else "")

    arms = [_(arm) for arm in ARMS]
    width = _pad(6, arms)
    lines = [_("Action cross (arm end / inner space, [workers]):")]
    for arm, market, tile in zip(arms, ARM_MARKETS, state.action_tiles):
        lines.append(f"  {arm:<{width}} {space(market)} / {space(tile)}")
    for where, names in sorted(workers.items()):
        lines.append(
            "  " + _("{names} on {place}").format(names=", ".join(names), place=_worker_place(where))
        )
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
        lines.append(f"{_shown(C.MARKET_NAMES[market])}:")
        for index, row in enumerate(market_rows(state)):
            if row.market == market:
                lines.append("  " + market_row_text(state, index))
    supply = ", ".join(f"{COLOUR_LETTERS[c]} {n}" for c, n in enumerate(state.supply))
    lines.append(_("Oil in the supply: {barrels}").format(barrels=supply))
    return lines


def _contract_rows(state: State) -> list[str]:
    grades = [_shown(GRADE_NAMES[r + 1]) for r in range(len(state.contract_rows))]
    width = _pad(10, grades)
    lines = [_("Contracts (take with 'contract CL.1'):")]
    for r, (row, stack) in enumerate(zip(state.contract_rows, state.contract_stacks)):
        grade = GRADE_LETTERS[r + 1]
        cells = [
            f"C{grade}.{s + 1} " + (needs_text(t) if t >= 0 else _("(empty)")) for s, t in enumerate(row)
        ]
        left = _("({n} in stack)").format(n=len(stack))
        lines.append(f"  {grades[r]:<{width}} " + "   ".join(cells) + f"   {left}")
    lines.append(_("Orders (fulfil with 'fulfil O3.1 ...'):"))
    sizes = [ngettext("{n} barrel", "{n} barrels", n).format(n=n) for n in C.ORDER_ROWS]
    width = _pad(9, sizes)
    for r, row in enumerate(state.order_rows):
        size = C.ORDER_ROWS[r]
        cells = [f"O{size}.{s + 1} " + (needs_text(t) if t >= 0 else _("(empty)")) for s, t in enumerate(row)]
        lines.append(f"  {sizes[r]:<{width}}  " + "   ".join(cells))
    return lines


def _shops(state: State) -> list[str]:
    def stock(prices: Iterable[int], counts: Iterable[int]) -> str:
        return ", ".join(f"${p} x{n}" for p, n in zip(prices, counts))

    lines = [
        _("Tank Shop: {stock}   (reserve {n})").format(
            stock=stock(edition(state).tank_shop_prices, state.tank_shop), n=state.tank_reserve
        ),
        _("Machine Shop: {stock}   (reserve {n})").format(
            stock=stock(edition(state).machine_shop_prices, state.machine_shop), n=state.machine_reserve
        ),
    ]
    for shop, tiles in zip(C.SHOPS, state.shop_pipes):
        shown = [f"{shop}{i + 1} " + (tile_text(t) if t >= 0 else _("(empty)")) for i, t in enumerate(tiles)]
        lines.append(
            _("Pipe tiles at the Tank Shop:") if shop == "T" else _("Pipe tiles at the Machine Shop:")
        )
        lines.extend(f"  {s}" for s in shown)
    lines.append(
        _("Pipe stack: {down} face down, {discarded} discarded").format(
            down=len(state.pipe_deck), discarded=len(state.pipe_discard)
        )
    )
    return lines


def _government(state: State) -> list[str]:
    limit = C.GOVERNMENT_OPEN_LIMIT[state.year - 1]
    opened = sum(1 for y in state.government_opened if y)
    lines = [
        _("Government ({opened} of at most {limit} quadrants open in Year {year}):").format(
            opened=opened, limit=limit, year=state.year
        )
    ]
    for q, spaces in enumerate(state.government):
        left = [s for s, t in enumerate(spaces) if t >= 0]
        since = state.government_opened[q]
        status = _("open since Year {year}").format(year=since) if since else _("closed")
        where = " ".join(f"{q + 1}.{s + 1}" for s in left) or "-"
        quadrant = ngettext(
            "Quadrant {q}: {status}, {n} tile left: {places}",
            "Quadrant {q}: {status}, {n} tiles left: {places}",
            len(left),
        )
        lines.append("  " + quadrant.format(q=q + 1, status=status, n=len(left), places=where))
    return lines


def _upgrades(state: State) -> list[str]:
    lines = [_("Upgrades ($20 each; token up = may be bought this Year; cards left by level):")]
    names = [_shown(C.UPGRADE_FAMILIES[C.UPGRADE_CODES.index(f)].name) for f in state.upgrade_families]
    width = _pad(18, names)
    token_up, token_down = _("token up"), _("token down")
    token_width = max(len(token_up), len(token_down))
    for name, family, up, cards in zip(
        names, state.upgrade_families, state.upgrade_tokens, state.upgrade_cards
    ):
        left = " ".join(f"{ROMAN[i + 1]}:{n}" for i, n in enumerate(cards))
        token = token_up if up else token_down
        lines.append(f"  {family:<4} {name:<{width}} {token:<{token_width}}  {left}")
    return lines


def _valuation(state: State) -> list[str]:
    lines = [_("Valuation:"), "  " + _("tile: {name}").format(name=_shown(C.VALUATION_TILE))]
    lines.extend(
        "  " + _("card {n}: {name}").format(n=c, name=_shown(C.VALUATION_BY_ID[c].name))
        for c in state.valuation_cards
    )
    return lines


def _costs(state: State) -> list[str]:
    label = _("Refinement costs")
    colours = [_shown(COLOUR_NAMES[c]) for c in range(len(state.refinement_costs))]
    width = _pad(16, [label, *colours])
    lines = [f"{label:<{width + 2}} C>L L>M M>H"]
    for name, row in zip(colours, state.refinement_costs):
        lines.append(f"  {name:<{width}}" + "".join(f"{c:>4}" for c in row))
    return lines


def tank_farm_text(player: PlayerState) -> list[str]:
    """The Tank Farm, High row first: each Tank as two places, e.g. ``[OO] [T ] [  ]``."""
    grades = [_shown(name) for name in GRADE_NAMES]
    width = _pad(10, grades)
    lines = []
    for grade in range(3, -1, -1):
        barrels = [COLOUR_LETTERS[c] for c in range(3) for _n in range(player.oil[grade][c])]
        tanks = []
        for i in range(player.tanks[grade]):
            pair = "".join(barrels[2 * i : 2 * i + 2])
            tanks.append(f"[{pair:<2}]")
        overflow = barrels[2 * player.tanks[grade] :]
        text = " ".join(tanks) or _("(no Tanks)")
        if overflow:
            text += " +" + "".join(overflow)
        lines.append(f"    {grades[grade]:<{width}} {text}")
    return lines


def _held_contract(index: int, held: HeldContract) -> str:
    tile = C.contract_tile(held.tile)
    kind = _("Order as Contract") if tile.kind == C.ContractKind.ORDER else _(CONTRACT_KINDS[tile.row])
    status = _("deferred") if held.deferred else _("active")
    progress = []
    for n, ((colour, grade), used) in enumerate(zip(tile.needs, held.filled)):
        filled = f"={GRADE_LETTERS[used]}" if used >= 0 else ""
        progress.append(f"{n + 1}:{barrel_code(colour, grade)}{filled}")
    state = _("({status}, fulfilled {n} this Year)").format(status=status, n=held.completions)
    return f"    {index + 1}. {kind}: {' '.join(progress)}  {state}"


def _player(state: State, player: PlayerState) -> list[str]:
    marker = "  " + _("<- to act") if not state.over and state.turn.player == player.seat else ""
    head = _("{name} (seat {seat}): ${money}, Penalty markers: {n}").format(
        name=player.name, seat=player.seat + 1, money=player.money, n=player.penalties
    )
    lines = [head + marker]
    if player.worker:
        lines.append("  " + _("worker on {place}").format(place=_worker_place(player.worker)))
    lines.append("  " + _("Tank Farm:"))
    lines.extend(tank_farm_text(player))
    if player.contracts:
        lines.append("  " + _("Contracts (deliver with 'deliver 1.2 L'):"))
        lines.extend(_held_contract(i, h) for i, h in enumerate(player.contracts))
    if player.orders:
        orders = ", ".join(needs_text(o.tile) for o in player.orders)
        lines.append("  " + _("Orders fulfilled: {orders}").format(orders=orders))
    owned = [f"{code} {ROMAN[level]}" for code, level in zip(C.UPGRADE_CODES, player.upgrades) if level]
    lines.append("  " + _("Upgrades: {owned}").format(owned=", ".join(owned) or _("none")))
    net = network(player)
    longest = ", ".join(f"{COLOUR_LETTERS[c]} {n}" for c, n in enumerate(net.longest()))
    tiles = ngettext("{n} tile", "{n} tiles", len(player.tiles)).format(n=len(player.tiles))
    machines = ngettext("{n} Machine", "{n} Machines", len(player.machines)).format(n=len(player.machines))
    lines.append(
        "  "
        + _("Pipe Network: {tiles}, {machines}; longest Pipeline {longest}").format(
            tiles=tiles, machines=machines, longest=longest
        )
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
        return _("(no scores)") + "\n"
    steps = [(line.step, line.label.split(" (")[0]) for line in scores[0].lines]
    amounts = [{line.step: line.amount for line in s.lines} for s in scores]
    total, rank = _("Total"), _("Rank")
    width = max(len(label) for label in [label for _s, label in steps] + [total, rank])
    cols = [max(len(s.name), 6) for s in scores]
    out = [" " * width + "".join(f"  {s.name:>{w}}" for s, w in zip(scores, cols))]
    for step, label in steps:
        out.append(f"{label:<{width}}" + "".join(f"  {a.get(step, 0):>{w}}" for a, w in zip(amounts, cols)))
    out.append("-" * len(out[0]))
    out.append(f"{total:<{width}}" + "".join(f"  {s.total:>{w}}" for s, w in zip(scores, cols)))
    out.append(f"{rank:<{width}}" + "".join(f"  {s.rank:>{w}}" for s, w in zip(scores, cols)))
    winners = ", ".join(s.name for s in scores if s.rank == 1)
    out.append(_("Winner: {names}").format(names=winners))
    return "\n".join(out) + "\n"


# --- The component reference (``pipeline-tui components`` and the app's reference screen) -------

COMPONENT_SECTIONS = (
    N_("Contracts"),
    N_("Orders"),
    N_("Markets"),
    N_("Shops"),
    N_("Upgrades"),
    N_("Valuation"),
    N_("Refinement markers"),
)
"""The reference's tables. :func:`render_components` names them in English (the app builds tab
ids from them) and whoever shows a title translates it with ``_()``."""
ROW_NAMES = {"Low": N_("Low row"), "Mid": N_("Mid row"), "High": N_("High row")}
"""The Contract rows by the highest grade their Contracts need (``data.reference.GRADE_ROWS``)."""


def _wrap(text: str, indent: str, width: int, hang: str | None = None) -> list[str]:
    return textwrap.wrap(
        text,
        width=width,
        initial_indent=indent,
        break_on_hyphens=False,
        subsequent_indent=indent if hang is None else hang,
    )


SOURCE_WORDS = {
    "printed": N_("printed (public transcription)"),
    "rulebook": N_("rulebook"),
    "design": N_("our design"),
}


def _source_line(ref: Reference, *names: str, width: int) -> list[str]:
    """``Source: ...`` for one table, or a line per table when a section shows several; a name
    stands for its table and the tables named after it (``refresh 3-4 players``)."""
    lines: list[str] = []
    tables = [t for name in names for t in ref.sources if t == name or t.startswith(name + " ")]
    for table in tables:
        src = ref.sources[table]
        source, note = _(SOURCE_WORDS[src.source.value]), _shown(src.note)
        if len(tables) > 1:
            text = _("Source ({table}): {source}, {note}.").format(
                table=_shown(table), source=source, note=note
            )
        else:
            text = _("Source: {source}, {note}.").format(source=source, note=note)
        lines += _wrap(text, "", width, hang="  ")
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


def _per_players(counts: dict[int, str]) -> str:
    """What each player count uses, e.g. ``2p 3-6  3p 2-7`` (``p`` for players, translated)."""
    return "  ".join(_("{n}p {used}").format(n=n, used=used) for n, used in sorted(counts.items()))


def render_components(ref: Reference, width: int = 78) -> list[tuple[str, list[str]]]:
    """Every component table of an edition as (title, lines), each opening with its source.

    The titles are the English keys of :data:`COMPONENT_SECTIONS`; the lines speak the current
    language, with codes and barrel letters as the move notation writes them.
    """
    contracts = _source_line(ref, "contracts", width=width) + [""]
    for row in ("Low", "Mid", "High"):
        contracts.append(_(ROW_NAMES[row]))
        contracts += [f"  #{c.id:<3} {' '.join(c.needs):<12} ${c.pay}" for c in ref.contracts if c.row == row]
    orders = _source_line(ref, "orders", width=width) + [""]
    for size in (3, 4, 5):
        orders.append(ngettext("{n} barrel", "{n} barrels", size).format(n=size))
        orders += [f"  #{o.id:<3} {' '.join(o.needs):<18} ${o.pay}" for o in ref.orders if o.size == size]
    markets = _source_line(ref, "markets", "market overlays", "refresh", width=width) + [""]
    for tile in ref.market_tiles:
        if "crude" in tile.prices:
            ladder = _("crude ladder {name}").format(name=f"{tile.name:<7}")
            markets.append(f"  {ladder} {' '.join(map(str, tile.prices['crude']))}")
        else:  # one line, or a line per grade where the words make it wider than the page
            head = "  " + _("refined pattern {name}").format(name=tile.name)
            grades = [f"{_shown(grade)} {' '.join(map(str, p))}" for grade, p in tile.prices.items()]
            line = head + "  " + "   ".join(grades)
            markets += [line] if len(line) <= width else [head, *(f"    {grade}" for grade in grades)]
    if ref.market_tiles:
        markets.append("")
    markets += _wrap(_shown(ref.market_rows_note), "", width)
    markets += _wrap(
        _(
            "Prices per printed slot; then the slots in use by player count, numbered "
            "from the left. At each Refresh supply fills empty slots from the right, "
            "demand empties slots from the left."
        ),
        "",
        width,
    )
    name = ""
    for m in ref.markets:
        if m.market != name:
            name = m.market
            markets += ["", _shown(name)]
        change = _("supply {n}").format(n=m.supply) if m.supply else _("demand {n}").format(n=m.demand)
        use = _per_players({n: _slots(s) for n, s in m.slots.items()})
        markets.append(
            f"  {m.code:<5} {' '.join(f'{p:>2}' for p in m.prices):<24} {use:<24} {change}".rstrip()
        )
    shops = _source_line(ref, "tank shop", "machine shop", "shop pipes", width=width) + [""]
    shop_names = [_shown(shop.shop) for shop in ref.shops]
    shop_width = _pad(13, shop_names)
    for shop, shop_name in zip(ref.shops, shop_names):
        prices = " ".join(f"${p}" for p in shop.prices)
        use = _per_players({n: "/".join(map(str, s)) for n, s in shop.spaces.items()})
        row = _("{n} a row; in use {spaces}").format(n=shop.printed, spaces=use)
        shops.append(f"{shop_name:<{shop_width}} {prices:<12} {row}")
    shops += [""] + _wrap(_shown(ref.shop_pipes), "", width)
    upgrades = _source_line(ref, "upgrades", width=width)
    for u in ref.upgrades:
        if u.level == 1:
            upgrades += ["", f"{_shown(u.name)} ({u.family})"]
        upgrades += _wrap(_shown(u.text), f"  {'I' * u.level:<4}", width, hang="      ")
    valuation = _source_line(ref, "valuation", width=width) + [""]
    valuation_tile = ref.valuation_tile
    valuation += _wrap(
        f"{_shown(valuation_tile.name)}. {_shown(valuation_tile.text)}", _("Tile: "), width, hang="    "
    )
    for v in ref.valuations:
        valuation += [""] + _wrap(f"{_shown(v.name)}. {_shown(v.text)}", f"{v.id:>2}. ", width, hang="    ")
    markers = ref.refinement_markers
    marker_lines = _source_line(ref, "refinement markers", width=width) + [""]
    values = " ".join(map(str, markers.values))
    marker_lines += [_("Markers: {values} ({n})").format(values=values, n=len(markers.values))]
    marker_lines += _wrap(_shown(markers.text), "", width)
    return list(
        zip(COMPONENT_SECTIONS, (contracts, orders, markets, shops, upgrades, valuation, marker_lines))
    )


def render_components_text(ref: Reference, width: int = 78) -> str:
    """The whole reference as plain text, a heading per table."""
    heading = _("Pipeline components, edition {edition}: {name}").format(
        edition=ref.edition, name=_shown(EDITION_NAMES[ref.edition])
    )
    out = _wrap(heading, "", width, hang="  ")
    for title, lines in render_components(ref, width):
        out += ["", _(title).upper(), *lines]
    return "\n".join(out) + "\n"
