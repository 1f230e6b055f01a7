"""The language the game speaks: gettext catalogues chosen as terminal programs choose theirs.

Every user-visible string goes through :func:`_` (or :func:`ngettext` where a number decides
the form: Russian has three). Strings defined at import time are marked with :func:`N_` and
translated where they are shown. The catalogues are ``pipeline_tui/locale/<lang>/LC_MESSAGES/
pipeline_tui.mo``, compiled by Babel from the ``.po`` beside them and installed with the
package. The move notation is never translated: it is the same ASCII in every language.

The language is chosen once per process by :func:`choose_language` (``--lang``, then
``PIPELINE_TUI_LANG``, then the choice remembered from the app's command palette, then
``LC_ALL``, ``LC_MESSAGES``, ``LANG``, else English) and can be changed live with
:func:`set_language`; text built after the change speaks the new language. The remembered
choice is one JSON file, ``$XDG_CONFIG_HOME/pipeline-tui/settings.json`` (``~/.config`` when
the variable is unset); a shared table over SSH remembers it per key on the server instead.

>>> choose_language(None, {"LANG": "ru_RU.UTF-8"})
'ru'
>>> choose_language("en", {"PIPELINE_TUI_LANG": "ru"})
'en'
>>> choose_language(None, {"LC_ALL": "C", "LANG": "ru_RU.UTF-8"})
'en'
>>> choose_language(None, {"LANG": "en_US.UTF-8"}, remembered="ru")
'ru'
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "pipeline_tui"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES: tuple[str, ...] = ("en", "ru")
"""The languages the game speaks; English is the source language and the fallback."""
DEFAULT_LANGUAGE = "en"
ENV_LANG = "PIPELINE_TUI_LANG"
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""POSIX order of precedence for the message locale; the first one set decides."""
SETTINGS_DIR = "pipeline-tui"
SETTINGS_FILE = "settings.json"
LANGUAGE_NAMES = {"en": "English", "ru": "Русский"}
"""Each language named in itself, as a menu of languages shows it."""

_translations: _gettext.NullTranslations = _gettext.NullTranslations()
_language = DEFAULT_LANGUAGE


class LanguageError(ValueError):
    """A language the game does not speak."""


def language_of(value: str | None) -> str | None:
    """The supported language a locale name or language code asks for, or None.

    >>> language_of("ru_RU.UTF-8"), language_of("en_GB"), language_of("C"), language_of("de")
    ('ru', 'en', 'en', None)
    """
    if not value:
        return None
    code = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if code in ("c", "posix"):
        return DEFAULT_LANGUAGE
    return code if code in LANGUAGES else None


def choose_language(flag: str | None, environ: Mapping[str, str], remembered: str | None = None) -> str:
    """The language for this process: the ``--lang`` flag, ``PIPELINE_TUI_LANG``, the choice
    ``remembered`` from the palette (or the lobby), the first locale variable set (``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``), else English.

    A flag or ``PIPELINE_TUI_LANG`` the game does not speak raises :class:`LanguageError`
    (someone asked for it by name); a remembered choice or a locale variable it does not speak
    is passed over.
    """
    for asked in (flag, environ.get(ENV_LANG)):
        if asked:
            found = language_of(asked)
            if found is None:
                raise LanguageError(f"unknown language {asked!r} (choose from {', '.join(LANGUAGES)})")
            return found
    if language_of(remembered):
        return language_of(remembered) or DEFAULT_LANGUAGE
    for name in LOCALE_VARIABLES:
        value = environ.get(name)
        if value:
            return language_of(value) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def settings_path(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the app remembers its settings: ``$XDG_CONFIG_HOME/pipeline-tui/settings.json``.

    >>> settings_path({"XDG_CONFIG_HOME": "/cfg"}).as_posix()
    '/cfg/pipeline-tui/settings.json'
    """
    base = environ.get("XDG_CONFIG_HOME") or str(Path(environ.get("HOME") or Path.home()) / ".config")
    return Path(base) / SETTINGS_DIR / SETTINGS_FILE


def _read_settings(path: Path) -> dict[str, object]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, ValueError):
        return {}
    import json  # only when there is a file: a start without one needs no json (issue 38)

    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def remembered_language(environ: Mapping[str, str] = os.environ) -> str | None:
    """The language last chosen in the app's palette, if any (an unreadable file is none)."""
    value = _read_settings(settings_path(environ)).get("language")
    return language_of(value) if isinstance(value, str) else None


def remember_language(language: str, environ: Mapping[str, str] = os.environ) -> None:
    """Keep ``language`` for the next start (the other settings in the file stay); written to
    a temporary file and renamed, so a crash never leaves half a file. OSError if it cannot."""
    path = settings_path(environ)
    settings = _read_settings(path)
    settings["language"] = language
    import json

    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(settings, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def translations_for(language: str) -> _gettext.NullTranslations:
    """The catalogue of ``language`` without making it this process's language: for a server
    that answers each client in the client's own language."""
    found = language_of(language) or DEFAULT_LANGUAGE
    if found == DEFAULT_LANGUAGE:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[found], fallback=True)


def set_language(language: str) -> None:
    """Speak ``language`` from now on in this process (English needs no catalogue)."""
    global _translations, _language
    found = language_of(language)
    if found is None:
        raise LanguageError(f"unknown language {language!r} (choose from {', '.join(LANGUAGES)})")
    _translations = translations_for(found)
    _language = found


def current_language() -> str:
    """The language text is built in now."""
    return _language


def _(message: str) -> str:
    """``message`` in the current language."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the number ``n`` (English two forms, Russian three).

    >>> ngettext("{n} barrel", "{n} barrels", 2).format(n=2)
    '2 barrels'
    """
    return _translations.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language where the same English word needs two translations."""
    return _translations.pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` where the same English words need two translations (Russian: the
    object of a verb still to do, "купить 1 цистерну", where a list says "1 цистерна")."""
    return _translations.npgettext(context, singular, plural, n)


def quoted(text: str) -> str:
    """``text`` as someone typed it, in the quotation marks of the language spoken ('foo' in
    English, «foo» in Russian), any character that cannot be shown escaped as Python escapes it.

    >>> quoted("foo"), quoted("a\\tb")
    ("'foo'", "'a\\\\tb'")
    """
    shown = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
    # TRANSLATORS: the quotation marks round a word or a move someone typed.
    return pgettext("quoted", "'{text}'").format(text=shown)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it now (translate it where shown)."""
    return message
