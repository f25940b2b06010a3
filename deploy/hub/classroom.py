"""A demo class on one machine: JupyterHub, nbgrader's exchange and the formgrader, on 127.0.0.1 only.

    ./run.sh classroom [--dir DIR] [--port PORT] [--shared-user]

One instructor, one TA and three students, each with a single-user JupyterLab spawned by the hub
(``deploy/hub/jupyterhub_config.py``) behind the real configurable-http-proxy (``deploy/hub/package.json``).
The instructor and the TA form the grader group; they reach the formgrader, a hub service that runs as
the grader account in the course directory. Students get the *Assignments* tab (nbgrader's
assignment_list extension) but neither the formgrader nor *Create Assignment*. nbgrader's exchange is a
directory of its own. The students' course content and their armlab come from the student edition
(``deploy/student_edition.py``), never from this repository.

Isolation. Run as root (a VM, CI), every person is a real OS user (``armlab-instructor``, ``armlab-ta``,
``armlab-s1`` … ``armlab-s3``, and ``armlab-grader`` for the course directory), created here with
``useradd`` and spawned with JupyterHub's LocalProcessSpawner: homes are private (0700), the course
directory (solutions, gradebook, hidden tests) is readable by the grader account only, and the exchange
has nbgrader's own permissions. ``--shared-user`` (the default when not run as root) uses
SimpleLocalProcessSpawner instead: every server runs as *you*, so **students are not isolated from each
other or from the course directory**. It is a look at the workflow, never a class.

The authenticator is a shared demo password (JupyterHub's SharedPasswordAuthenticator), new for every
start and printed on the terminal; it is used only here. A real class uses real authentication
(``deploy/hub/jupyterhub_config.production.py``, docs/instructor.md).

tests/integration/test_hub.py drives the same class through the hub's REST API.
"""

from __future__ import annotations

import argparse
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "deploy"))
import student_edition  # noqa: E402

COURSE_ID = "armlab"  # the formgrader service has the course's name (nbgrader's course list relies on it)
INSTRUCTOR, TA = "armlab-instructor", "armlab-ta"
#: the students and their names, as the formgrader lists them (nbgrader's gradebook: first name, last name)
ROSTER = {"armlab-s1": ("Ada", "Lovelace"), "armlab-s2": ("Alan", "Turing"), "armlab-s3": ("Grace", "Hopper")}
STUDENTS = tuple(ROSTER)
GRADER = "armlab-grader"  # the OS account of the formgrader service: owns the course directory
GRADERS = (INSTRUCTOR, TA)
SHELL = "/bin/bash"  # every person's shell: the Terminal, a notebook's !armlab-grade
USERS = (*GRADERS, *STUDENTS)
LOOPBACK = "127.0.0.1"


@dataclass
class Classroom:
    """Everything jupyterhub_config.py and the test need to know, saved as ``DIR/classroom.json``."""

    root: str
    port: int
    real_users: bool
    password: str
    admin_token: str
    python: str  # the class's interpreter (env/bin/python): armlab from the student edition's wheel
    ld_library_path: str  # "" unless the interpreter is a copy (class_python)
    exchange: str
    course: str  # the grader's course directory (nbgrader CourseDirectory.root)
    homes: dict[str, str] = field(default_factory=dict)
    proxy: str = ""
    service_port: int = 0  # the formgrader service
    hub_port: int = 0  # the hub's internal API (the proxy forwards /hub/ there)
    proxy_api_port: int = 0

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def save(self) -> Path:
        path = Path(self.root) / "classroom.json"
        path.write_text(json.dumps(asdict(self), indent=1))
        path.chmod(0o600)  # holds the admin token and the password
        return path

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Classroom":
        return cls(**json.loads(Path(path).read_text()))


