"""The component reference (``pipeline-tui components`` and the app's reference screen): every
table from the data, each naming its source, and the full text of every card."""

from __future__ import annotations

import msgspec
import pytest

from pipeline_tui.data import components as C
from pipeline_tui.data.oil import parse_barrel
from pipeline_tui.data.reference import (
    EDITIONS, LATEST_EDITION, Source, contract_text, reference, reference_json, upgrade_text,
    valuation_text,
)
from pipeline_tui.text import COMPONENT_SECTIONS, render_components, render_components_text

TABLES = ("contracts", "orders", "markets", "shops", "shop_pipes", "upgrades", "valuations",
          "refinement_markers")


def test_contracts_and_orders_are_the_data_with_barrel_codes():
    ref = reference()
    assert [c.id for c in ref.contracts] == [t.id for t in C.CONTRACTS]
    assert [o.id for o in ref.orders] == [t.id for t in C.ORDERS]
    for entry, tile in zip(ref.contracts + ref.orders, C.CONTRACTS + C.ORDERS):
        assert tuple(parse_barrel(code) for code in entry.needs) == tile.needs
    assert {len(o.needs) for o in ref.orders} == {3, 4, 5}
    assert [c.row for c in ref.contracts].count("High") == 10


def test_pay_is_one_fulfilment_at_the_printed_rates():
    ref = reference()
    low = next(c for c in ref.contracts if c.needs == ["OL", "OL"])
    assert low.pay == 2 * C.CONTRACT_PAY[1] == 40
    order = ref.orders[0]
    assert order.pay == sum(C.ORDER_PAY[parse_barrel(code)[1]] for code in order.needs)


def test_every_table_names_its_source():
    ref = reference()
    assert set(ref.sources) == set(TABLES)
    assert ref.sources["contracts"].source is Source.DESIGN
    assert ref.sources["upgrades"].source is Source.RULEBOOK
    for title, lines in render_components(ref):
        assert lines[0].startswith("Source: "), title


def test_markets_shops_and_markers_come_from_the_data():
    ref = reference()
    assert [m.code for m in ref.markets] == [row.code for row in C.MARKET_ROWS]
    crude = ref.markets[0]
    assert crude.prices == list(C.MARKET_ROWS[0].prices)
    assert crude.slots[2] == [i + 1 for i in C.MARKET_ROWS[0].slots[2]]
    assert [s.prices for s in ref.shops] == [list(C.TANK_SHOP_PRICES), list(C.MACHINE_SHOP_PRICES)]
    assert ref.shops[1].spaces[4] == list(C.MACHINE_SHOP_SPACES[4])
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
    order = C.ORDERS[0]
    assert contract_text(order.id).startswith("Order of 3 barrels: ")
    assert "all at once" in contract_text(order.id)


def test_the_json_has_contracts_and_orders_as_lists_of_objects_with_needs():
    data = msgspec.json.decode(reference_json())
    assert data["edition"] == LATEST_EDITION
    assert isinstance(data["contracts"], list) and len(data["contracts"]) == 30
    assert isinstance(data["orders"], list) and len(data["orders"]) == 24
    assert all(isinstance(c["needs"], list) for c in data["contracts"] + data["orders"])
    assert {code for c in data["contracts"] for code in c["needs"]} <= {
        a + b for a in "OTS" for b in "LMH"}
    assert data["sources"]["orders"]["source"] == "our design"
    assert set(data["markets"][0]["slots"]) == {"2", "3", "4"}


def test_the_text_has_every_section_within_78_columns():
    text = render_components_text(reference())
    for title in COMPONENT_SECTIONS:
        assert f"\n{title.upper()}\n" in text
    assert max(len(line) for line in text.splitlines()) <= 78
    assert "  C-OC  10  9  8  7  6  5" in text


def test_an_unknown_edition_is_refused():
    assert EDITIONS == (1,)
    with pytest.raises(ValueError, match="edition 9 is not known"):
        reference(9)
