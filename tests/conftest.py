"""Fixtures shared by the UI and server tests."""

from __future__ import annotations

import pytest
from textual.screen import Screen


@pytest.fixture
def layouts(monkeypatch) -> list[Screen]:
    """Every layout of a screen from now on (Textual's Screen._refresh_layout)."""
    seen: list[Screen] = []
    real = Screen._refresh_layout

    def counted(screen, *args, **kwargs):
        seen.append(screen)
        return real(screen, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    return seen
