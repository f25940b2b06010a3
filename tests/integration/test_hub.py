"""A whole homework cycle on a real JupyterHub: the demo class of deploy/hub/classroom.py (./run.sh classroom).

A real hub behind the real configurable-http-proxy, real single-user JupyterLab servers and nbgrader's
file-system exchange, all on 127.0.0.1. Every step is the REST call that JupyterLab's *Assignments* tab
(nbgrader's ``/assignments``, ``/assignments/fetch``, ``/assignments/submit``,
``/assignments/fetch_feedback``) or the formgrader (``/formgrader/api/...``) makes; answers are written
through the contents API (``/api/contents``) as the editor saves them; servers are started through the hub's
REST API (``/hub/api/users/<name>/server``), as the hub's home page does.

Run as root (CI), every person is a real OS user, so the test also proves what a student's processes (their
kernel runs as them) cannot read: another student's files, the course directory (solutions, gradebook) and
other students' submissions in the exchange.
"""

from __future__ import annotations

import json
import os
import re
import pwd
import shutil
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("jupyterhub")
requests = pytest.importorskip("requests")

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "deploy" / "hub"))
if str(REPO / "tests") not in sys.path:  # `support` without PYTHONPATH=tests (./run.sh test tests/integration/...)
    sys.path.append(str(REPO / "tests"))
import classroom as cr  # noqa: E402
from support.nbgrader_harness import OUTCOMES, hw01_submissions  # noqa: E402

HW = "hw01_transforms"
NB = f"{HW}/{HW}.ipynb"
RIGHT, WRONG, BLANK = cr.STUDENTS
TIMEOUT = 60  # bound of every single wait (a server start, an autograde)

pytestmark = pytest.mark.timeout(300)


def _proxy_or_skip() -> None:
    chp = cr.HERE / "node_modules" / ".bin" / "configurable-http-proxy"
    if not chp.exists() or not shutil.which("node"):
        msg = f"{chp} or node missing: run `npm ci` in deploy/hub (./run.sh test does it)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(msg)
        pytest.skip(msg)


@pytest.fixture(scope="module")
def hub():
    """The demo class, started; stopped afterwards (hub, proxy, servers, kernels, service), also on failure."""
    _proxy_or_skip()
    # as root every person is an OS user; ARMLAB_HUB_SHARED_USER=1 tries the not-isolated --shared-user class
    real_users = os.geteuid() == 0 and os.environ.get("ARMLAB_HUB_SHARED_USER") != "1"
    # not under pytest's basetemp: that is private to whoever runs pytest, and the class's accounts need /tmp/x
    root = Path(tempfile.mkdtemp(prefix="armlab-hub-test-"))
    root.chmod(0o755)
    t0 = time.monotonic()
    cls = cr.setup(root, cr.free_port(), real_users=real_users)
    log = root / "hub" / "jupyterhub.log"
    proc = None
    try:
        t1 = time.monotonic()
        proc = cr.start(cls, log=log)
        print(f"class set up in {t1 - t0:.0f} s, hub up in {time.monotonic() - t1:.0f} s")
        yield cls
    finally:
        if log.exists():  # shown by pytest when the test fails
            print(log.read_text()[-30000:])
        if proc is not None:
            cr.stop(cls, proc)
        left = cr.class_pids(cls)
        shutil.rmtree(root, ignore_errors=True)
        assert not left, f"processes of the class still running: {left}"


class Client:
    """One person: a requests session with their own hub API token."""

    def __init__(self, cls: cr.Classroom, token: str, name: str):
        self.base, self.name = cls.url, name
        self.s = requests.Session()
        self.s.headers["Authorization"] = f"token {token}"

    def req(self, method: str, path: str, expect: int | tuple[int, ...] | None = 200, **kw):
        r = self.s.request(method, self.base + path, timeout=kw.pop("timeout", TIMEOUT), allow_redirects=False, **kw)
        if expect is not None:
            ok = (expect,) if isinstance(expect, int) else expect
            assert r.status_code in ok, f"{self.name}: {method} {path} -> {r.status_code} {r.text[:500]}"
        return r

    # the student's own server
    def user(self, path: str) -> str:
        return f"/user/{self.name}{path}"

    def assignments(self, action: str | None = None) -> list | dict:
        body = json.dumps({"course_id": cr.COURSE_ID, "assignment_id": HW})
        if action is None:
            return self.req("GET", self.user(f"/assignments?course_id={cr.COURSE_ID}")).json()
        return self.req("POST", self.user(f"/assignments/{action}"), data=body).json()

    # the formgrader service
    def formgrader(self, method: str, path: str, **kw):
        return self.req(method, f"/services/{cr.COURSE_ID}/formgrader/api{path}", **kw)


