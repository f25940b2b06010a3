"""A private PostgreSQL server on 127.0.0.1 for one test: Debian's ``postgresql`` binaries, a fresh cluster in a
temporary directory, trust authentication for one user, stopped and removed afterwards.

PostgreSQL refuses to run as root; as root the cluster belongs to the ``postgres`` system user.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

BIN = Path("/usr/lib/postgresql/15/bin")


def available() -> bool:
    return (BIN / "initdb").is_file() or shutil.which("initdb") is not None


def _bin(name: str) -> str:
    return str(BIN / name) if (BIN / name).is_file() else shutil.which(name) or name


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def private_postgres() -> Iterator[str]:
    """Yield the SQLAlchemy URL of a new, empty database on a server that lives as long as the block."""
    run_as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    home = Path(tempfile.mkdtemp(prefix="armlab-pg-"))
    data, port = home / "data", _free_port()
    if run_as:
        shutil.chown(home, "postgres")
    try:
        subprocess.run(
            [*run_as, _bin("initdb"), "-D", str(data), "-U", "armlab", "--auth=trust", "-E", "UTF8"],
            check=True,
            capture_output=True,
            timeout=120,
        )
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {home} -c fsync=off"
        subprocess.run(
            [
                *run_as,
                _bin("pg_ctl"),
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(home / "log"),
                "-w",
                "-t",
                "60",
                "start",
            ],
            check=True,
            capture_output=True,
            timeout=90,
        )
        try:
            yield f"postgresql://armlab@127.0.0.1:{port}/postgres"
        finally:
            subprocess.run(
                [*run_as, _bin("pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                capture_output=True,
                timeout=60,
            )
    finally:
        shutil.rmtree(home, ignore_errors=True)
