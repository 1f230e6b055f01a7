"""The rules package's shape: every move has its rule in the module of its feature, the closed
sets are enums whose values saves already hold, and each letter table is spelt in one place."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import msgspec

from pipeline_tui.data.components import ActionName, ContractKind
from pipeline_tui.engine import Game, GameSetup, GrantKind, SeatKind, Stage, moves as M
from pipeline_tui.engine import rules

PACKAGE = Path(rules.__file__).resolve().parents[2]


def test_every_move_has_its_check_and_effect_in_one_feature_module():
    for kind in get_args(M.AnyMove):
        check, effect = rules._RULES[kind]
        assert check.__module__ == effect.__module__, kind.__name__
        assert check.__module__.rsplit(".", 1)[1] in (
            "cross",
            "markets",
            "refining",
            "machines",
            "shops",
            "contracts",
            "upgrades",
            "turns",
        )


def test_a_non_move_is_refused_by_name():
    state = Game(GameSetup.default(players=2, seed=1)).state
    assert rules.why_illegal(state, "pass") == "not a move: 'pass'"


def test_enum_values_are_the_strings_saves_and_notation_hold():
    assert [s.value for s in Stage] == ["setup", "work", "action", "machine", "over"]
    assert [a.value for a in ActionName] == [
        "upgrades",
        "tanks",
        "machines",
        "contracts",
        "crude",
        "refined1",
        "refined2",
        "refined3",
        "government",
        "network",
        "machine",
        "machines_phase",
        "machines_early",
    ]
    assert [k.value for k in SeatKind] == ["human", "random", "heuristic", "search", "expert"]
    assert [g.value for g in GrantKind] == ["gov", "tank", "pipe", "machine"]
    assert [c.value for c in ContractKind] == ["contract", "order"]
    setup = GameSetup.default(players=2, seed=1)
    assert b'"kind":"human"' in msgspec.json.encode(setup)
    assert msgspec.json.encode(M.Action(action=ActionName.CRUDE)) == b'{"type":"action","action":"crude"}'


def test_each_letter_table_is_spelt_only_in_data_oil():
    spelt = re.compile(r"""["'](OTS|CLMH|LMH|NESW)["']""")
    found = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if spelt.search(path.read_text(encoding="utf-8"))
    ]
    assert found == ["data/oil.py"]
