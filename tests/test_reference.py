"""The component reference (``pipeline-tui components`` and the app's reference screen): every
table of an edition from the data, each naming its source, and the full text of every card."""

from __future__ import annotations

import msgspec
import pytest

from pipeline_tui import i18n
from pipeline_tui.data import components as C
from pipeline_tui.data import editions as E
from pipeline_tui.data.components import Source
from pipeline_tui.data.oil import parse_barrel
from pipeline_tui.data.reference import (
    EDITIONS,
    LATEST_EDITION,
    contract_text,
    reference,
    reference_json,
    upgrade_text,
    valuation_text,
)
from pipeline_tui.text import COMPONENT_SECTIONS, render_components, render_components_text

from .latin import english_words


def test_new_games_and_the_reference_use_the_printed_edition():
    assert LATEST_EDITION == E.PRINTED_EDITION == 2 and EDITIONS == (1, 2)


@pytest.mark.parametrize("edition", EDITIONS)
def test_contracts_and_orders_are_the_editions_tiles_with_barrel_codes(edition):
    ref = reference(edition)
    ed = E.edition(edition)
    assert [c.id for c in ref.contracts] == [t.id for t in ed.contracts]
    assert [o.id for o in ref.orders] == [t.id for t in ed.orders]
    for entry, tile in zip(ref.contracts + ref.orders, ed.contracts + ed.orders):
        assert tuple(parse_barrel(code) for code in entry.needs) == tile.needs
    assert {len(o.needs) for o in ref.orders} == {3, 4, 5}
    assert [c.row for c in ref.contracts].count("High") == 10


def test_the_printed_contracts_and_orders_are_listed_as_printed():
    ref = reference(2)
    assert ref.contracts[0].needs == ["SL", "SL", "SL"]  # the transcription's first Low
    assert ref.orders[0].needs == ["OH", "SL", "TL"]


def test_pay_is_one_fulfilment_at_the_printed_rates():
    ref = reference(1)
    low = next(c for c in ref.contracts if c.needs == ["OL", "OL"])
    assert low.pay == 2 * C.CONTRACT_PAY[1] == 40
    order = ref.orders[0]
    assert order.pay == sum(C.ORDER_PAY[parse_barrel(code)[1]] for code in order.needs)


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_table_names_its_source(edition):
    ref = reference(edition)
    tables = {entry.table for entry in E.edition(edition).sources}
    assert set(ref.sources) == tables | {"shop pipes"}
    assert ref.sources["upgrades"].source is Source.RULEBOOK
    expected = Source.DESIGN if edition == 1 else Source.PRINTED
    assert ref.sources["contracts"].source is expected
    for title, lines in render_components(ref):
        assert lines[0].startswith("Source"), title


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_text_names_the_source_of_every_table_it_shows(edition):
    ref = reference(edition)
    text = render_components_text(ref)
    shown = set(ref.sources) - {"government layout", "pipe tiles"}  # not drawn as a table
    single = {"contracts", "orders", "upgrades", "valuation", "refinement markers"}
    for table in shown - single:
        assert f"Source ({table}): " in text, table
    if edition == 2:
        assert "Source (refresh 3-4 players): our design" in text


def test_edition_1_markets_are_its_fixed_rows():
    ref = reference(1)
    assert ref.market_tiles == []
    assert [m.code for m in ref.markets] == [row.code for row in C.MARKET_ROWS]
    crude = ref.markets[0]
    assert crude.prices == list(C.MARKET_ROWS[0].prices)
    assert crude.slots[2] == [i + 1 for i in C.MARKET_ROWS[0].slots[2]]


