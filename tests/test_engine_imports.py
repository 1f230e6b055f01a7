"""Layering (docs/architecture.md, "Layers"): the engine, data, storage and ai never pull in Textual or Rich."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEADLESS = ["pipeline_tui.data", "pipeline_tui.engine", "pipeline_tui.storage", "pipeline_tui.ai"]


def _present(package: str) -> bool:
    return (ROOT / package.replace(".", "/") / "__init__.py").exists()


def _loaded_after_import(modules: list[str], walk: bool = True) -> set[str]:
    """Module names in ``sys.modules`` of a fresh interpreter after importing ``modules`` (and,
    with ``walk``, every submodule of them)."""
    code = (
        "import importlib, pkgutil, sys\n"
        f"for name in {modules!r}:\n"
        "    package = importlib.import_module(name)\n"
        f"    for info in pkgutil.walk_packages(package.__path__ if {walk} else [], name + '.'):\n"
        "        if not info.name.rsplit('.', 1)[-1].startswith('__'):\n"
        "            importlib.import_module(info.name)\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, env=env
    )
    assert result.returncode == 0, result.stderr
    return set(result.stdout.split())


def test_headless_layers_import_without_textual_or_rich():
    present = [p for p in HEADLESS if _present(p)]
    assert "pipeline_tui.engine" in present and "pipeline_tui.data" in present
    loaded = _loaded_after_import(present)
    assert "pipeline_tui.engine.rules" in loaded  # the check really imported the engine
    ui = sorted(m for m in loaded if m.split(".")[0] in ("textual", "rich"))
    assert ui == []
    assert not any(m.startswith("pipeline_tui.ui") for m in loaded)


@pytest.mark.skipif(importlib.util.find_spec("textual") is None, reason="textual not installed")
def test_the_check_would_see_textual_if_it_were_imported():
    loaded = _loaded_after_import(["textual.app"], walk=False)
    assert "textual" in loaded