def wait(pred, what: str, timeout: float = TIMEOUT, every: float = 0.5):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s: {what}")


def run_in_kernel(st: "Client", code: str) -> str:
    """Start a kernel on the student's server (POST /api/kernels, as JupyterLab does), run ``code`` over the kernel's
    websocket, return its stdout, shut the kernel down."""
    import uuid

    import websocket

    kid = st.req("POST", st.user("/api/kernels"), json={"name": "python3"}, expect=201).json()["id"]
    url = st.base.replace("http://", "ws://") + st.user(f"/api/kernels/{kid}/channels")
    ws = websocket.create_connection(url, header=[f"Authorization: {st.s.headers['Authorization']}"], timeout=TIMEOUT)
    try:
        msg_id = uuid.uuid4().hex
        ws.send(
            json.dumps(
                {
                    "header": {
                        "msg_id": msg_id,
                        "msg_type": "execute_request",
                        "username": st.name,
                        "session": uuid.uuid4().hex,
                        "version": "5.3",
                    },
                    "parent_header": {},
                    "metadata": {},
                    "channel": "shell",
                    "buffers": [],
                    "content": {
                        "code": code,
                        "silent": False,
                        "store_history": False,
                        "user_expressions": {},
                        "allow_stdin": False,
                    },
                }
            )
        )
        out, deadline = [], time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv())
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "stream":
                out.append(msg["content"]["text"])
            elif msg["msg_type"] == "error":
                out.append("\n".join(msg["content"]["traceback"]))
            elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                return "".join(out)
        raise AssertionError(f"the kernel did not answer within {TIMEOUT} s")
    finally:
        ws.close()
        st.req("DELETE", st.user(f"/api/kernels/{kid}"), expect=204)


def run_in_terminal(person: "Client", command: str, until: str, timeout: float = 240) -> str:
    """Open a Terminal on the formgrader service (POST /api/terminals, as JupyterLab's launcher does), type
    ``command``, return what it printed once the regular expression ``until`` matches; the terminal is closed."""
    import websocket

    base = f"/services/{cr.COURSE_ID}"
    name = person.req("POST", f"{base}/api/terminals").json()["name"]
    url = person.base.replace("http://", "ws://") + f"{base}/terminals/websocket/{name}"
    ws = websocket.create_connection(url, header=[f"Authorization: {person.s.headers['Authorization']}"], timeout=30)
    out: list[str] = []
    try:
        ws.send(json.dumps(["stdin", command + "\r"]))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not re.search(until, "".join(out)):
            try:
                kind, *data = json.loads(ws.recv())
            except websocket.WebSocketTimeoutException:
                continue
            if kind == "stdout":
                out.append(data[0])
        text = "".join(out)
        assert re.search(until, text), text[-3000:]
        return text
    finally:
        ws.close()
        person.req("DELETE", f"{base}/api/terminals/{name}", expect=(204, 404))


def listening_addresses(pids: set[int]) -> set[str]:
    """``ip:port`` of every TCP socket the processes ``pids`` listen on (/proc/net/tcp and tcp6)."""
    inodes = set()
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:
            pass
    out = set()
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            f = line.split()
            if f[3] == "0A" and f[9] in inodes:  # LISTEN
                addr, port = f[1].split(":")
                raw = bytes.fromhex(addr)
                words = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))  # /proc prints host-order words
                ip = ".".join(map(str, words)) if len(words) == 4 else words.hex(":", 2)
                out.add(f"{ip}:{int(port, 16)}")
    return out


def answers(nb) -> dict[str, str]:
    """grade_id -> source of the answer cells (solution regions as a student writes them: no markers)."""
    out = {}
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            lines = [ln for ln in cell.source.splitlines() if "BEGIN SOLUTION" not in ln and "END SOLUTION" not in ln]
            out[meta["grade_id"]] = "\n".join(lines)
    return out


