"""The title's parsed stylesheet kept on disk between starts (issue 38, point 3: cold start).

Each start here is made as ``run_app`` makes it (the file read into the shared parsed CSS, the
app sharing it, the file written once the first frame is drawn), in a test's own folder."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from pipeline_tui.ui import compat, css_cache
from pipeline_tui.ui.app import PipelineApp

from tests.ui.pilot import settled


@pytest.fixture(autouse=True)
def nothing_parsed_yet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compat.SharedStylesheet, "parsed", {})


async def start(cache: Path, saves: Path, **options: object) -> tuple[compat.SharedStylesheet, str]:
    """A start to the title (or as ``options`` say) as ``run_app`` makes it: its stylesheet and
    its first screen as drawn."""
    compat.SharedStylesheet.parsed = {}  # a new process
    app = PipelineApp(saves_dir=saves, **options)  # type: ignore[arg-type]
    app.css_cache = cache
    css_cache.load(cache)
    sheet = compat.share_parsed_css(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        drawn = app.export_screenshot()
    return sheet, drawn


def test_the_cache_lives_in_the_users_cache_folder():
    assert css_cache.cache_path({"XDG_CACHE_HOME": "/c", "HOME": "/h"}) == Path(
        "/c/pipeline-tui/stylesheet.pickle"
    )
    assert css_cache.cache_path({"HOME": "/h"}) == Path("/h/.cache/pipeline-tui/stylesheet.pickle")


async def test_a_second_start_parses_nothing_and_draws_the_same_title(tmp_path: Path):
    cache = tmp_path / "cache" / "stylesheet.pickle"
    first, fresh_title = await start(cache, tmp_path)
    assert first.fresh == first.taken.keys()  # all parsed here
    assert cache.exists() and cache.stat().st_mode & 0o777 == 0o600
    written = cache.stat().st_mtime_ns
    second, cached_title = await start(cache, tmp_path)
    assert len(second.taken) > 10  # the app's CSS and the title's widgets'
    assert second.fresh == set()  # all of it from the file
    assert cached_title == fresh_title
    assert cache.stat().st_mtime_ns == written  # nothing new, nothing written


async def test_a_start_at_the_table_keeps_the_titles_rules_and_its_own(tmp_path: Path):
    cache = tmp_path / "stylesheet.pickle"
    title, _ = await start(cache, tmp_path)
    table, drawn = await start(cache, tmp_path, mode="new", players=2, seed=1)
    assert "Refined" in drawn
    assert table.taken.keys() > title.taken.keys()  # the table's widgets' CSS besides
    assert table.fresh == table.taken.keys() - title.taken.keys()
    for first in ({}, {"mode": "new", "players": 2, "seed": 1}):
        again, _ = await start(cache, tmp_path, **first)
        assert again.fresh == set()


async def test_a_changed_source_is_parsed_again_not_taken_from_the_file(tmp_path: Path):
    cache = tmp_path / "stylesheet.pickle"
    await start(cache, tmp_path)
    kept = compat.SharedStylesheet.parsed = {}
    with open(cache, "rb") as file:
        file.read(len(css_cache.MAGIC) + len(css_cache.stamp()))
        kept.update(compat.load_parsed_css(file))
    # the same file as if the app's CSS had been edited since it was written
    edited = {(css + "\n/* edited */", *rest): rules for (css, *rest), rules in kept.items()}
    with open(cache, "wb") as file:
        file.write(css_cache.MAGIC + css_cache.stamp())
        compat.dump_parsed_css(edited, file)
    sheet, _ = await start(cache, tmp_path)
    assert len(sheet.taken) > 10
    assert all(key not in edited for key in sheet.taken)


BROKEN = {
    "not a pickle": lambda: css_cache.MAGIC + css_cache.stamp() + b"\x00garbage",
    "cut short": lambda: (css_cache.MAGIC + css_cache.stamp() + pickle.dumps({("a",): []}))[:-3],
    "another program's": lambda: b"PK\x03\x04" + bytes(200),
    "from another Textual": lambda: css_cache.MAGIC + b"3.11.0 elsewhere\n\n" + pickle.dumps({}),
    "a pickle that runs a program": lambda: (
        css_cache.MAGIC + css_cache.stamp() + pickle.dumps({("k",) * 6: [os.system]})
    ),
    "not rules": lambda: css_cache.MAGIC + css_cache.stamp() + pickle.dumps({("k",) * 6: ["rules"]}),
}


@pytest.mark.parametrize("broken", sorted(BROKEN))
async def test_a_broken_cache_is_ignored_and_replaced(tmp_path: Path, broken: str):
    cache = tmp_path / "stylesheet.pickle"
    cache.write_bytes(BROKEN[broken]())
    cache.chmod(0o600)
    assert css_cache.load(cache) == 0
    sheet, _ = await start(cache, tmp_path)
    assert len(sheet.taken) > 10  # the app parsed its CSS
    assert css_cache.load(cache) == len(sheet.taken)  # and wrote a good file over the broken one


class Touch:
    """A pickle that, loaded by a plain unpickler, creates a file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):
        return (Path.touch, (self.path,))


def test_a_cache_builds_nothing_but_parsed_rules(tmp_path: Path):
    mark = tmp_path / "ran"
    evil = pickle.dumps({("k",) * 6: [Touch(mark)]})
    pickle.loads(evil)  # what a plain unpickler does
    assert mark.exists()
    mark.unlink()
    cache = tmp_path / "stylesheet.pickle"
    cache.write_bytes(css_cache.MAGIC + css_cache.stamp() + evil)
    cache.chmod(0o600)
    assert css_cache.load(cache) == 0
    assert not mark.exists()


def test_a_cache_others_may_write_to_is_not_read(tmp_path: Path):
    cache = tmp_path / "stylesheet.pickle"
    cache.write_bytes(css_cache.MAGIC + css_cache.stamp() + pickle.dumps({("k",) * 6: []}))
    cache.chmod(0o600)
    assert css_cache.load(cache) == 1
    cache.chmod(0o666)
    assert css_cache.load(cache) == 0


async def test_a_cache_that_cannot_be_written_costs_only_the_parsing(tmp_path: Path):
    blocked = tmp_path / "a file"
    blocked.write_text("")
    sheet, drawn = await start(blocked / "stylesheet.pickle", tmp_path)  # under a file: no folder
    assert "PIPELINE" in drawn
    assert sheet.fresh  # parsed, and not written
    assert css_cache.save(PipelineApp(mode="title", saves_dir=tmp_path), tmp_path / "x") is False