def say(msg: str) -> None:
    print(f"==> {msg}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def port_in_use(port: int) -> bool:
    """Whether ``127.0.0.1:port`` is taken. The proxy would only log that (EADDRINUSE) and keep running without
    its public port, so the class would never answer."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as node binds: a TIME_WAIT is not "in use"
        try:
            s.bind((LOOPBACK, port))
        except OSError:
            return True
    return False


def proxy_command() -> str:
    chp = HERE / "node_modules" / ".bin" / "configurable-http-proxy"
    if not chp.exists():
        raise SystemExit(f"{chp} is missing: run `npm ci` in {HERE} (./run.sh classroom does it)")
    return str(chp)


# --- OS users ------------------------------------------------------------------------------------------------


def ensure_user(name: str, home: Path) -> None:
    """Create the system user ``name`` with ``home`` and a shell, or point an existing one at them. No password: nobody
    logs in as them but through the hub; the shell is what their Terminal and a notebook's ``!command`` run."""
    try:
        pw = pwd.getpwnam(name)
    except KeyError:
        subprocess.run(
            [
                "useradd",
                "--system",
                "--user-group",
                "--no-create-home",
                "--home-dir",
                str(home),
                "--shell",
                SHELL,
                name,
            ],
            check=True,
        )
    else:
        for flag, now, want in (("--home", pw.pw_dir, str(home)), ("--shell", pw.pw_shell, SHELL)):
            if now != want:  # an account of an earlier class (its shell was /usr/sbin/nologin)
                r = subprocess.run(["usermod", flag, want, name], capture_output=True, text=True)
                if r.returncode:
                    raise SystemExit(
                        f"usermod {flag} {want} {name} failed ({r.stderr.strip()}): is another class "
                        f"still running? (ps -u {name})"
                    )


def chown_tree(path: Path, user: str) -> None:
    pw = pwd.getpwnam(user)
    for p in [path, *path.rglob("*")]:
        os.lchown(p, pw.pw_uid, pw.pw_gid)


def run_as(user: str | None, cmd: list[str], ld_library_path: str = "", **kw) -> subprocess.CompletedProcess:
    if ld_library_path:
        cmd = ["env", f"LD_LIBRARY_PATH={ld_library_path}", *cmd]
    if user is not None:
        cmd = ["runuser", "-u", user, "--", *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)


# --- the class's Python environment ----------------------------------------------------------------------------


def _site_packages() -> Path:
    import sysconfig

    return Path(sysconfig.get_paths()["purelib"])


def class_python(root: Path, probe_user: str | None) -> tuple[Path, str]:
    """This very interpreter (the overlaid packages are compiled for it), runnable by ``probe_user``:
    ``(python, LD_LIBRARY_PATH)``. An interpreter the class's accounts cannot run (pyenv under /root) is copied
    to ``root/python`` without its site-packages and tests; its libpython is then found through
    LD_LIBRARY_PATH (pyenv's RUNPATH points into /root)."""
    v = f"{sys.version_info.major}.{sys.version_info.minor}"
    base = Path(sys.base_prefix)
    check = ["-c", f"import sys, re; assert sys.version == {sys.version!r}"]
    python = base / "bin" / f"python{v}"
    if run_as(probe_user, [str(python), *check]).returncode == 0:
        return python, ""
    copy = root / "python"
    if copy.exists():
        shutil.rmtree(copy)
    say(f"{base} is not readable by the class's accounts: copying the interpreter to {copy}")
    shutil.copytree(
        base,
        copy,
        symlinks=True,
        ignore=shutil.ignore_patterns(
            "site-packages", "test", "idlelib", "tkinter", "turtledemo", "config-*", "*.a", "include", "share"
        ),
    )
    for p in [copy, *copy.rglob("*")]:
        if not p.is_symlink():
            p.chmod(p.stat().st_mode | stat.S_IROTH | (stat.S_IXOTH if p.is_dir() or p.stat().st_mode & 0o100 else 0))
    python, lib = copy / "bin" / f"python{v}", str(copy / "lib")
    r = run_as(probe_user, ["env", f"LD_LIBRARY_PATH={lib}", str(python), *check])
    if r.returncode:
        raise SystemExit(f"the copied interpreter {python} does not run as {probe_user}: {r.stderr.strip()}")
    return python, lib


def build_env(env: Path, wheel: Path, probe_user: str | None) -> tuple[Path, str]:
    """A venv every user of the class can run: armlab from the student edition's wheel, the rest (JupyterLab,
    nbgrader, jupyterhub) from this environment's site-packages, which it sees through a ``.pth`` line.

    The editable armlab of this checkout is *not* visible there (``.pth`` files of the overlaid
    site-packages are not processed), so no student kernel reads this repository. Returns
    ``(python, LD_LIBRARY_PATH)``.
    """
    if env.exists():
        shutil.rmtree(env)
    v = f"{sys.version_info.major}.{sys.version_info.minor}"
    py, ld = class_python(env.parent, probe_user)
    subprocess.run(
        [str(py), "-m", "venv", "--without-pip", str(env)],
        check=True,
        env={**os.environ, "LD_LIBRARY_PATH": ld} if ld else None,
    )
    site = env / "lib" / f"python{v}" / "site-packages"
    (site / "zz_armlab_classroom.pth").write_text(f"{_site_packages()}\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-compile", "--target", str(site), str(wheel)],
        check=True,
    )
    # console scripts (jupyter, nbgrader, alembic: nbgrader runs the alembic found on PATH) on the env's python
    src_bin = Path(sys.executable).parent
    for script in src_bin.iterdir():
        try:
            head, _, rest = script.read_bytes().partition(b"\n")
        except (IsADirectoryError, PermissionError):
            continue
        if head.startswith(b"#!") and head.endswith(b"python") and not (env / "bin" / script.name).exists():
            out = env / "bin" / script.name
            out.write_bytes(b"#!" + str(env / "bin" / "python").encode() + b"\n" + rest)
            out.chmod(0o755)
    # Jupyter's data (Lab and its extensions, nbgrader's Assignments tab) and system config, as installed here
    shutil.copytree(Path(sys.prefix) / "etc" / "jupyter", env / "etc" / "jupyter")
    (env / "share").mkdir(exist_ok=True)
    (env / "share" / "jupyter").symlink_to(Path(sys.prefix) / "share" / "jupyter")
    return env / "bin" / "python", ld


