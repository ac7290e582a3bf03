"""A throwaway PostgreSQL server for the tests: initdb into a temporary folder, pg_ctl start on a free
port of 127.0.0.1, stopped (and the folder removed) when the test run ends. Never a system service.

The server binaries are Debian's (``postgresql`` package, installed by ``.ci/run``). PostgreSQL
refuses to run as root: run as root, the cluster belongs to the ``postgres`` user (else ``nobody``)
and its folder is made in /tmp, where that user can reach it.
"""

from __future__ import annotations

import atexit
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

SUPERUSER = "cc"


def binaries() -> Path | None:
    """The folder of initdb/pg_ctl/postgres: $PG_BIN, else the newest Debian install, else PATH."""
    candidates = [os.environ.get("PG_BIN", "")] + sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if folder and all(os.access(Path(folder) / b, os.X_OK) for b in ("initdb", "pg_ctl", "postgres")):
            return Path(folder)
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb") and (Path(os.path.realpath(found)).parent / "postgres").exists():
        return Path(os.path.realpath(found)).parent
    return None


def psycopg_available() -> bool:
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        return False
    return True


class Cluster:
    """One running server; :meth:`database` makes a fresh empty database and returns its URL."""

    def __init__(self) -> None:
        bin_dir = binaries()
        assert bin_dir is not None
        self.bin = bin_dir
        self.port = _free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="cc-pg-", dir="/tmp"))
        self.data = self.folder / "data"
        self.user = None
        if os.geteuid() == 0:
            self.user = next(u for u in ("postgres", "nobody") if _exists(u))
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--no-sync",
                  "--locale=C")
        self.start()
        self.stopped = False

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bin / tool), *args]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.folder, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{tool} failed ({done.returncode}): {done.stderr or done.stdout}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new empty database on the server, its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        if not self.stopped:
            self.stopped = True
            try:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
            finally:
                shutil.rmtree(self.folder, ignore_errors=True)

    def restart(self) -> None:
        """Stop the server (its connections are cut) and start it again on the same port (the data stays)."""
        self.stop_for_now()
        self.start()

    def stop_for_now(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def start(self) -> None:
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories='{self.folder}' "
                   "-c fsync=off -c synchronous_commit=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-o", options, "-w", "start")


_cluster: Cluster | None = None


def cluster() -> Cluster:
    """The test run's one server, started on first use and stopped at exit."""
    global _cluster
    if _cluster is None:
        _cluster = Cluster()
        atexit.register(_cluster.stop)
    return _cluster


def available() -> tuple[bool, str]:
    """Whether the tests can run a server here, and what is missing."""
    if binaries() is None:
        return False, "PostgreSQL server binaries (apt-get install postgresql)"
    if not psycopg_available():
        return False, "psycopg 3 (pip install 'context-compactor[postgres]')"
    return True, ""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _exists(user: str) -> bool:
    try:
        pwd.getpwnam(user)
    except KeyError:
        return False
    return True
