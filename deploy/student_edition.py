"""Build the student edition: the only thing students get.

    ./run.sh student-edition DIR [--git]

DIR receives the course notebooks and glossary, the released exercises, the errata, the youBot's interface
facts, a README for students and armlab as a built wheel (``wheels/``), with a ``requirements.txt`` that
installs it with the extras the notebooks need. It holds no ``solutions/``, no ``tests/``, no hidden test, no
gradebook and no instructor guide; ``check_edition`` proves it (tests/integration/test_student_edition.py runs it).

Its notebooks carry the kernel metadata (``kernelspec``, ``language_info`` with the Python version) of the
Python that builds it (:mod:`armlab.notebooks`), so a student opens them unchanged, without an unsaved mark or
an autosave, when their kernels run the same Python version: build it with the hub's Python, or check with
``python -m armlab.notebooks --check DIR`` in the students' environment (the Kubernetes image does).

``--git`` commits DIR as a git repository (branch ``student``): the hub pulls it into every student's
home with nbgitpuller, which never overwrites a student's own changes (docs/instructor.md, "How students
get the course"). Rebuilding into the same DIR with ``--git`` adds a commit, so an update is one pull.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from armlab.notebooks import kernel_metadata, notebooks, stamped

REPO = Path(__file__).resolve().parents[1]
#: what students get from the repository, as (source, destination) paths
CONTENT = (
    ("course", "course"),
    ("exercises", "exercises"),
    ("docs/errata.md", "docs/errata.md"),
    ("docs/youbot-interface.md", "docs/youbot-interface.md"),  # the chapters and lab 1 cite it
)
#: what must never reach a student
FORBIDDEN_MARKERS = ("BEGIN HIDDEN TESTS", "END HIDDEN TESTS", "BEGIN SOLUTION", "END SOLUTION")
ANSWER_KEY = "### ANSWER KEY"  # the first line of an answer key cell (armlab.autograde.key): instructors' only
FORBIDDEN_NAMES = ("solutions", "tests", "gradebook.db", "instructor.md", "nbgrader_harness.py", "conftest.py")
EXTRAS = "course,lab"

README = """# ArmLab: the student edition

Interactive courseware for robot-manipulator kinematics, statics and dynamics.

- `course/`: the chapter notebooks (start with `00_start_here.ipynb`) and the glossary;
- `exercises/`: the homework as released (on the course hub, fetch and submit them in JupyterLab's
  *Assignments* tab instead);
- `docs/errata.md`: the mistakes in the source texts, and what the course uses instead;
- `docs/youbot-interface.md`: the facts about the real youBot arm the course and the lab rely on.

On your own machine (Python 3.11 or newer):

```bash
python -m venv .venv && .venv/bin/pip install -r requirements.txt
.venv/bin/jupyter lab --LabApp.default_url=/lab/tree/course/00_start_here.ipynb
```

Run both in this folder: JupyterLab then shows `course/` and `exercises/` and opens the start page. Next time,
the second line alone. (`pip install -r` finds the wheel beside `requirements.txt` from any folder, with the pip
that `python -m venv` brings.)