# --- configuration files of the class -----------------------------------------------------------------------


def write_role_config(root: Path, exchange: Path, real_users: bool) -> None:
    """config/student: every user's own server (Assignments tab only); config/grader: the formgrader service."""
    nbg = (
        f"c = get_config()  # noqa: F821\nc.CourseDirectory.course_id = {COURSE_ID!r}\n"
        f"c.Exchange.root = {str(exchange)!r}\n"
    )
    for role in ("student", "grader"):
        d = root / "config" / role
        (d / "labconfig").mkdir(parents=True, exist_ok=True)
        student = role == "student"
        # the grader runs the students' Python (the class's env): released homework carries their kernel's metadata
        extra = "" if student else "c.StampKernelMetadata.enabled = True\n"
        if student and not real_users:
            # nbgrader names a submission after the OS user, the same for everybody here: use the hub's name
            extra = "import os\nc.CourseDirectory.student_id = os.environ.get('JUPYTERHUB_USER', '*')\n"
        (d / "nbgrader_config.py").write_text(nbg + extra)
        (d / "jupyter_server_config.json").write_text(
            json.dumps(
                {
                    "ServerApp": {
                        # a Terminal runs the person's shell as it is, not as a login shell: /etc/profile would
                        # replace PATH and lose the class's environment (armlab-grade, nbgrader, jupyter)
                        "terminado_settings": {"shell_command": [SHELL]},
                        "jpserver_extensions": {
                            "nbgrader.server_extensions.formgrader": not student,
                            "nbgrader.server_extensions.assignment_list": True,
                            "nbgrader.server_extensions.course_list": True,
                            "nbgrader.server_extensions.validate_assignment": True,
                            "jupyter_lsp": False,  # no language server is installed: its start-up scan only costs time
                        },
                    }
                },
                indent=1,
            )
        )
        disabled = (
            {"@jupyter/nbgrader:formgrader": True, "@jupyter/nbgrader:create-assignment": True} if student else {}
        )
        (d / "labconfig" / "page_config.json").write_text(json.dumps({"disabledExtensions": disabled}, indent=1))
    for p in [root / "config", *(root / "config").rglob("*")]:
        p.chmod(0o755 if p.is_dir() else 0o644)


