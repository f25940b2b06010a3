"""The student's working copy of the course: what ``./run.sh course`` opens.

    python deploy/working_copy.py [DIR]        # default: my-course/ in the repository (git ignores it)

A student runs and edits notebooks; done in the tracked ``course/`` and ``exercises/``, every run would change
tracked files, and the next ``git pull`` of a course update would conflict with them. So the tracked files are
never opened: DIR holds a copy, laid out as the student edition (``course/``, ``exercises/``, ``docs/``; the same
:data:`student_edition.CONTENT`), and this script brings it up to date on every start:

* a file DIR lacks is copied: a new chapter or homework, or one the student deleted to start it afresh;
* a file the student has not edited (its cells' sources are those of the version copied last; running cells
  and saving is not editing) is replaced by the course's current version when that changed (its outputs go:
  run it again);
* a file the student edited keeps their version; the course's new version is written beside it as
  ``NAME.updated.ipynb`` (``NAME.updated.md``), and the script says so.

Nothing of the student's is ever overwritten, and ``git pull`` never sees their runs. Notebooks are written
as JupyterLab writes them for this machine's kernel (its ``kernelspec`` and ``language_info``, the Python
version included; :mod:`armlab.notebooks`, as in the student edition): JupyterLab then finds nothing to
change when it opens one, so opening a notebook does not mark it unsaved. ``DIR/.armlab-copy.json`` records
what was copied.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from armlab.notebooks import kernel_metadata, stamped

sys.path.insert(0, str(Path(__file__).resolve().parent))
from student_edition import CONTENT  # noqa: E402  (what students get: one list for the edition and the copy)

REPO = Path(__file__).resolve().parents[1]
STATE = ".armlab-copy.json"
SKIP = (".ipynb_checkpoints", "__pycache__", "lab-logs")  # outside git: what a run leaves behind


def _tracked(repo: Path) -> set[str] | None:
    """The files git tracks in ``repo`` (so nothing a run left there, such as lab session logs), or None
    when it is no git checkout."""
    try:
        out = subprocess.run(["git", "-C", str(repo), "ls-files", "-z"], capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return set(out.decode().split("\0")) - {""}


def course_files(repo: Path = REPO) -> dict[str, Path]:
    """Every file of the course a student gets, by its path in the working copy."""
    tracked = _tracked(repo)
    files = {}
    for src, dst in CONTENT:
        s = repo / src
        for path in sorted(s.rglob("*")) if s.is_dir() else [s]:
            rel = path.relative_to(repo)
            if tracked is not None and rel.as_posix() not in tracked:
                continue
            if path.is_file() and not any(part in SKIP for part in rel.parts):
                files[(Path(dst) / path.relative_to(s)).as_posix() if s.is_dir() else dst] = path
    return files


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def content_digest(path: Path) -> str:
    """What the student may have changed: a notebook's cell types and sources, or the bytes of another file."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        sources = [[c["cell_type"], "".join(c["source"])] for c in cells]
        return _digest(json.dumps(sources, ensure_ascii=False).encode())
    return _digest(path.read_bytes())


def _updated_name(path: Path) -> Path:
    return path.with_name(f"{path.stem}.updated{path.suffix}")


def sync(work: Path, repo: Path = REPO, metadata: dict[str, Any] | None = None) -> list[str]:
    """Bring the working copy ``work`` up to date with ``repo``'s course (the rules in the module's docstring);
    returns what it did, one line per file it wrote. ``metadata``: the notebooks' kernel metadata (default:
    :func:`kernel_metadata`, looked up only when a notebook is written)."""
    work.mkdir(parents=True, exist_ok=True)
    state_file = work / STATE
    state = json.loads(state_file.read_text()) if state_file.exists() else {}
    done = []

    def meta() -> dict[str, Any]:
        nonlocal metadata
        if metadata is None:
            metadata = kernel_metadata()
        return metadata

    def write(src: Path, dst: Path) -> None:
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(stamped(src, meta()) if src.suffix == ".ipynb" else src.read_bytes())

    for rel, src in course_files(repo).items():
        dst = work / rel
        now = {"source": _digest(src.read_bytes()), "content": content_digest(src)}
        last = state.get(rel)  # what was copied last: the course file's digest and its content digest
        if not dst.exists():
            write(src, dst)
            done.append(f"{'added' if last is None else 'restored'}: {rel}")
        elif last is not None and last["source"] == now["source"]:
            continue  # the course has not changed it since
        elif content_digest(dst) == (last or now)["content"]:
            if last is not None:  # the student has not edited it (maybe run it): the course's version replaces it
                write(src, dst)
                done.append(
                    f"updated: {rel}" + (" (its outputs are gone: run it again)" if src.suffix == ".ipynb" else "")
                )
            # else: a copy from before this record, with the course's content: kept as it is, outputs and all
        elif (
            last is None or last["content"] != now["content"]
        ):  # the student's own version: kept, the course's beside it
            write(src, _updated_name(dst))
            done.append(
                f"kept your {rel}; the course's new version is {_updated_name(dst).relative_to(work).as_posix()}"
            )
        state[rel] = now
    state_file.write_text(json.dumps(state, indent=1, sort_keys=True) + "\n")
    return done


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("work", type=Path, nargs="?", default=REPO / "my-course", help="the working copy (my-course/)")
    args = ap.parse_args(argv)
    work = args.work.resolve()
    first = not (work / STATE).exists()
    done = sync(work)
    if first:
        print(f"==> your working copy of the course: {work} (edit and run freely; git ignores it)", file=sys.stderr)
    else:
        for line in done:
            print(f"==> course update: {line}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
