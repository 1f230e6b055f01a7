"""A throwaway PostgreSQL cluster for the shared-store tests (issue 39).

One cluster per test process (each xdist worker its own), on a Unix socket in a temporary folder
the ``postgres`` user can write (PostgreSQL refuses to run as root), stopped at the end; each
test gets a database of its own. Without PostgreSQL or psycopg the tests are skipped, except
under CI (``CI`` set), where that is a failure: a skipped store test proves nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.pg.cluster import Cluster, ClusterUnavailable, start_cluster


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    """Start a cluster for this test process; stop and remove it at the end."""
    try:
        cluster = start_cluster(os.environ.get("PT_PG_TMP"))
    except ClusterUnavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL tests cannot run under CI: {exc}", pytrace=False)
        pytest.skip(str(exc))
    try:
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture
def pg_url(cluster: Cluster) -> str:
    """A fresh, empty database of the session's cluster."""
    return cluster.new_database()