def test_a_homework_cycle_through_the_hub(hub):
    t0 = time.monotonic()

    def mark(what: str) -> None:
        print(f"{time.monotonic() - t0:6.1f} s  {what}")

    cls = hub
    admin = Client(cls, cls.admin_token, "armlab-admin")

    def token(user: str) -> str:
        return admin.req(
            "POST", f"/hub/api/users/{user}/tokens", expect=(200, 201), json={"note": "test_hub", "expires_in": 3600}
        ).json()["token"]

    people = {u: Client(cls, token(u), u) for u in cr.USERS}
    instructor, ta = people[cr.INSTRUCTOR], people[cr.TA]
    students = [people[s] for s in cr.STUDENTS]

    def server(user: str) -> dict | None:
        return admin.req("GET", f"/hub/api/users/{user}").json()["servers"].get("")

    def start_server(user: str) -> None:
        admin.req("POST", f"/hub/api/users/{user}/server", expect=(201, 202))

    def ready(user: str) -> dict:
        return wait(lambda: (s := server(user)) and s["ready"] and s, f"{user}'s server ready", timeout=90)

    # every student's server starts through the hub's API (in parallel, as a class logging in)
    for s in cr.STUDENTS:
        start_server(s)

    # --- access: the formgrader answers the grader group only ----------------------------------------------------
    instructor.formgrader("GET", "/status")
    ta.formgrader("GET", "/assignments")
    for st in students:
        st.req("GET", f"/services/{cr.COURSE_ID}/formgrader/", expect=403)
        st.formgrader("GET", "/assignments", expect=403)
        st.formgrader("POST", f"/assignment/{HW}/release", expect=403)

    mark("access checks on the formgrader")
    # --- 1. the instructor generates and releases hw01 (the formgrader's Generate and Release buttons) ---------------
    r = instructor.formgrader("POST", f"/assignment/{HW}/assign").json()
    assert r["success"], r
    r = instructor.formgrader("POST", f"/assignment/{HW}/release").json()
    assert r["success"], r
    release = Path(cls.exchange) / cr.COURSE_ID / "outbound" / HW / f"{HW}.ipynb"
    assert release.exists()
    assert "HIDDEN TESTS" not in release.read_text() and "BEGIN SOLUTION" not in release.read_text()

    mark("released")
    # --- 2. students fetch, answer through the contents API and submit ------------------------------------------------
    solution = nbformat.read(REPO / "solutions" / HW / f"{HW}.ipynb", as_version=4)
    blank = nbformat.read(REPO / "exercises" / HW / f"{HW}.ipynb", as_version=4)
    wrong_nb = hw01_submissions(solution, blank)["wrong"]
    (wrong_score,) = [o.score for o in OUTCOMES if (o.homework, o.student) == (HW, "wrong")]
    right_answers, wrong_answers = answers(solution), answers(wrong_nb)
    assert len(right_answers) >= 6 and right_answers != wrong_answers

    def write(st: Client, new: dict[str, str]) -> None:
        model = st.req("GET", st.user(f"/api/contents/{NB}?content=1")).json()
        nb = nbformat.from_dict(model["content"])
        changed = 0
        for cell in nb.cells:
            gid = cell.metadata.get("nbgrader", {}).get("grade_id")
            if gid in new:
                cell.source, changed = new[gid], changed + 1
        assert changed == len(new)
        st.req(
            "PUT",
            st.user(f"/api/contents/{NB}"),
            json={"type": "notebook", "format": "json", "content": nb},
            expect=(200, 201),
        )

    for st in students:
        ready(st.name)
        listed = st.assignments()
        assert listed["success"] and [a["status"] for a in listed["value"] if a["assignment_id"] == HW] == ["released"]
        listed = st.assignments("fetch")
        assert "fetched" in [a["status"] for a in listed["value"] if a["assignment_id"] == HW], listed
    mark("servers ready, fetched")
    right_st, wrong_st, blank_st = students

    # what a student opens carries their kernel's metadata, as JupyterLab sets it when the kernel connects, so
    # opening changes nothing: the fetched homework (StampKernelMetadata, on in the class's course directory) and
    # the course from the student edition (built with the Python the class's environment runs)
    code = "import json\nfrom armlab.notebooks import kernel_metadata\nprint(json.dumps(kernel_metadata()))"
    kernel = json.loads(run_in_kernel(blank_st, code))
    assert kernel["language_info"]["version"] == ".".join(map(str, sys.version_info[:3]))
    for path in (NB, "armlab/course/00_start_here.ipynb", "armlab/exercises/hw04_jacobians/hw04_jacobians.ipynb"):
        meta = blank_st.req("GET", blank_st.user(f"/api/contents/{path}?content=1")).json()["content"]["metadata"]
        assert {k: meta.get(k) for k in kernel} == kernel, path
    assert {k: nbformat.read(release, 4).metadata.get(k) for k in kernel} == kernel  # as released

    # --- the class listens on the loopback interface only: hub, proxy, formgrader service, every server
    pids = cr.class_pids(cls) | {int((Path(cls.root) / "hub" / "jupyterhub.pid").read_text())}
    addresses = listening_addresses(pids)
    assert len(addresses) >= 7, addresses  # proxy (public + API), hub API, service, three students' servers
    assert all(a.startswith("127.0.0.1:") for a in addresses), addresses

    # the later submission counts: the right student first submits the blank notebook, then the answers
    r = right_st.assignments("submit")
    assert r["success"], r
    time.sleep(1.1)  # nbgrader's submission timestamps: make the resubmission strictly later
    write(right_st, right_answers)
    assert right_st.assignments("submit")["success"]
    write(wrong_st, wrong_answers)
    assert wrong_st.assignments("submit")["success"]
    assert blank_st.assignments("submit")["success"]

    mark("submitted")
    # --- access: no student reads another student's work, the course directory or the hidden tests ------------------
    right_st.req("GET", f"/user/{WRONG}/api/contents/{NB}", expect=403)  # another student's server
    right_st.req("GET", f"/user/{WRONG}/assignments?course_id={cr.COURSE_ID}", expect=403)
    for escape in (
        "/api/contents/..%2F" + WRONG + "/" + NB,
        "/api/contents/%2E%2E/%2E%2E/home/" + WRONG,
        "/api/contents/..%2Farmlab-grader%2Fcourse%2Fgradebook.db",
    ):
        r = right_st.req("GET", right_st.user(escape), expect=None)
        assert r.status_code in (400, 403, 404), (escape, r.status_code, r.text[:300])
    if cls.real_users:
        assert {u: pwd.getpwnam(u).pw_shell for u in (*cr.USERS, cr.GRADER)} == dict.fromkeys(
            (*cr.USERS, cr.GRADER), "/bin/bash"
        )
        uid = pwd.getpwnam(RIGHT).pw_uid
        pid = server(RIGHT)["state"]["pid"]
        status = Path(f"/proc/{pid}/status").read_text()
        assert f"Uid:\t{uid}\t" in status  # the server, and the kernels it starts, run as the student
        course = Path(cls.course)
        secrets = [
            Path(cls.homes[WRONG]) / NB,
            course / "gradebook.db",
            course / "solutions" / HW / f"{HW}.ipynb",
            course / "source" / HW / f"{HW}.ipynb",
        ]
        inbound = Path(cls.exchange) / cr.COURSE_ID / "inbound"
        probe = (
            "import os, sys\nfor p in sys.argv[1:]:\n"
            "    try:\n        open(p, 'rb').read(1) if os.path.isfile(p) or not os.path.exists(p) else os.listdir(p)\n"
            "        print('READ', p)\n    except OSError as e:\n        print('DENIED', p, type(e).__name__)\n"
        )
        targets = [*map(str, secrets), str(inbound), str(Path(cls.homes[WRONG])), str(course)]
        out = cr.run_as(RIGHT, [cls.python, "-c", probe, *targets], cls.ld_library_path).stdout
        assert out.count("DENIED") == len(targets) and "READ" not in out, out
        # ... and from the student's own kernel, started in JupyterLab's way: it runs as the student, with armlab
        # from the student edition's wheel, and reads none of it
        code = (
            "import os, pwd, sys, armlab\nprint('USER', pwd.getpwuid(os.getuid()).pw_name)\n"
            "print('ARMLAB', armlab.__file__)\nsys.argv = ['probe', *%r]\n" % targets
        ) + probe
        out = run_in_kernel(right_st, code)
        assert f"USER {RIGHT}" in out and f"ARMLAB {Path(cls.root) / 'env'}" in out, out
        assert out.count("DENIED") == len(targets) and "READ" not in out, out
        (submitted,) = [p for p in inbound.iterdir() if p.name.startswith(WRONG + "+")]
        # it is there; the student cannot list inbound/ (checked above), and its name ends in a random part
        # (student+assignment+timestamp+random): another student cannot guess the path either
        assert len(submitted.name.split("+")) == 4 and len(submitted.name.split("+")[3]) >= 8, submitted.name

    mark("access checks")
    # --- a student's server dies mid-cycle; nothing is lost ---------------------------------------------------------
    pid = server(WRONG)["state"]["pid"]
    os.kill(pid, signal.SIGKILL)
    wait(lambda: not cr._alive(pid), "the killed server is gone", timeout=15)
    # the hub polls the server, finds it dead and starts a new one (until its poll has reaped the process, it may
    # still answer "already running": ask again, within the bound)
    wait(
        lambda: admin.req("POST", f"/hub/api/users/{WRONG}/server", expect=(201, 202, 400)).status_code != 400,
        "the hub restarts the killed server",
        every=2,
    )
    ready(WRONG)
    assert server(WRONG)["state"]["pid"] != pid
    model = wrong_st.req("GET", wrong_st.user(f"/api/contents/{NB}?content=1")).json()
    sources = {c["metadata"].get("nbgrader", {}).get("grade_id"): c["source"] for c in model["content"]["cells"]}
    assert all(sources[g] == s for g, s in wrong_answers.items())  # the work is there
    submitted = [a for a in wrong_st.assignments()["value"] if a["assignment_id"] == HW and a["status"] == "submitted"]
    assert submitted and submitted[0]["submissions"], "the submission record survived the restart"

    mark("killed server restarted")
    # --- 3. the instructor collects, autogrades one student in the formgrader and the others in the formgrader's
    # Terminal with armlab-grade (the guide's "in a terminal of the service"); generates and releases feedback --------
    r = instructor.formgrader("POST", f"/assignment/{HW}/collect", timeout=TIMEOUT).json()
    assert r["success"], r
    r = instructor.formgrader("POST", f"/submission/{HW}/{RIGHT}/autograde", timeout=2 * TIMEOUT).json()
    assert r["success"], r
    out = run_in_terminal(instructor, f"armlab-grade {HW} --workers 1; echo EXIT=$?", until=r"EXIT=\d")
    assert f"{HW}: 2 students graded, mean score {wrong_score / 2:.1f} / 18 (1 graded before, not again)" in out, out
    assert "EXIT=0" in out and "Warning" not in out and "not available" not in out, out
    # the students by name, as the formgrader lists them (the demo's roster; "None, None" without it)
    listed = {r["id"]: (r["first_name"], r["last_name"]) for r in instructor.formgrader("GET", "/students").json()}
    assert {s: listed[s] for s in cr.STUDENTS} == cr.ROSTER
    r = ta.formgrader("POST", f"/assignment/{HW}/generate_feedback", timeout=2 * TIMEOUT).json()
    assert r["success"], r
    r = instructor.formgrader("POST", f"/assignment/{HW}/release_feedback").json()
    assert r["success"], r

    mark("collected, autograded, feedback released")
    # --- 4. the students fetch their feedback ----------------------------------------------------------------------
    for st in students:
        st.assignments("fetch_feedback")
        listing = st.req("GET", st.user(f"/api/contents/{HW}/feedback")).json()["content"]
        assert len(listing) == 1, listing
        html = st.req("GET", st.user(f"/api/contents/{listing[0]['path']}/{HW}.html?content=1")).json()["content"]
        assert "BEGIN HIDDEN TESTS" not in html and "Score:" in html
    # ... and none reads another's
    right_st.req("GET", f"/user/{WRONG}/api/contents/{HW}/feedback", expect=403)

    mark("feedback fetched")
    # --- 5. the grades, as the formgrader exports them: right 18, wrong (the harness's mistakes) 8, blank 0 -------------
    rows = {r["student"]: r for r in instructor.formgrader("GET", f"/submissions/{HW}").json()}
    assert {s: rows[s]["score"] for s in cr.STUDENTS} == {RIGHT: 18.0, WRONG: wrong_score, BLANK: 0.0}
    assert wrong_score == 8.0 and all(rows[s]["max_score"] == 18.0 for s in cr.STUDENTS)
    # the resubmission was graded, not the first (blank) submission
    collected = Path(cls.course) / "submitted" / RIGHT / HW / "timestamp.txt"
    first = [a for a in right_st.assignments()["value"] if a["status"] == "submitted"][0]["submissions"]
    assert len(first) == 2
    latest = max(s["timestamp"] for s in first)
    assert collected.read_text().strip()[:19] == latest.replace("T", " ")[:19]

    elapsed = time.monotonic() - t0
    print(f"homework cycle through the hub: {elapsed:.0f} s")


def test_a_taken_port_is_named_at_once_before_anything_is_built(tmp_path, monkeypatch):
    """./run.sh classroom on a port something else listens on (an instructor's laptop runs another Jupyter on 8000):
    the proxy only logs EADDRINUSE and keeps running, so the class waited 180 s for a hub that never answered, then
    printed a traceback that did not name the port."""
    monkeypatch.setattr(cr, "setup", lambda *a, **kw: pytest.fail("the class was built before the port was checked"))
    with socket.socket() as busy:
        busy.bind((cr.LOOPBACK, 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(SystemExit, match=rf"127\.0\.0\.1:{port} is already in use.*--port \d+"):
            cr.main(["--dir", str(tmp_path / "class"), "--port", str(port), "--shared-user"])
    assert not cr.port_in_use(port)  # closed: free again
