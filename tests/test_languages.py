"""Choosing the language (issue 15, point 2): ``--lang`` on every command, then
``PIPELINE_TUI_LANG``, then the choice remembered from the palette, then the locale variables,
else English; and Russian plurals in three forms from the real catalogue (point 1)."""

from __future__ import annotations

import json

import pytest

from pipeline_tui import cli, i18n
from pipeline_tui.i18n import _, ngettext


@pytest.fixture
def english_after():
    """Whatever a test switches to, the next test starts in English."""
    try:
        yield
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(
    ("flag", "environ", "remembered", "expected"),
    [
        ("ru", {"PIPELINE_TUI_LANG": "en", "LANG": "en_GB.UTF-8"}, "en", "ru"),
        (None, {"PIPELINE_TUI_LANG": "ru", "LANG": "en_GB.UTF-8"}, "en", "ru"),
        (None, {"LANG": "en_GB.UTF-8"}, "ru", "ru"),
        (None, {"LC_ALL": "ru_RU.UTF-8", "LANG": "en_GB.UTF-8"}, None, "ru"),
        (None, {"LC_MESSAGES": "ru_RU.UTF-8", "LANG": "en_GB.UTF-8"}, None, "ru"),
        (None, {"LANG": "de_DE.UTF-8"}, None, "en"),
        (None, {}, "de", "en"),
        (None, {}, None, "en"),
    ],
)
def test_the_order_of_choice(flag, environ, remembered, expected) -> None:
    assert i18n.choose_language(flag, environ, remembered) == expected


def test_a_language_asked_for_by_name_must_be_spoken() -> None:
    with pytest.raises(i18n.LanguageError, match="unknown language 'de'"):
        i18n.choose_language("de", {})
    with pytest.raises(i18n.LanguageError, match="unknown language 'xx'"):
        i18n.choose_language(None, {"PIPELINE_TUI_LANG": "xx"})


def test_the_choice_is_remembered_beside_other_settings(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert i18n.remembered_language() is None
    path = tmp_path / "pipeline-tui" / "settings.json"
    path.parent.mkdir()
    path.write_text('{"theme": "dark"}')
    i18n.remember_language("ru")
    assert json.loads(path.read_text()) == {"theme": "dark", "language": "ru"}
    assert i18n.remembered_language() == "ru"
    path.write_text("not json")
    assert i18n.remembered_language() is None


@pytest.mark.parametrize("where", ["before", "after"])
def test_lang_works_with_any_command(where, english_after, capsys) -> None:
    argv = ["--lang", "ru", "saves", "--help"] if where == "before" else ["saves", "--help", "--lang", "ru"]
    assert cli.main(argv) == 0
    assert i18n.current_language() == "ru"
    i18n.set_language("en")
    assert cli.main(["--lang=en", "--help"]) == 0
    assert "--lang en|ru" in capsys.readouterr().out


def test_lang_in_the_help_is_russian_in_russian(english_after, capsys) -> None:
    assert cli.main(["--lang", "ru", "--help"]) == 0
    assert "язык, с любой командой" in capsys.readouterr().out


def test_the_environment_and_the_remembered_choice_reach_the_command(
    english_after, monkeypatch, tmp_path, capsys
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert cli.main(["--help"]) == 0 and i18n.current_language() == "en"
    i18n.remember_language("ru")
    assert cli.main(["--help"]) == 0 and i18n.current_language() == "ru"
    monkeypatch.setenv("PIPELINE_TUI_LANG", "en")
    assert cli.main(["--help"]) == 0 and i18n.current_language() == "en"
    assert cli.main(["--lang", "ru", "--help"]) == 0 and i18n.current_language() == "ru"


@pytest.mark.parametrize("argv", [["--lang", "de", "saves"], ["saves", "--lang", "xx"]])
def test_a_bad_language_is_one_line(argv, english_after, capsys) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("pipeline-tui: unknown language") and err.count("\n") == 1
    assert i18n.current_language() == "en"


def test_a_bad_language_in_the_environment_is_one_line(english_after, monkeypatch, capsys) -> None:
    monkeypatch.setenv("PIPELINE_TUI_LANG", "klingon")
    assert cli.main(["saves"]) == 2
    assert capsys.readouterr().err == "pipeline-tui: unknown language 'klingon' (choose from en, ru)\n"


def test_russian_plurals_take_three_forms(english_after) -> None:
    """The lobby's count of tables, from the compiled catalogue (Russian's plural rule)."""
    i18n.set_language("ru")
    forms = {n: ngettext("{n} table", "{n} tables", n).format(n=n) for n in (1, 2, 5, 11, 21, 22, 25)}
    assert forms == {
        1: "1 стол",
        2: "2 стола",
        5: "5 столов",
        11: "11 столов",
        21: "21 стол",
        22: "22 стола",
        25: "25 столов",
    }
    i18n.set_language("en")
    assert [ngettext("{n} table", "{n} tables", n).format(n=n) for n in (1, 2, 21)] == [
        "1 table",
        "2 tables",
        "21 tables",
    ]


def test_a_language_switch_changes_text_made_after_it(english_after) -> None:
    assert _("Shared tables") == "Shared tables"
    i18n.set_language("ru")
    assert _("Shared tables") == "Общие столы"
