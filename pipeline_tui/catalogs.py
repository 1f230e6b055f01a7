"""Keep the message catalogues in step with the code (a maintainer's tool; needs Babel).

``python -m pipeline_tui.catalogs update`` extracts every string marked with ``_``, ``N_``,
``ngettext`` or ``pgettext`` from the package into ``locale/pipeline_tui.pot``, brings each
language's ``.po`` up to date with it (new strings come in untranslated, strings gone from
the code are dropped) and compiles the ``.mo`` the game reads at run time.
``python -m pipeline_tui.catalogs check`` lists what is missing or stale without writing:
untranslated, fuzzy or obsolete entries, placeholders that differ between a string and its
translation, and a ``.pot``, ``.po`` or ``.mo`` that no longer matches the code. The test
suite runs the same check (``tests/test_catalogs.py``).

Babel comes with the test extra; the game itself reads the compiled ``.mo`` with the standard
library's :mod:`gettext` (see :mod:`pipeline_tui.i18n`).
"""

from __future__ import annotations

import datetime
import io
import string
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from .i18n import DOMAIN, LANGUAGES, LOCALE_DIR

PACKAGE_DIR = Path(__file__).parent
POT_PATH = LOCALE_DIR / f"{DOMAIN}.pot"
KEYWORDS: dict[str, Any] = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
"""The marking functions of :mod:`pipeline_tui.i18n` and where their messages sit."""
METHOD_MAP = [("**.py", "python")]
FIXED_DATE = datetime.datetime(2026, 11, 24, tzinfo=datetime.timezone.utc)
"""Headers carry this date, not today's, so a catalogue changes only when its messages do."""
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def _new_catalog(locale: str | None = None) -> Catalog:
    return Catalog(
        locale=locale,
        domain=DOMAIN,
        project="pipeline-tui",
        version="0.1",
        copyright_holder="pipeline-tui",
        msgid_bugs_address="",
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
        fuzzy=False,
    )


def extract() -> Catalog:
    """The template: every marked string in the package, in file order, with its file."""
    template = _new_catalog()
    found = extract_from_dir(
        str(PACKAGE_DIR),
        METHOD_MAP,
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    )
    for filename, _lineno, message, comments, context in sorted(found, key=lambda f: (f[0], f[1])):
        if filename.endswith("catalogs.py"):
            continue
        template.add(
            message, None, [(f"pipeline_tui/{filename}", 0)], auto_comments=comments, context=context
        )
    return template


def _po_bytes(catalog: Catalog, *, template: bool = False) -> bytes:
    out = io.BytesIO()
    write_po(
        out,
        catalog,
        width=100,
        omit_header=False,
        ignore_obsolete=True,
        include_previous=False,
        include_lineno=False,
        sort_by_file=False,
    )
    return out.getvalue()


def _mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def read(lang: str) -> Catalog:
    path = po_path(lang)
    if not path.exists():
        return _new_catalog(lang)
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


def updated(lang: str, template: Catalog) -> Catalog:
    """``lang``'s catalogue brought up to date with ``template`` (no fuzzy guesses)."""
    catalog = read(lang)
    catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
    catalog.creation_date = FIXED_DATE
    catalog.revision_date = FIXED_DATE
    return catalog


def update() -> list[Path]:
    """Write the template, every language's ``.po`` and ``.mo``; return what changed."""
    template = extract()
    written: list[Path] = []
    outputs: list[tuple[Path, bytes]] = [(POT_PATH, _po_bytes(template, template=True))]
    for lang in TRANSLATED:
        catalog = updated(lang, template)
        outputs.append((po_path(lang), _po_bytes(catalog)))
        outputs.append((mo_path(lang), _mo_bytes(catalog)))
    for path, data in outputs:
        if not path.exists() or path.read_bytes() != data:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            written.append(path)
    return written


def placeholders(text: str) -> set[str]:
    """The ``{fields}`` of a format string (``{{`` and ``}}`` are literal braces).

    >>> sorted(placeholders("{n} barrels for ${price:,}"))
    ['n', 'price']
    """
    try:
        return {field for _lit, field, _spec, _conv in string.Formatter().parse(text) if field is not None}
    except ValueError:
        return {"<unbalanced braces>"}


def _forms(value: str | tuple[str, ...] | list[str] | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return list(value)


def problems(lang: str) -> list[str]:
    """What is wrong with ``lang``'s catalogue, one line each (empty when complete)."""
    found: list[str] = []
    template = extract()
    if not POT_PATH.exists() or POT_PATH.read_bytes() != _po_bytes(template, template=True):
        found.append(f"{POT_PATH.name} is stale: run python -m pipeline_tui.catalogs update")
    current = read(lang)
    expected = updated(lang, template)
    if _po_bytes(current) != _po_bytes(expected):
        missing = [m.id for m in expected if m.id and m.id not in current]
        gone = [m.id for m in current if m.id and m.id not in expected]
        found.append(
            f"{lang}: {po_path(lang).name} is stale ({len(missing)} new, {len(gone)} obsolete): "
            "run python -m pipeline_tui.catalogs update"
        )
    for message in expected:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        if message.fuzzy:
            found.append(f"{lang}: fuzzy: {key!r}")
        translations = _forms(message.string)
        if not translations or not all(translations):
            found.append(f"{lang}: untranslated: {key!r}")
            continue
        sources = _forms(message.id)
        wanted = set().union(*(placeholders(s) for s in sources))
        for text in translations:
            if placeholders(text) != wanted:
                found.append(f"{lang}: placeholders differ: {key!r} -> {text!r}")
    for message in current.obsolete.values():
        found.append(f"{lang}: obsolete: {message.id!r}")
    mo = mo_path(lang)
    if not mo.exists() or mo.read_bytes() != _mo_bytes(expected):
        found.append(f"{lang}: {mo.name} is stale: run python -m pipeline_tui.catalogs update")
    return found


def main(argv: Iterable[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args else "check"
    if command == "update":
        for path in update():
            print(f"wrote {path.relative_to(PACKAGE_DIR.parent)}")
        command = "check"
    if command == "check":
        lines = [line for lang in TRANSLATED for line in problems(lang)]
        for line in lines:
            print(line)
        print(f"{len(lines)} problem(s)")
        return 1 if lines else 0
    print("usage: python -m pipeline_tui.catalogs [update|check]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