def test_edition_2_markets_are_the_printed_ladders_and_patterns():
    ref = reference(2)
    ladders = [t.prices["crude"] for t in ref.market_tiles if "crude" in t.prices]
    assert ladders == [list(ladder) for ladder in E.CRUDE_LADDERS]
    pattern_a = next(t for t in ref.market_tiles if t.name == "A")
    assert pattern_a.prices == {"Low": [20, 20, 25, 25], "Mid": [40, 40, 45, 45], "High": [45, 45, 50, 50]}
    rows = E.printed_market_rows(E.PHOTOGRAPHED_LAYOUT, 2)
    assert [m.code for m in ref.markets] == [row.code for row in rows]
    assert "random" in ref.market_rows_note
    assert all(len(m.prices) == 8 for m in ref.markets if m.barrel.endswith("C"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_shops_and_markers_come_from_the_edition(edition):
    ref = reference(edition)
    ed = E.edition(edition)
    assert [s.prices for s in ref.shops] == [list(ed.tank_shop_prices), list(ed.machine_shop_prices)]
    assert ref.shops[0].spaces[3] == list(ed.tank_shop_spaces[3])
    assert ref.shops[1].printed == ed.machine_shop_printed
    assert ref.refinement_markers.values == list(C.REFINEMENT_MARKERS)


def test_every_upgrade_level_and_valuation_card_has_its_own_full_text():
    ref = reference()
    assert len(ref.upgrades) == 3 * len(C.UPGRADE_FAMILIES)
    assert len({u.text for u in ref.upgrades}) == len(ref.upgrades)
    assert [v.id for v in ref.valuations] == [card.id for card in C.VALUATION_CARDS]
    assert len({v.text for v in ref.valuations}) == len(ref.valuations)
    assert valuation_text(0) == valuation_text(5)
    assert "same one twice" in upgrade_text("HR", 3)
    assert "stack" in upgrade_text("MACH", 1)


def test_card_texts_name_needs_and_pay():
    text = contract_text(C.CONTRACTS[0].id)
    assert text.startswith("Low Contract: Low-Grade Orange, Low-Grade Orange. Pays $20 + $20 = $40")
    order = C.PRINTED_ORDERS[0]
    assert contract_text(order.id).startswith(
        "Order of 3 barrels: High-Grade Orange, Low-Grade Silver, Low-Grade Teal. Fulfilled all at once"
    )
    assert "$55 + $30 + $30 = $115" in contract_text(order.id)


def test_the_json_has_contracts_and_orders_as_lists_of_objects_with_needs():
    data = msgspec.json.decode(reference_json())
    assert data["edition"] == LATEST_EDITION
    assert isinstance(data["contracts"], list) and len(data["contracts"]) == 30
    assert isinstance(data["orders"], list) and len(data["orders"]) == 24
    assert all(isinstance(c["needs"], list) for c in data["contracts"] + data["orders"])
    assert {code for c in data["contracts"] for code in c["needs"]} <= {a + b for a in "OTS" for b in "LMH"}
    assert data["sources"]["orders"]["source"] == "printed"
    assert set(data["markets"][0]["slots"]) == {"2", "3", "4"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_text_has_every_section_within_78_columns(edition):
    text = render_components_text(reference(edition))
    for title in COMPONENT_SECTIONS:
        assert f"\n{title.upper()}\nSource" in text
    assert max(len(line) for line in text.splitlines()) <= 78
    assert (
        max(len(line) for _, lines in render_components(reference(edition), width=74) for line in lines) <= 74
    )


def test_the_text_shows_each_editions_markets():
    assert "  C-OC  10  9  8  7  6  5" in render_components_text(reference(1))
    text = render_components_text(reference(2))
    assert "  crude ladder 5-11    5 5 7 7 9 9 11 11" in text
    assert "  C-OC   5  5  7  7  9  9 11 11  2p 1-6  3p 1-7  4p 1-8   supply 4" in text


def test_an_unknown_edition_is_refused():
    with pytest.raises(ValueError, match="edition 9 is not known"):
        reference(9)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_text_speaks_russian_to_the_last_source_note(edition, russian):
    """Every table's source note, name and the edition's name come out in Russian; only codes
    of the notation, Roman levels and the command's name stay Latin (issue 15)."""
    text = render_components_text(reference(edition))
    assert "Источник" in text
    assert english_words(text) == []


def test_the_json_is_the_same_in_every_language():
    """``components --json`` is language-neutral (issue 15): English keys and notes in Russian too."""
    english = reference_json()
    i18n.set_language("ru")
    try:
        assert reference_json() == english
    finally:
        i18n.set_language("en")
    assert b"the 30 Contracts as printed" in english
