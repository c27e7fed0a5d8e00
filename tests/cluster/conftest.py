"""Real PostgreSQL and Redis for the cluster tests, started once per session in a folder under /tmp.

They are installed from Debian's packages if missing (as ``make test`` does in
CI); the tests skip, saying why, only if that installation is impossible here.
Each test gets a database of its own and a Redis key prefix of its own.
"""

from __future__ import annotations

import itertools
import shutil
import uuid
import tempfile
from pathlib import Path

import pytest

from intrigue.cluster import services

_counter = itertools.count()


@pytest.fixture(scope="session")
def service_folder():
    folder = Path(tempfile.mkdtemp(prefix="intrigue-test-cluster-"))
    folder.chmod(0o755)  # PostgreSQL runs as the postgres user when we are root
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def services_installed():
    for module in ("psycopg", "redis"):
        try:
            __import__(module)
        except ImportError:
            pytest.skip(f"the cluster extra is not installed ({module} is missing): "
                        "pip install -e '.[test,cluster]' (make test does)")
    try:
        services.install()
    except services.ServiceError as exc:
        pytest.skip(f"PostgreSQL, Redis and HAProxy cannot be installed on this machine: {exc}")


@pytest.fixture(scope="session")
def postgres(services_installed, service_folder):
    server = services.Postgres(service_folder, durable=False).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_server(services_installed, service_folder):
    server = services.Redis(service_folder).start()
    yield server
    server.stop()


@pytest.fixture
def pg_url(postgres):
    """A fresh, empty database on the session's PostgreSQL."""
    import psycopg

    name = f"t{next(_counter)}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(postgres.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield postgres.url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def make_cluster(pg_url, redis_server, service_folder):
    """Nodes (and a proxy) of a new cluster on a fresh database; stopped after the test."""
    from intrigue.cluster.local import LocalCluster

    made = []

    def make(lease: float = 1.5, extra: list[str] | None = None) -> LocalCluster:
        name = f"t{uuid.uuid4().hex[:8]}"
        cluster = LocalCluster(service_folder / name, pg_url, redis_server.url, lease,
                               ["--bot-delay", "0", "--room-quota", "10000", "--connect-rate", "10000", "--cluster-name", name,
                                *(extra or [])])
        made.append(cluster)
        return cluster

    yield make
    for cluster in made:
        cluster.stop()
