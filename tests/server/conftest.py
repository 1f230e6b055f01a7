"""Fixtures of the shared-table tests."""

from __future__ import annotations

import pytest

from pipeline_tui.net.hub import Hub


@pytest.fixture
async def served(tmp_path):
    """A Hub serving a fresh tables folder on a socket: (hub, socket path)."""
    hub = Hub(tmp_path / "tables", bot_delay=0.0)
    sock = tmp_path / "hub.sock"
    await hub.start(sock)
    try:
        yield hub, sock
    finally:
        await hub.close()
