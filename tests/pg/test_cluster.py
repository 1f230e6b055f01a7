"""The throwaway cluster ends with the test run that started it, even a run killed by SIGKILL
(``pg_ctl start`` leaves the server in the background; tests/pg/cluster.py's watchdog stops it)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.pg.cluster import ClusterUnavailable, start_cluster

ROOT = Path(__file__).resolve().parents[2]
STARTER = """
import sys, time
from tests.pg.cluster import start_cluster
cluster = start_cluster(sys.argv[1])
print(cluster.folder, flush=True)
time.sleep(120)
"""


def servers_of(data: Path) -> list[int]:
    """The PostgreSQL server processes running on the data folder ``data``."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if str(data).encode() in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except OSError:  # gone meanwhile
            continue
    return found


def test_a_cluster_whose_starter_is_killed_stops_and_is_removed() -> None:
    parent = os.environ.get("PT_PG_TMP", "/tmp")  # a folder the postgres user can reach
    try:
        start_cluster(parent).remove()  # PostgreSQL and psycopg are here (else: skip)
    except ClusterUnavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL tests cannot run under CI: {exc}", pytrace=False)
        pytest.skip(str(exc))
    starter = subprocess.Popen(
        [sys.executable, "-c", STARTER, parent], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert starter.stdout is not None
        folder = Path(starter.stdout.readline().strip())
        data = folder / "data"
        assert (data / "postmaster.pid").exists()
        assert servers_of(data)
    finally:
        starter.send_signal(signal.SIGKILL)
        starter.wait()
    deadline = time.monotonic() + 30
    while (servers_of(data) or folder.exists()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert servers_of(data) == []
    assert not folder.exists()
