"""A throwaway PostgreSQL cluster for the shared-store tests (issue 39).

One cluster per test process (each xdist worker its own), on a Unix socket in a temporary folder
the ``postgres`` user can write (PostgreSQL refuses to run as root), stopped at the end; each
test gets a database of its own. Without PostgreSQL or psycopg the tests are skipped, except
under CI (``CI`` set), where that is a failure: a skipped store test proves nothing.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

PORT = 25532  # the socket's name only: the cluster listens on no TCP port


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL tests cannot run under CI: {reason}", pytrace=False)
    pytest.skip(reason)


def _bindir() -> Path | None:
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    try:
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    folder = Path(out.stdout.strip())
    return folder if (folder / "initdb").exists() else None


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: then run it as the postgres user."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


class Cluster:
    """A running throwaway cluster: ``url(db)`` names a database on its socket."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self._numbers = itertools.count(1)

    def url(self, database: str = "postgres", **options: str) -> str:
        extra = "".join(f"&{key}={value}" for key, value in options.items())
        return f"postgresql://pipeline@/{database}?host={self.folder}&port={PORT}{extra}"

    def new_database(self) -> str:
        import psycopg

        name = f"t{os.getpid()}_{next(self._numbers)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def pg_ctl(self, *args: str) -> None:
        bindir = _bindir()
        assert bindir is not None
        subprocess.run(
            _as_postgres([str(bindir / "pg_ctl"), "-D", str(self.data), *args]),
            check=True,
            capture_output=True,
            timeout=60,
        )

    def start(self) -> None:
        options = f"-k {self.folder} -p {PORT} -c listen_addresses='' -c fsync=off"
        self.pg_ctl("-o", options, "-l", str(self.folder / "log"), "-w", "start")

    def stop(self) -> None:
        self.pg_ctl("-m", "immediate", "-w", "stop")


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    """Start a cluster for this test process; stop and remove it at the end."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _unavailable("psycopg is not installed (pip install -e '.[test]')")
    bindir = _bindir()
    if bindir is None:
        _unavailable("PostgreSQL's initdb was not found (on PATH or by pg_config --bindir)")
    assert bindir is not None
    folder = Path(tempfile.mkdtemp(prefix="pipeline-pg-", dir=os.environ.get("PT_PG_TMP", "/tmp")))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    cluster = Cluster(folder)
    try:
        subprocess.run(
            _as_postgres([str(bindir / "initdb"), "-D", str(cluster.data), "-A", "trust", "-U", "pipeline"]),
            check=True,
            capture_output=True,
            timeout=120,
        )
        cluster.start()
    except (OSError, subprocess.SubprocessError) as exc:
        shutil.rmtree(folder, ignore_errors=True)
        _unavailable(f"a throwaway PostgreSQL cluster did not start: {exc}")
    try:
        yield cluster
    finally:
        try:
            cluster.stop()
        except subprocess.SubprocessError:
            pass
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def pg_url(cluster: Cluster) -> str:
    """A fresh, empty database of the session's cluster."""
    return cluster.new_database()
