"""The Russian catalogue is complete and current: every marked string translated, nothing
fuzzy or obsolete, the same placeholders in both languages, the compiled ``.mo`` up to date."""

import re

import pytest

from pipeline_tui import catalogs, i18n


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_catalogue_is_complete_and_current(lang: str) -> None:
    assert catalogs.problems(lang) == []


def test_placeholders_are_compared() -> None:
    assert catalogs.placeholders("{n} barrels for ${price}") == {"n", "price"}
    assert catalogs.placeholders("{n} баррелей") != catalogs.placeholders("{n} barrels for ${price}")


def test_russian_is_read_from_the_installed_catalogue() -> None:
    try:
        i18n.set_language("ru")
        assert i18n._("the game is over") == "игра окончена"
        i18n.set_language("en")
        assert i18n._("the game is over") == "the game is over"
    finally:
        i18n.set_language("en")


# Words the Russian rulebook does not use for a thing it names, and what it says instead (issue
# 37, point 11; docs/glossary.md lists each with the rulebook's line). A pattern is matched
# against every Russian msgstr.
NOT_THE_RULEBOOKS = {
    r"бирюз|Бирюз": "Teal oil is синяя (line 213: «синий, оранжевый и белый»)",
    r"серебр|Серебр": "Silver oil is белая (line 213)",
    r"четверт": "a quadrant is квадрант (lines 158, 423)",
    r"ценност|ценн\b": "Refinement Value is мощность перегонки (line 453)",
    r"баррел|Баррел|барр\.": "a barrel is a куб нефти (lines 191, 514)",
    r"Персонал": "the Human Resources upgrade is Рабочие (line 587)",
    r"Инженери": "the Engineering upgrade is Перегонка (line 595)",
    r"Контракты и кредиты": "the action is «Контракты и займы» (lines 312, 615)",
    r"жетон": "an upgrade token is a тайл улучшения (lines 109, 407)",
    r"ячейк": "a market slot is a место (lines 254, 292)",
    r"\bсид(а|ом|ы|ов)?\b": "one word for the seed: зерно",
    r"эвристик": "players know the bots by their levels (лёгкий, средний, ...)",
    r"\bБанк\b": "the oil supply is запас (line 191)",
    r"колод": "the Pipe tiles wait in a стопка (line 157)",
}


@pytest.mark.parametrize("pattern", NOT_THE_RULEBOOKS, ids=range(len(NOT_THE_RULEBOOKS)))
def test_russian_uses_the_rulebooks_words(pattern: str) -> None:
    found = [text for text in _russian_texts() if re.search(pattern, text)]
    assert found == [], f"{NOT_THE_RULEBOOKS[pattern]}: {found}"


def _russian_texts() -> list[str]:
    texts: list[str] = []
    for message in catalogs.read("ru"):
        if message.id:
            texts += [message.string] if isinstance(message.string, str) else list(message.string)
    return texts


def test_russian_quotes_with_guillemets() -> None:
    """A word or a move quoted in Russian takes «», never '' (issue 37, point 14)."""
    assert [text for text in _russian_texts() if re.search(r"'[^'\s][^']*'", text)] == []
    try:
        i18n.set_language("ru")
        assert i18n.quoted("foo") == "«foo»"
        assert i18n.quoted("a\x1bb") == "«a\\x1bb»"  # what cannot be shown is escaped
    finally:
        i18n.set_language("en")
    assert i18n.quoted("foo") == "'foo'"


@pytest.mark.parametrize(
    ("message", "year", "russian"),
    [
        ("Game over after Year {year}", 3, "Игра окончена после 3-го года"),
        ("Year {year} begins", 2, "Начинается 2-й год"),
        ("open since Year {year}", 1, "открыт с 1-го года"),
        ("Contracts: they cannot be Deferred in Year 3", 3, "Контракты: в 3-м году их нельзя отложить"),
    ],
    ids=["after", "begins", "since", "in"],
)
def test_russian_years_are_ordinals(message: str, year: int, russian: str) -> None:
    """Years as ordinals, "после 3-го года", "в 1-м году" (issue 37, point 12), not "после года 3"."""
    try:
        i18n.set_language("ru")
        assert i18n._(message).format(year=year) == russian
    finally:
        i18n.set_language("en")
    bare = [
        text for text in _russian_texts() if re.search(r"(после|с|в) года? \{year\}|в \{year\}-й год\b", text)
    ]
    assert bare == []
