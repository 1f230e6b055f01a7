"""A throwaway PostgreSQL cluster on a Unix socket (the store tests and benchmarks/bench_nodes.py).

PostgreSQL refuses to run as root, so as root the cluster runs as the ``postgres`` user, in a
temporary folder it owns; it listens on no TCP port.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


class ClusterUnavailable(Exception):
    """PostgreSQL or psycopg is missing, or the cluster did not start."""


PORT = 25532  # the socket's name only: the cluster listens on no TCP port

# The watchdog of a cluster: it reads its standard input, the read end of a pipe whose write end
# only the process that started the cluster holds, until the end of file that comes when that
# process ends, even killed by SIGKILL; then it stops the cluster and removes its folder.
# ``pg_ctl start`` leaves the server in the background, so without it a killed test run would
# leave its cluster running.
WATCHDOG = """
import json, os, shutil, subprocess, sys
while os.read(0, 4096):
    pass
stop, folder = json.loads(sys.argv[1])
subprocess.run(stop, capture_output=True, timeout=60)
shutil.rmtree(folder, ignore_errors=True)
"""


def _bindir() -> Path | None:
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    try:
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True)
        folders = [Path(out.stdout.strip())]
    except (OSError, subprocess.CalledProcessError):
        folders = []
    folders += sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)  # Debian's, newest first
    return next((folder for folder in folders if (folder / "initdb").exists()), None)


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: then run it as the postgres user."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


class Cluster:
    """A running throwaway cluster: ``url(db)`` names a database on its socket."""

    def __init__(self, folder: Path, durable: bool = False) -> None:
        self.folder = folder
        self.durable = durable  # fsync on (benchmarks); the tests run without it
        self.data = folder / "data"
        self._numbers = itertools.count(1)
        self._lifeline: int | None = None  # the write end of the watchdog's pipe
        self._watchdog: subprocess.Popen[bytes] | None = None

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
        options = f"-k {self.folder} -p {PORT} -c listen_addresses=''"
        if not self.durable:
            options += " -c fsync=off"
        self.pg_ctl("-o", options, "-l", str(self.folder / "log"), "-w", "start")
        if self._watchdog is None:
            self._watch()

    def _stop_command(self) -> list[str]:
        bindir = _bindir()
        assert bindir is not None
        return _as_postgres([str(bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"])

    def _watch(self) -> None:
        """Start the cluster's watchdog (:data:`WATCHDOG`)."""
        read, self._lifeline = os.pipe()
        try:
            self._watchdog = subprocess.Popen(
                [sys.executable, "-c", WATCHDOG, json.dumps([self._stop_command(), str(self.folder)])],
                stdin=read,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # not in the test run's process group: Ctrl+C reaches it by the pipe
            )
        finally:
            os.close(read)

    def stop(self) -> None:
        self.pg_ctl("-m", "immediate", "-w", "stop")

    def remove(self) -> None:
        """Stop the cluster and remove its folder; the watchdog, told by its pipe, ends."""
        try:
            self.stop()
        except subprocess.SubprocessError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)
        if self._lifeline is not None:
            os.close(self._lifeline)
            self._lifeline = None
        if self._watchdog is not None:
            try:
                self._watchdog.wait(60)
            except subprocess.TimeoutExpired:
                self._watchdog.kill()
            self._watchdog = None


def start_cluster(parent: str | None = None, durable: bool = False) -> Cluster:
    """Make and start a cluster in a new folder under ``parent`` (default /tmp); ``durable``:
    with fsync, as a real server runs (the tests do without)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise ClusterUnavailable("psycopg is not installed (pip install -e '.[test]')") from None
    bindir = _bindir()
    if bindir is None:
        raise ClusterUnavailable("PostgreSQL's initdb was not found (on PATH or by pg_config --bindir)")
    folder = Path(tempfile.mkdtemp(prefix="pipeline-pg-", dir=parent or "/tmp"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    cluster = Cluster(folder, durable)
    try:
        subprocess.run(
            _as_postgres([str(bindir / "initdb"), "-D", str(cluster.data), "-A", "trust", "-U", "pipeline"]),
            check=True,
            capture_output=True,
            timeout=120,
        )
        cluster.start()
    except (OSError, subprocess.SubprocessError) as exc:
        cluster.remove()
        raise ClusterUnavailable(f"a throwaway PostgreSQL cluster did not start: {exc}") from None
    return cluster