def write_roster(course: Path) -> None:
    """The students, with their names, in the course's gradebook (``nbgrader db student add`` does the same)."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", COURSE_ID) as gb:
        for student, (first, last) in ROSTER.items():
            gb.update_or_create_student(student, first_name=first, last_name=last)


def setup(root: Path, port: int, *, real_users: bool, edition: Path | None = None) -> Classroom:
    """Build the class in ``root``: users, homes with the student edition, the course directory, the
    exchange, the class's Python environment. Existing homes (students' work) are kept."""
    root = root.resolve()
    root.mkdir(parents=True, exist_ok=True)
    root.chmod(0o755)
    if real_users and os.geteuid() != 0:
        raise SystemExit("real OS users need root; use --shared-user for a (not isolated) demo as yourself")
    if real_users:
        # every directory above root must be traversable by the class's accounts
        for parent in root.parents:
            if not os.stat(parent).st_mode & stat.S_IXOTH:
                raise SystemExit(f"{parent} is not traversable by other users; choose --dir elsewhere (e.g. /srv)")

    homes = {u: root / "home" / u for u in (*USERS, GRADER)}
    (root / "home").mkdir(exist_ok=True)
    (root / "home").chmod(0o755)
    if real_users:
        for user, home in homes.items():
            ensure_user(user, home)

    say("building the student edition (what students get)")
    edition = edition or student_edition.build(root / "edition", git=True)
    for p in [edition, *edition.rglob("*")]:  # readable by the class's accounts (nbgitpuller, the wheel)
        p.chmod(0o755 if p.is_dir() else 0o644)
    (wheel,) = (edition / "wheels").glob("armlab-*.whl")

    say("building the class's Python environment (armlab from the student edition's wheel)")
    python, ld_library_path = build_env(root / "env", wheel, STUDENTS[0] if real_users else None)
    for p in [root / "env", *(root / "env").rglob("*")]:
        if not p.is_symlink():  # readable (and the directories traversable) by everyone
            p.chmod(p.stat().st_mode | stat.S_IROTH | (stat.S_IXOTH if p.is_dir() else 0))

    exchange = root / "exchange"
    exchange.mkdir(exist_ok=True)
    exchange.chmod(0o1777 if real_users else 0o755)  # sticky: nobody removes another one's files
    write_role_config(root, exchange, real_users)

    for user in USERS:  # every user's home, with the course from the student edition (never overwritten)
        home = homes[user]
        first = not home.exists()
        home.mkdir(exist_ok=True)
        if first:
            shutil.copytree(
                edition, home / "armlab", ignore=shutil.ignore_patterns(".git", "wheels", "requirements.txt")
            )
        if real_users:
            chown_tree(home, user)
        home.chmod(0o700)

    grader_home = homes[GRADER]  # the instructor's course directory: sources with solutions and hidden tests
    course = grader_home / "course"
    grader_home.mkdir(exist_ok=True)
    if not course.exists():
        course.mkdir()
        shutil.copytree(REPO / "solutions", course / "solutions")
        shutil.copy(REPO / "nbgrader_config.py", course / "nbgrader_config.py")
    write_roster(course)
    if real_users:
        chown_tree(grader_home, GRADER)
    grader_home.chmod(0o700)

    hub = root / "hub"  # the hub's own state: database, cookie secret (root only)
    hub.mkdir(exist_ok=True)
    hub.chmod(0o700)

    cls = Classroom(
        root=str(root),
        port=port,
        real_users=real_users,
        password=secrets.token_urlsafe(9),
        admin_token=secrets.token_hex(32),
        python=str(python),
        ld_library_path=ld_library_path,
        exchange=str(exchange),
        course=str(course),
        homes={u: str(h) for u, h in homes.items()},
        proxy=proxy_command(),
        service_port=free_port(),
        hub_port=free_port(),
        proxy_api_port=free_port(),
    )
    cls.save()
    return cls


# --- running it ----------------------------------------------------------------------------------------------


def hub_command(cls: Classroom) -> list[str]:
    jupyterhub = Path(sys.executable).parent / "jupyterhub"
    return [str(jupyterhub), "-f", str(HERE / "jupyterhub_config.py")]


def start(cls: Classroom, log: Path | None = None) -> subprocess.Popen:
    """Start the hub (it starts the proxy and the formgrader service) and wait until it answers."""
    env = {**os.environ, "ARMLAB_CLASSROOM": str(Path(cls.root) / "classroom.json")}
    env.pop("PYTHONPATH", None)  # nothing of this checkout leaks into the servers
    out = open(log, "ab") if log else None
    proc = subprocess.Popen(
        hub_command(cls),
        cwd=Path(cls.root) / "hub",
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT if out else None,
        start_new_session=True,
    )
    deadline = time.monotonic() + 180  # the hub answers once the formgrader service is up (it waits up to 120 s)
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            stop(cls, proc)
            tail = "".join(log.read_text().splitlines(True)[-40:]) if log else ""
            raise RuntimeError(f"jupyterhub exited with {proc.returncode}:\n{tail}")
        try:
            with urllib.request.urlopen(f"{cls.url}/hub/api/", timeout=2) as r:
                if r.status == 200:
                    return proc
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.3)
    stop(cls, proc)
    raise RuntimeError("the hub did not answer within 180 s")


def class_pids(cls: Classroom) -> set[int]:
    """Processes of the class still alive: the hub's descendants, the proxy, the servers the hub recorded, and (real
    users) every process of the class's accounts, which run nothing but what this hub started."""
    pids = {p for p in [_proxy_pid(cls)] if p}
    try:  # everything the hub started and their children: proxy, service, servers, kernels
        hub = int((Path(cls.root) / "hub" / "jupyterhub.pid").read_text().strip())
    except (OSError, ValueError):
        hub = None
    if hub:
        parent = {}
        for d in Path("/proc").iterdir():
            if d.name.isdigit():
                try:
                    parent[int(d.name)] = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
                except (OSError, IndexError, ValueError):
                    pass
        for pid in parent:
            p, seen = pid, 0
            while p in parent and seen < 64:
                if parent[p] == hub:
                    pids.add(pid)
                    break
                p, seen = parent[p], seen + 1
    db = Path(cls.root) / "hub" / "jupyterhub.sqlite"
    if db.exists():
        try:
            with sqlite3.connect(db, timeout=5) as con:
                for (state,) in con.execute("select state from spawners"):
                    pid = json.loads(state or "{}").get("pid")
                    if pid:
                        pids.add(int(pid))
        except sqlite3.Error:
            pass
    if cls.real_users:
        uids = {pwd.getpwnam(u).pw_uid for u in (*USERS, GRADER)}
        for d in Path("/proc").iterdir():
            if d.name.isdigit():
                try:
                    if d.stat().st_uid in uids:
                        pids.add(int(d.name))
                except FileNotFoundError:
                    pass
    return {p for p in pids if _alive(p)}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie is dead
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def stop(cls: Classroom, proc: subprocess.Popen, timeout: float = 20) -> None:
    """Stop the class: its servers and the service first (SIGTERM: a Jupyter server shuts its kernels down; the
    hub's own SIGINT would wait for a confirmation that never comes), then the hub, which stops the proxy, then
    anything of the class left over."""
    proxy = _proxy_pid(cls)
    _signal_all(class_pids(cls) - {proxy, proc.pid}, signal.SIGTERM, wait=10)
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        _signal_all(class_pids(cls), sig, wait=5)