Your own runs and answers stay yours: an update of the course (the hub pulls it when you open the
course link) never overwrites a file you changed.
"""


def build_wheel(dest: Path) -> Path:
    """armlab as a wheel, built from this checkout."""
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"  # build from a clean copy: no build/ or egg-info left in the checkout
        shutil.copytree(
            REPO,
            src,
            ignore=shutil.ignore_patterns(
                ".git", ".venv", "build", "*.egg-info", "__pycache__", "tests", "solutions", "bench"
            ),
        )
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dest), str(src)], check=True)
    (wheel,) = dest.glob("armlab-*.whl")
    return wheel


def requirements(wheel: Path) -> str:
    """The edition's requirements.txt: armlab from the wheel beside it, with the notebooks' extras. pip reads a
    relative ``--find-links`` in a requirements file relative to that file (every pip since 2015), so
    ``pip install -r DIR/requirements.txt`` works from any folder; a direct reference (``armlab @ file:./wheels/…``)
    is relative to the working directory, and pip 23.2 (Python 3.11's) rejects it outright."""
    version = wheel.name.split("-")[1]
    return f"--find-links ./wheels\narmlab[{EXTRAS}]=={version}\n"


def build(out: Path, git: bool = False) -> Path:
    """Write the student edition into ``out`` (its old content, except .git, is replaced); its notebooks carry
    this interpreter's kernel metadata."""
    out.mkdir(parents=True, exist_ok=True)
    for child in out.iterdir():
        if child.name != ".git":
            shutil.rmtree(child) if child.is_dir() else child.unlink()
    for src, dst in CONTENT:
        s, d = REPO / src, out / dst
        d.parent.mkdir(parents=True, exist_ok=True)
        if s.is_dir():
            shutil.copytree(s, d, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__", "lab-logs"))
        else:
            shutil.copy(s, d)
    metadata = kernel_metadata()
    for path in notebooks(out):  # cells untouched: nbgrader's checksums stay valid
        path.write_bytes(stamped(path, metadata))
    wheel = build_wheel(out / "wheels")
    (out / "requirements.txt").write_text(requirements(wheel))
    (out / "README.md").write_text(README)
    (out / ".gitignore").write_text(".ipynb_checkpoints/\n__pycache__/\n.venv/\n")
    check_edition(out)
    if git:
        _commit(out)
    return out


def _commit(out: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(out), *args], check=True, capture_output=True)

    if not (out / ".git").exists():
        git("init", "-q", "-b", "student")
    git("add", "-A")
    status = subprocess.run(["git", "-C", str(out), "status", "--porcelain"], capture_output=True, text=True).stdout
    if status.strip():
        git("-c", "user.name=ArmLab", "-c", "user.email=armlab@localhost", "commit", "-q", "-m", "student edition")


def solution_lines(repo: Path = REPO) -> set[str]:
    """The lines inside the solution and hidden-test regions and the answer key cells of the instructor notebooks
    (long enough to be telling); of a key cell, not a line the statement shows too, an import, nor a message
    naming a mistake (the visible tests name mistakes)."""
    secret, key, shown = set(), set(), set()
    for path in (repo / "solutions").glob("*/*.ipynb"):
        for cell in json.loads(path.read_text())["cells"]:
            source = "".join(cell["source"])
            if source.startswith(ANSWER_KEY):
                key |= {line.strip() for line in source.splitlines() if len(line.strip()) >= 30}
                continue
            inside = False
            for line in source.splitlines():
                if "BEGIN SOLUTION" in line or "BEGIN HIDDEN TESTS" in line:
                    inside = True
                elif "END SOLUTION" in line or "END HIDDEN TESTS" in line:
                    inside = False
                elif inside and len(line.strip()) >= 30:
                    secret.add(line.strip())
                elif not inside:
                    shown.add(line.split("  #")[0].strip())
    public = ('"', "'", 'f"', "import ", "from ")
    return secret | {line for line in key if line not in shown and not line.startswith(public)}


def _texts(out: Path):
    """(name, text) of every file of the edition, the wheel's members included."""
    for path in sorted(out.rglob("*")):
        if ".git" in path.relative_to(out).parts or not path.is_file():
            continue
        if path.suffix == ".whl":
            with zipfile.ZipFile(path) as z:
                for member in z.namelist():
                    yield f"{path.name}/{member}", z.read(member).decode("utf-8", "replace")
        else:
            yield str(path.relative_to(out)), path.read_text("utf-8", "replace")


def _course_lines(out: Path) -> set[str]:
    """Lines the chapter notebooks teach: a homework may ask a student to apply them."""
    return {
        line.strip()
        for path in (out / "course").glob("*.ipynb")
        for cell in json.loads(path.read_text())["cells"]
        for line in "".join(cell["source"]).splitlines()
    }


def check_edition(out: Path) -> None:
    """Raise if the edition holds a forbidden file, a solution, hidden-test or answer-key marker, or a line of a
    solution, a hidden test or an answer key.

    Those lines are looked for everywhere, ``armlab/grading/`` included (the checkers hold no answers: they compare
    with the answer keys the gradebook's hidden tests carry), except in the lines the chapters teach.
    """
    problems = []
    for path in out.rglob("*"):
        if path.name in FORBIDDEN_NAMES and ".git" not in path.relative_to(out).parts:
            problems.append(f"forbidden file {path.relative_to(out)}")
    secret = solution_lines() - _course_lines(out)
    for name, text in _texts(out):
        problems += [f"{name}: marker {m!r}" for m in FORBIDDEN_MARKERS if m in text]
        if name.endswith(".ipynb"):
            text = "\n".join("".join(c["source"]) for c in json.loads(text)["cells"])
            problems += [f"{name}: answer key cell" for line in text.splitlines() if line.startswith(ANSWER_KEY)]
        problems += [f"{name}: solution line {line!r}" for line in secret if line in text]
    if problems:
        raise SystemExit("the student edition is not clean:\n  " + "\n  ".join(problems[:20]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--git", action="store_true", help="commit the edition (branch 'student') for nbgitpuller")
    args = ap.parse_args(argv)
    out = build(args.out.resolve(), git=args.git)
    print(f"student edition in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
