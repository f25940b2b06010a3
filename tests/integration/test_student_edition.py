"""The student edition (deploy/student_edition.py): what students get, and how updates reach them.

It holds the course, the released exercises and armlab as a wheel, and nothing of the instructor's:
no solutions, no hidden tests, no grader harness. Updates arrive with nbgitpuller, which must never
overwrite a student's own work. Its notebooks, and the homework nbgrader releases on a hub, carry the kernel's
metadata, so a student opens them without an unsaved mark.
"""

from __future__ import annotations

import ensurepip
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import nbformat
import pytest
from nbgrader.utils import compute_checksum

from armlab.notebooks import kernel_metadata, notebooks, unstamped
from armlab.notebooks import main as notebooks_main

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "deploy"))
import student_edition as se  # noqa: E402
from support.jupyterlab import student_tools  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: docs/instructor.md's command; the test builds into a folder of its own instead of build/student
GUIDE_BUILD = "./run.sh student-edition build/student --git"


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    """The edition, built by the guide's command (this interpreter's environment standing in for .venv)."""
    assert f"\n{GUIDE_BUILD}     #" in (REPO / "docs" / "instructor.md").read_text()
    out = tmp_path_factory.mktemp("edition") / "armlab-student"
    driver = (
        'source run.sh; VENV="$FAKE_VENV"; ensure_venv() { :; }; ensure_installed() { :; }; activate_venv() { :; }; '
    )
    command = GUIDE_BUILD.replace("./run.sh ", "main ").replace("build/student", str(out))
    env = {**os.environ, "FAKE_VENV": sys.prefix}
    r = subprocess.run(["bash", "-c", driver + command], cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and f"student edition in {out}" in r.stdout, r.stdout + r.stderr
    return out


def test_student_edition_holds_the_course_and_a_built_wheel_only(edition):
    names = {p.name for p in edition.iterdir()}
    assert names == {".git", ".gitignore", "README.md", "course", "docs", "exercises", "requirements.txt", "wheels"}
    assert {p.name for p in (edition / "course").glob("*.ipynb")} == {p.name for p in (REPO / "course").glob("*.ipynb")}
    assert sorted(p.name for p in (edition / "exercises").iterdir()) == sorted(
        p.name for p in (REPO / "exercises").iterdir()
    )
    assert sorted(p.name for p in (edition / "docs").iterdir()) == ["errata.md", "youbot-interface.md"]
    (wheel,) = (edition / "wheels").glob("armlab-*-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as z:
        members = z.namelist()
    assert "armlab/grading/checks.py" in members and not any(m.startswith(("tests/", "solutions/")) for m in members)
    # the course's JupyterLab settings, installed where JupyterLab reads them
    assert any(m.endswith(".data/data/share/jupyter/lab/settings/overrides.d/armlab.json") for m in members)
    # ... and a student's Lab: nbgrader's student tools, not the formgrader (deploy/jupyterlab/student/)
    for config in (
        "etc/jupyter/nbgrader_config.py",
        "etc/jupyter/labconfig/page_config.d/zz-armlab-student.json",
        "etc/jupyter/jupyter_server_config.d/zz-armlab-student.json",
    ):
        assert any(m.endswith(f".data/data/{config}") for m in members), config
    version = wheel.name.split("-")[1]
    assert (edition / "requirements.txt").read_text() == f"--find-links ./wheels\narmlab[{se.EXTRAS}]=={version}\n"


def test_student_edition_has_no_solution_hidden_test_or_grader_harness(edition):
    se.check_edition(edition)  # raises on any finding
    text = "\n".join(t for _, t in se._texts(edition))
    for marker in se.FORBIDDEN_MARKERS:
        assert marker not in text
    names = {Path(name).name for name, _ in se._texts(edition)}
    assert not names & {"nbgrader_harness.py", "gradebook.db", "instructor.md", "conftest.py"}
    secret = se.solution_lines() - se._course_lines(edition)
    assert len(secret) > 50  # the check looks for something: the solutions' own lines


def test_the_check_finds_a_leaked_solution_and_a_hidden_test(edition, tmp_path):
    leaky = tmp_path / "leaky"
    shutil.copytree(edition, leaky, ignore=shutil.ignore_patterns(".git"))
    line = sorted(se.solution_lines() - se._course_lines(edition))[0]
    (leaky / "docs" / "notes.md").write_text(f"a helpful note\n{line}\n")
    with pytest.raises(SystemExit, match="solution line"):
        se.check_edition(leaky)
    (leaky / "docs" / "notes.md").write_text("### BEGIN HIDDEN TESTS\n")
    with pytest.raises(SystemExit, match="marker"):
        se.check_edition(leaky)
    (leaky / "docs" / "notes.md").unlink()
    (leaky / "lib" / "armlab" / "grading").mkdir(parents=True)  # the checkers are searched too (issue #30)
    (leaky / "lib" / "armlab" / "grading" / "checks.py").write_text(f"REFERENCE = 1\n{line}\n")
    with pytest.raises(SystemExit, match="solution line"):
        se.check_edition(leaky)
    shutil.rmtree(leaky / "lib")
    key_cell = {"cell_type": "code", "metadata": {}, "source": "### ANSWER KEY\nKEY_X = 1.0", "outputs": []}
    (leaky / "keyed.ipynb").write_text(
        json.dumps({"cells": [key_cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    )
    with pytest.raises(SystemExit, match="answer key cell"):
        se.check_edition(leaky)
    shutil.copytree(REPO / "solutions" / "hw01_transforms", leaky / "solutions")
    with pytest.raises(SystemExit, match="forbidden file solutions"):
        se.check_edition(leaky)


def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _pull(upstream, home):
    gitpuller = shutil.which("gitpuller", path=str(Path(sys.executable).parent))
    assert gitpuller, "nbgitpuller is in the hub extra"
    subprocess.run([gitpuller, upstream.as_uri(), "student", str(home)], check=True, capture_output=True, timeout=120)


def _edit_cell(path, index, text, outputs=None):
    nb = json.loads(path.read_text())
    nb["cells"][index]["source"] = text
    if outputs is not None:
        nb["cells"][index]["outputs"] = outputs
        nb["cells"][index]["execution_count"] = 1
    path.write_text(json.dumps(nb, indent=1) + "\n")


def test_an_update_pulled_with_nbgitpuller_never_overwrites_a_students_work(edition, tmp_path):
    upstream = tmp_path / "upstream"
    shutil.copytree(edition, upstream)
    home = tmp_path / "home" / "armlab"
    _pull(upstream, home)
    hw = home / "exercises" / "hw01_transforms" / "hw01_transforms.ipynb"
    ch1 = home / "course" / "01_poses_and_transforms.ipynb"
    code = next(i for i, c in enumerate(json.loads(ch1.read_text())["cells"]) if c["cell_type"] == "code")
    answer = next(
        i
        for i, c in enumerate(json.loads(hw.read_text())["cells"])
        if c.get("metadata", {}).get("nbgrader", {}).get("solution")
    )
    # the student answers hw01 and runs chapter 01 (outputs saved)
    _edit_cell(hw, answer, "def my_Rot(axis, theta):\n    return 'my own answer'")
    _edit_cell(
        ch1,
        code,
        json.loads(ch1.read_text())["cells"][code]["source"],
        outputs=[{"output_type": "stream", "name": "stdout", "text": "the student's run\n"}],
    )
    mine_hw, mine_ch1 = hw.read_text(), ch1.read_text()
    # the instructor updates: a fixed typo in chapter 02's first cell, the same chapter 01 cell, a new file
    ch2_up = upstream / "course" / "02_dh_forward_kinematics.ipynb"
    _edit_cell(ch2_up, 0, "# 2 Forward kinematics (updated)")
    _edit_cell(upstream / "course" / "01_poses_and_transforms.ipynb", code, "print('upstream changed this cell')")
    (upstream / "docs" / "announcement.md").write_text("hw02 is out\n")
    _git(upstream, "add", "-A")
    _git(upstream, "-c", "user.name=i", "-c", "user.email=i@localhost", "commit", "-qm", "update")
    _pull(upstream, home)
    assert hw.read_text() == mine_hw  # the student's answer: untouched
    assert json.loads(ch1.read_text())["cells"][code]["outputs"][0]["text"] == "the student's run\n"
    assert "the student's run" in ch1.read_text() and ch1.read_text() == mine_ch1  # their version wins
    assert (
        json.loads((home / "course" / ch2_up.name).read_text())["cells"][0]["source"]
        == "# 2 Forward kinematics (updated)"
    )  # a file they did not touch is updated
    assert (home / "docs" / "announcement.md").read_text() == "hw02 is out\n"


def _same_but_the_kernel(nb, tracked, meta) -> int:
    """``nb`` is ``tracked`` with the kernel metadata ``meta``: every cell and every other metadata key as they were,
    and nbgrader's checksums (of the cells) still those the cells give; returns how many checksums it checked."""
    assert nb.cells == tracked.cells
    assert {k: nb.metadata[k] for k in meta} == meta
    assert {k: v for k, v in nb.metadata.items() if k not in meta} == {
        k: v for k, v in tracked.metadata.items() if k not in meta
    }
    sums = [c for c in nb.cells if "checksum" in c.metadata.get("nbgrader", {})]
    assert all(compute_checksum(c) == c.metadata.nbgrader.checksum for c in sums)
    return len(sums)


def test_every_notebook_of_the_edition_carries_the_kernels_metadata_and_the_courses_cells(edition):
    """What JupyterLab would set on opening is already there (the browser test below shows the effect); the cells
    are the course's, so the released exercises' nbgrader checksums stay valid."""
    meta = kernel_metadata()
    paths = notebooks(edition)
    assert {p.relative_to(edition) for p in paths} == {
        p.relative_to(REPO) for d in ("course", "exercises") for p in notebooks(REPO / d)
    }
    assert unstamped(paths, meta) == []
    checked = sum(
        _same_but_the_kernel(nbformat.read(p, 4), nbformat.read(REPO / p.relative_to(edition), 4), meta) for p in paths
    )
    assert checked > 20  # the exercises' grade and solution cells
    # the tracked notebooks lack the kernel's language_info: what the check exists to find
    assert unstamped(notebooks(REPO / "course"), meta) == notebooks(REPO / "course")


def test_the_check_the_image_runs_finds_a_notebook_stamped_for_another_python_and_restamping_fixes_it(
    edition, tmp_path, capsys
):
    """``python -m armlab.notebooks --check`` (deploy/k8s/Dockerfile runs it on the edition) exits 1 and names the
    notebook stamped for another Python; ``python -m armlab.notebooks DIR`` stamps it for this one, cells untouched."""
    copy = tmp_path / "course"
    shutil.copytree(edition / "course", copy)
    assert notebooks_main(["--check", str(copy)]) == 0
    other = copy / "01_poses_and_transforms.ipynb"
    nb = json.loads(other.read_text())
    nb["metadata"]["language_info"]["version"] = "3.99.0"
    other.write_text(json.dumps(nb, indent=1) + "\n")
    capsys.readouterr()
    assert notebooks_main(["--check", str(copy)]) == 1
    assert f"{other}: stamped for Python 3.99.0" in capsys.readouterr().err
    assert notebooks_main([str(copy)]) == 0 and notebooks_main(["--check", str(copy)]) == 0
    assert other.read_bytes() == (edition / "course" / other.name).read_bytes()


def _nbgrader(cwd: Path, *args: str) -> None:
    nbgrader = Path(sys.executable).parent / "nbgrader"
    r = subprocess.run([str(nbgrader), *args], cwd=cwd, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]


@pytest.mark.timeout(300)
def test_homework_released_and_fetched_through_nbgrader_carries_the_kernels_metadata_where_the_course_turns_it_on(
    tmp_path,
):
    """The exercises a hub's students open come through nbgrader: generate (source → release), release_assignment,
    fetch_assignment. Generated with this repository's config, the exercise is the committed one, byte for byte,
    which JupyterLab would change on opening. With ``StampKernelMetadata.enabled`` (the hub's course directory) it
    carries the kernel's metadata and the course's cells, and release and fetch copy it byte for byte."""
    hw = "hw01_transforms"
    meta = kernel_metadata()
    committed = REPO / "exercises" / hw / f"{hw}.ipynb"
    course, home, exchange = tmp_path / "course", tmp_path / "home", tmp_path / "exchange"
    shutil.copytree(REPO / "solutions" / hw, course / "solutions" / hw)
    shutil.copy(REPO / "nbgrader_config.py", course / "nbgrader_config.py")
    home.mkdir()
    exchange.mkdir()
    generated = course / "exercises" / hw / f"{hw}.ipynb"
    _nbgrader(course, "generate_assignment", hw, "--no-db", "--force")
    assert generated.read_bytes() == committed.read_bytes() and unstamped([generated], meta)  # off by default

    where = [f"--Exchange.root={exchange}", "--CourseDirectory.course_id=armlab"]
    _nbgrader(course, "generate_assignment", hw, "--no-db", "--force", "--StampKernelMetadata.enabled=True")
    _nbgrader(course, "release_assignment", hw, *where)
    _nbgrader(home, "fetch_assignment", hw, *where)
    released = (exchange / "armlab" / "outbound" / hw / f"{hw}.ipynb").read_bytes()
    assert (home / hw / f"{hw}.ipynb").read_bytes() == released == generated.read_bytes()
    fetched = nbformat.reads(released.decode(), 4)
    assert _same_but_the_kernel(fetched, nbformat.read(committed, 4), meta) > 5


@pytest.mark.timeout(300)
def test_opening_a_notebook_of_the_edition_changes_nothing(edition, jupyterlab_opener):
    """In JupyterLab and Chromium, as a student opens them: the start page, a chapter and a homework of the built
    edition are not marked unsaved once their kernel is up, and nothing is written to them. The tracked start page
    is marked modified at once: the check sees what JupyterLab changes on opening."""
    names = [
        "course/00_start_here.ipynb",
        "course/02_dh_forward_kinematics.ipynb",
        "exercises/hw01_transforms/hw01_transforms.ipynb",
    ]

    def place(root: Path) -> list[str]:  # root: a copy of course/, as tracked
        shutil.copytree(edition, root / "edition", ignore=shutil.ignore_patterns(".git", "wheels"))
        return ["00_start_here.ipynb", *(f"edition/{n}" for n in names)]

    dirty = jupyterlab_opener.dirty_on_opening(place)
    assert dirty.pop("00_start_here.ipynb") is True, "the check no longer sees what JupyterLab changes on opening"
    assert dirty == {f"edition/{n}": False for n in names}


# --- installing the edition as its README and the instructor's guide say, with the pip `python -m venv` bundles ------


def _bash_lines(markdown: str) -> list[str]:
    """The commands of a markdown text's ```bash blocks, one per line (comments dropped)."""
    blocks = re.findall(r"```bash\n(.*?)```", markdown, re.S)
    return [line.split("  #")[0].strip() for b in blocks for line in b.splitlines() if line.strip()]


def _plain_env(tmp_path: Path) -> dict[str, str]:
    """A shell as a student's: `python` is this Python (its `-m venv` bundles its own pip), nothing of this
    checkout on the path, Jupyter's files in the test's folder (as root: a Lab that may run as root)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "JUPYTER_CONFIG_PATH")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    config = tmp_path / "jupyter-config"
    config.mkdir(exist_ok=True)
    (config / "jupyter_server_config.json").write_text(json.dumps({"ServerApp": {"allow_root": True}}))
    env.update(JUPYTER_CONFIG_DIR=str(config), JUPYTER_RUNTIME_DIR=str(tmp_path / "jupyter-runtime"))
    return env


def _run(command: str, cwd: Path, env: dict[str, str], timeout: float = 1200) -> str:
    r = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"{command}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r.stdout + r.stderr


def _bundled_pip(venv: Path) -> str:
    version = subprocess.run([str(venv / "bin" / "pip"), "--version"], capture_output=True, text=True).stdout
    assert version.startswith(f"pip {ensurepip.version()} "), version  # as bundled: never upgraded
    return version


@pytest.fixture(scope="module")
def readme_install(edition, tmp_path_factory):
    """The student edition's README, run as written in a copy of the edition's folder with the pip of `python -m venv`:
    armlab from the wheel with the notebooks' extras; then its JupyterLab line, on a free port. Returns the folder (its
    `.venv` also serves the guide's hub step: one install of the edition's gigabyte of packages per run), where
    armlab was imported from, the pip the venv has, the Lab's log and what it offers of nbgrader's instructor tools."""
    tmp = tmp_path_factory.mktemp("readme")
    folder = tmp / "armlab-student"
    shutil.copytree(edition, folder, ignore=shutil.ignore_patterns(".git"))
    install, lab = _bash_lines((folder / "README.md").read_text())
    assert install == "python -m venv .venv && .venv/bin/pip install -r requirements.txt"
    env = _plain_env(tmp)
    _run(install, folder, env)
    pip = _bundled_pip(folder / ".venv")
    where = _run(
        ".venv/bin/python -c 'import armlab, armlab.lab, nbgrader, ipywidgets, mujoco; print(armlab.__file__)'",
        folder,
        env,
    )
    port = _free_port()
    proc = subprocess.Popen(
        ["bash", "-c", f"{lab} --no-browser --port={port} --ServerApp.ip=127.0.0.1"],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not any("?token=" in line for line in lines):
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
        log = "".join(lines)
        assert f"http://127.0.0.1:{port}/lab/tree/course/00_start_here.ipynb?token=" in log, log[-3000:]
        tools = student_tools(f"http://127.0.0.1:{port}", log.split("?token=")[1].split()[0])
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return {"folder": folder, "where": where, "pip": pip, "log": log, "tools": tools}


@pytest.mark.timeout(1500)
def test_the_readme_recipe_installs_the_edition_in_its_folder_and_opens_a_students_lab(readme_install):
    """The README's recipe in the edition's folder (Python 3.11's `python -m venv` bundles pip 23.2, which rejected
    the old `armlab @ file:./wheels/…` line): the wheel's armlab, not this checkout's, and a student's Lab, no
    instructor tools."""
    folder = readme_install["folder"]
    assert readme_install["pip"].startswith(f"pip {ensurepip.version()} ")
    where = readme_install["where"]
    assert where.strip().startswith(str(folder / ".venv" / "lib")), where  # the wheel's armlab, not this checkout
    assert readme_install["tools"] == {
        "formgrader page": 404,
        "disabled": {"@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment"},
    }
    assert "No nbgrader_config.py file found" not in readme_install["log"], readme_install["log"]


@pytest.mark.timeout(1500)
def test_the_guides_hub_install_works_from_another_folder(readme_install, tmp_path):
    """docs/instructor.md's hub step, as written, with its two paths filled in (the environment's and the edition's)
    and run from another folder: `pip install -r` finds the wheel beside requirements.txt, not in the working
    directory ("No such file or directory: './wheels/…'" before). The environment is the README recipe's with armlab
    taken out (the same packages, installed once per run): pip must find armlab's wheel again, from here."""
    guide = (REPO / "docs" / "instructor.md").read_text()
    (step,) = re.findall(r"`(python -m venv /opt/armlab && [^`]*)`", guide)
    assert "/opt/armlab/bin/pip install -r /srv/armlab-student/requirements.txt" in step
    folder = readme_install["folder"]
    env_dir, elsewhere = folder / ".venv", tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = _plain_env(tmp_path)
    _run(f"{env_dir}/bin/pip uninstall -y armlab", elsewhere, env)
    command = step.replace("/opt/armlab", str(env_dir)).replace("/srv/armlab-student", str(folder))
    out = _run(command, elsewhere, env)
    (wheel,) = (folder / "wheels").glob("armlab-*.whl")
    assert f"Processing {wheel}" in out, out[-3000:]  # from beside requirements.txt
    _bundled_pip(env_dir)
    code = "import armlab, armlab.lab, nbgrader, jupyterhub, nbgitpuller; print(armlab.__file__)"
    where = _run(f"{env_dir}/bin/python -c '{code}'", elsewhere, env)
    assert where.strip().startswith(str(env_dir / "lib")), where
    assert (env_dir / "bin" / "jupyterhub-singleuser").exists()