def _proxy_pid(cls: Classroom) -> int | None:
    path = Path(cls.root) / "hub" / "jupyterhub-proxy.pid"
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def _signal_all(pids: set[int], sig: int, wait: float) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + wait
    while pids and time.monotonic() < deadline:
        pids = {p for p in pids if _alive(p)}
        time.sleep(0.1)


def banner(cls: Classroom) -> str:
    people = "\n".join(
        f"    {u:<18} {role}"
        for u, role in (
            (INSTRUCTOR, "instructor (grader group: Services → armlab is the formgrader)"),
            (TA, "teaching assistant (grader group)"),
            *((s, "student") for s in STUDENTS),
        )
    )
    iso = (
        "Every person is a real OS user: students are isolated from each other and from the course directory."
        if cls.real_users
        else "WARNING: --shared-user: every server runs as you. Students are NOT isolated from each other or from\n"
        "the course directory (solutions, gradebook). A look at the workflow only, never a class."
    )
    return f"""
ArmLab demo class: log in at  {cls.url}/hub/login   (127.0.0.1 only)

  password for everybody (demo only, new at every start):  {cls.password}
{people}

  formgrader:   {cls.url}/services/{COURSE_ID}/formgrader   (instructor and TA only)
  course files: {cls.course}   exchange: {cls.exchange}
{iso}
Ctrl-C stops the hub, the proxy and every server.
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="ArmLab demo class on 127.0.0.1 (JupyterHub + nbgrader)")
    root_default = (
        "/srv/armlab-classroom"
        if os.geteuid() == 0
        else str(Path(os.environ.get("XDG_STATE_HOME", Path.home() / ".local" / "state")) / "armlab-classroom")
    )
    ap.add_argument("--dir", type=Path, default=Path(root_default), help=f"the class's files (default {root_default})")
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument(
        "--shared-user",
        action="store_true",
        help="run every server as you (SimpleLocalProcessSpawner): NO isolation between students",
    )
    args = ap.parse_args(argv)
    real_users = os.geteuid() == 0 and not args.shared_user
    if port_in_use(args.port):  # before anything is built, not after the hub's 180 s wait
        other = next((p for p in range(args.port + 1, args.port + 100) if not port_in_use(p)), None) or free_port()
        raise SystemExit(
            f"ERROR: {LOOPBACK}:{args.port} is already in use (another Jupyter, JupyterHub or demo class?): stop "
            f"it, or choose another port, e.g. ./run.sh classroom --port {other}"
        )

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    # Ctrl-C, and also SIGTERM/SIGHUP (a closed terminal, a service manager), stop the whole class
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, interrupt)
    cls = setup(args.dir, args.port, real_users=real_users)
    say(f"starting the hub on {cls.url} (log: {Path(cls.root) / 'hub' / 'jupyterhub.log'})")
    log = Path(cls.root) / "hub" / "jupyterhub.log"
    try:
        proc = start(cls, log=log)
    except RuntimeError as e:  # start() has stopped what it started
        raise SystemExit(f"ERROR: {e}\n(the hub's whole log: {log})") from None
    print(banner(cls), flush=True)
    try:
        proc.wait()
    except KeyboardInterrupt:
        say("stopping the class")
    finally:
        stop(cls, proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
