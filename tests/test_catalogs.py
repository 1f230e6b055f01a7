"""The Russian catalogue is complete and current: every marked string translated, nothing
fuzzy or obsolete, the same placeholders in both languages, the compiled ``.mo`` up to date."""

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
