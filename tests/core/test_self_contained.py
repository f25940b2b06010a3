"""A clone of the repository (and the student edition made from it) points nowhere outside itself.

The instructors keep the source texts' extractions and their notes in a folder beside the repository; nothing
tracked may cite a path there (README "Source texts" describes the texts instead), and every relative link
of the README, the docs and the course resolves to a file of the repository.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = re.compile(r"\bshared[/]")  # the folder beside the repository ("[/]": so not this file itself)
LINK = re.compile(r"\]\(([^)\s]+)\)")  # markdown [text](target)


def _tracked() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / name for name in out.decode().split("\0") if name]


def citations_outside(text: str) -> list[str]:
    """The lines of ``text`` that cite a path in the folder beside the repository."""
    return [line.strip() for line in text.splitlines() if OUTSIDE.search(line)]


@pytest.mark.integration  # starts a process
def test_nothing_tracked_cites_the_folder_beside_the_repository():
    found = {}
    for path in _tracked():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        if lines := citations_outside(text):
            found[str(path.relative_to(ROOT))] = lines[:3]
    assert not found, f"cite the in-repo docs (docs/…) or describe the source instead: {found}"


SHARED = "shared" + "/"  # (spelt apart, or this file would cite it)


def test_the_check_finds_a_citation_outside():
    assert citations_outside(f"limits (from its URDF, `{SHARED}docs/youbot-interface.md`)")
    assert citations_outside(f"see /work/{SHARED}sources/README.md")
    assert not citations_outside("limits (from its URDF, `docs/youbot-interface.md`); shared memory, shared_x")


def _texts_with_links():
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "course").glob("*.md"))]:
        yield path, path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "course").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        yield path, "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def broken_links(path: Path, text: str) -> list[str]:
    """The relative link targets in ``text`` (of the file ``path``) that are no file of the repository."""
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address or an anchor of the same page
        file = (path.parent / target.split("#")[0]).resolve()
        if not file.exists() or ROOT not in file.parents:
            broken.append(target)
    return broken


@pytest.mark.parametrize("path, text", list(_texts_with_links()), ids=lambda v: v.name if isinstance(v, Path) else "")
def test_relative_links_resolve_inside_the_repository(path, text):
    broken = broken_links(path, text)
    assert not broken, f"{path.relative_to(ROOT)}: links that go nowhere in the repository: {broken}"


def test_the_link_check_finds_a_link_outside_or_to_nothing():
    start = ROOT / "course" / "00_start_here.ipynb"
    text = f"[glossary](glossary.md), [homework](../exercises), [web](https://jupyter.org), [notes](../../{SHARED}docs/x.md), [gone](07_nothing.ipynb)"
    assert broken_links(start, text) == [f"../../{SHARED}docs/x.md", "07_nothing.ipynb"]
