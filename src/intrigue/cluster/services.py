"""PostgreSQL, Redis and HAProxy from Debian's packages, run in a folder of one's own.

No system service is used or needed: each program is started on loopback with
its data, socket, log and pid files in one folder, and stopped from that folder.
``make cluster`` (through ``intrigue cluster up``) and the cluster tests start
them the same way.

PostgreSQL refuses to run as root, so as root it runs as the ``postgres`` user
the package creates (``runuser``); its folder must then be reachable by that
user. :func:`reachable_folder` checks that and falls back to a folder under
``/tmp`` when a parent of the preferred one is closed to others.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import string
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

#: Debian packages that provide each program.
PACKAGES = {"postgres": "postgresql", "redis": "redis-server", "proxy": "haproxy"}
HOST = "127.0.0.1"
HAPROXY_TEMPLATE = Path(__file__).with_name("haproxy.cfg")


class ServiceError(RuntimeError):
    """A program could not be installed, started or stopped (the message says which and why)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def pg_bin() -> Path | None:
    """The newest installed PostgreSQL's binaries (Debian keeps them out of PATH)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0)
    return found[-1].parent if found else None


def missing() -> list[str]:
    """The Debian packages still to install for PostgreSQL, Redis and HAProxy."""
    wanted = []
    if pg_bin() is None:
        wanted.append(PACKAGES["postgres"])
    if shutil.which("redis-server") is None:
        wanted.append(PACKAGES["redis"])
    if shutil.which("haproxy") is None and not Path("/usr/sbin/haproxy").exists():
        wanted.append(PACKAGES["proxy"])
    return wanted


def install(quiet: bool = True) -> list[str]:
    """Install the missing packages (``apt-get update`` first; ``sudo`` unless root). Returns them."""
    wanted = missing()
    if not wanted:
        return []
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    output = subprocess.DEVNULL if quiet else None
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *wanted]):
        try:
            subprocess.run(sudo + command, check=True, env=env, stdout=output, stderr=subprocess.PIPE, timeout=900)
        except (OSError, subprocess.SubprocessError) as exc:
            detail = getattr(exc, "stderr", b"") or b""
            raise ServiceError(f"could not install {', '.join(wanted)} with {' '.join(sudo + command)}: "
                               f"{exc} {detail.decode(errors='replace')[-400:]}") from None
    still = missing()
    if still:
        raise ServiceError(f"apt-get finished but {', '.join(still)} is still missing")
    return wanted


def _postgres_user() -> pwd.struct_passwd | None:
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        return None


def reachable_folder(preferred: Path) -> tuple[Path, str | None]:
    """``preferred`` if the ``postgres`` user can reach it, else a new folder under /tmp and why.

    Only matters as root (PostgreSQL then runs as ``postgres``): every parent
    of the folder must let others through (the ``x`` bit for others).
    """
    preferred = preferred.resolve()
    if os.geteuid() != 0:
        return preferred, None
    for parent in [preferred, *preferred.parents]:
        if parent.exists() and not (parent.stat().st_mode & 0o001):
            fallback = Path(tempfile.mkdtemp(prefix="intrigue-cluster-"))
            fallback.chmod(0o755)
            return fallback, (f"{parent} is closed to other users, so the postgres user could not reach "
                              f"{preferred}; the services run in {fallback} instead")
    return preferred, None


def _as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def _run(command: list[str], what: str, timeout: float = 120) -> None:
    try:
        done = subprocess.run(command, capture_output=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError) as exc:
        raise ServiceError(f"{what} failed: {exc}") from None
    if done.returncode != 0:
        raise ServiceError(f"{what} failed (exit {done.returncode}): "
                           f"{(done.stderr or done.stdout).decode(errors='replace')[-800:]}")


def _pid(file: Path) -> int | None:
    try:
        return int(file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _wait_port(port: int, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise ServiceError(f"{what} did not listen on {HOST}:{port} within {timeout:.0f} s")


@dataclass
class Postgres:
    """A PostgreSQL cluster in ``folder/pg`` listening on 127.0.0.1:``port``, database ``intrigue``.

    Authentication is ``trust`` on loopback only: the cluster is a private one
    for a developer's machine or a test run, reachable only from this machine.
    """

    folder: Path
    port: int = 0
    durable: bool = True  # fsync; tests turn it off (they kill nodes, never the machine)

    @property
    def data(self) -> Path:
        return self.folder / "pg"

    @property
    def url(self) -> str:
        return f"postgresql://postgres@{HOST}:{self.port}/intrigue"

    def start(self) -> "Postgres":
        binaries = pg_bin()
        if binaries is None:
            raise ServiceError("PostgreSQL is not installed (Debian package postgresql)")
        self.port = self.port or free_port()
        self.folder.mkdir(parents=True, exist_ok=True)
        user = _postgres_user()
        if os.geteuid() == 0 and user is None:
            raise ServiceError("running as root, but there is no postgres user to run PostgreSQL as")
        if not (self.data / "PG_VERSION").exists():
            self.data.mkdir(parents=True, exist_ok=True)
            self.data.chmod(0o700)
            if os.geteuid() == 0 and user is not None:
                os.chown(self.data, user.pw_uid, user.pw_gid)
            _run(_as_postgres([str(binaries / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust",
                               "-E", "UTF8", "--no-sync", "--no-instructions"]), "initdb")
        options = f"-p {self.port} -k {self.data} -c listen_addresses={HOST} -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        _run(_as_postgres([str(binaries / "pg_ctl"), "-D", str(self.data), "-o", options, "-l",
                           str(self.data / "log"), "-w", "-t", "60", "start"]), "starting PostgreSQL")
        _wait_port(self.port, "PostgreSQL")
        self._create_database()
        return self

    def _create_database(self) -> None:
        import psycopg  # noqa: PLC0415 - the cluster extra

        with psycopg.connect(f"postgresql://postgres@{HOST}:{self.port}/postgres", autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = 'intrigue'").fetchone() is None:
                conn.execute("CREATE DATABASE intrigue")

    def stop(self) -> None:
        binaries = pg_bin()
        if binaries is None or not (self.data / "postmaster.pid").exists():
            return
        _run(_as_postgres([str(binaries / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"]),
             "stopping PostgreSQL")


@dataclass
class Redis:
    """A Redis server in ``folder/redis`` on 127.0.0.1:``port``, keeping nothing on disk (leases are soft state)."""

    folder: Path
    port: int = 0

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    @property
    def pidfile(self) -> Path:
        return self.folder / "redis" / "redis.pid"

    def start(self) -> "Redis":
        server = shutil.which("redis-server")
        if server is None:
            raise ServiceError("Redis is not installed (Debian package redis-server)")
        self.port = self.port or free_port()
        home = self.folder / "redis"
        home.mkdir(parents=True, exist_ok=True)
        _run([server, "--port", str(self.port), "--bind", HOST, "--save", "", "--appendonly", "no",
              "--daemonize", "yes", "--dir", str(home), "--pidfile", str(self.pidfile),
              "--logfile", str(home / "redis.log"), "--maxclients", "10000"], "starting Redis")
        _wait_port(self.port, "Redis")
        return self

    def stop(self) -> None:
        _stop_pid(self.pidfile)


def _stop_pid(pidfile: Path, timeout: float = 10) -> None:
    pid = _pid(pidfile)
    if not _alive(pid):
        return
    assert pid is not None
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _alive(pid):
        os.kill(pid, signal.SIGKILL)


@dataclass
class Proxy:
    """HAProxy on 127.0.0.1:``port`` in front of the nodes, from the shipped ``haproxy.cfg``.

    WebSockets pass through (HTTP mode keeps the upgraded connection as a
    tunnel); every node's ``/api/health`` is checked every 500 ms, and a node
    marked down has its sessions closed so that clients reconnect elsewhere.
    """

    folder: Path
    nodes: list[tuple[str, int]]
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def pidfile(self) -> Path:
        return self.folder / "proxy" / "haproxy.pid"

    def config(self) -> str:
        servers = "\n".join(f"    server {name} {HOST}:{port} check" for name, port in self.nodes)
        return string.Template(HAPROXY_TEMPLATE.read_text()).substitute(bind=f"{HOST}:{self.port}", servers=servers)

    def start(self) -> "Proxy":
        binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
        if not Path(binary).exists():
            raise ServiceError("HAProxy is not installed (Debian package haproxy)")
        self.port = self.port or free_port()
        home = self.folder / "proxy"
        home.mkdir(parents=True, exist_ok=True)
        config = home / "haproxy.cfg"
        config.write_text(self.config())
        _run([binary, "-c", "-q", "-f", str(config)], "checking the HAProxy configuration")
        _run([binary, "-D", "-f", str(config), "-p", str(self.pidfile)], "starting HAProxy")
        _wait_port(self.port, "HAProxy")
        return self

    def stop(self) -> None:
        _stop_pid(self.pidfile)
