"""Notebooks as JupyterLab writes them for the kernel that runs them, so that opening one changes nothing.

When a kernel connects, JupyterLab sets the notebook's ``kernelspec`` and the kernel's ``language_info`` (the
Python version included). A notebook whose metadata differs is marked unsaved at once, and autosave writes it.
The tracked notebooks cannot know the students' Python, so whatever hands notebooks to students writes them
with the metadata of the interpreter that will run them: the working copy (``deploy/working_copy.py``), the
student edition (``deploy/student_edition.py``) and, on a hub, nbgrader's released homework
(:class:`StampKernelMetadata`).

    python -m armlab.notebooks DIR...          # stamp DIR's notebooks for this interpreter's kernel
    python -m armlab.notebooks --check DIR...  # exit 1, naming every notebook stamped for another kernel
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from nbconvert.preprocessors import Preprocessor

KERNEL = "python3"


def kernel_metadata(kernel: str = KERNEL) -> dict[str, Any]:
    """The notebook metadata JupyterLab sets when ``kernel`` (ipykernel, in this interpreter) connects:
    ``kernelspec`` (name, display_name, language) and the kernel's own ``language_info``."""
    from ipykernel.ipkernel import IPythonKernel
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec(kernel)
    return {
        "kernelspec": {"display_name": spec.display_name, "language": spec.language, "name": kernel},
        "language_info": dict(IPythonKernel.language_info),
    }


def stamped(src: Path, metadata: dict[str, Any]) -> bytes:
    """The notebook ``src`` with ``metadata`` (cells untouched), in the layout JupyterLab saves."""
    import nbformat

    nb = nbformat.read(src, as_version=nbformat.NO_CONVERT)
    nb.metadata.update(metadata)
    return (nbformat.writes(nb) + "\n").encode()


def notebooks(root: Path) -> list[Path]:
    """The notebooks under ``root`` (or ``root`` itself), checkpoints left out."""
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def unstamped(paths: list[Path], metadata: dict[str, Any]) -> list[Path]:
    """The notebooks among ``paths`` whose kernel metadata differs from ``metadata``."""
    out = []
    for path in paths:
        meta = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
        if any(meta.get(key) != value for key, value in metadata.items()):
            out.append(path)
    return out


class StampKernelMetadata(Preprocessor):
    """nbgrader preprocessor: the generated (released) notebook carries this interpreter's kernel metadata, so a
    student who fetches it in the Assignments tab opens it unchanged. Cells are untouched (nbgrader's checksums
    cover cells only). Off unless ``c.StampKernelMetadata.enabled = True``: the committed ``exercises/`` name no
    machine's Python; enable it where homework is released to students (the hub's course directory), with the
    Python of the students' kernels."""

    def preprocess(self, nb, resources):
        nb.metadata.update(kernel_metadata())
        return nb, resources


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Stamp notebooks with this interpreter's kernel metadata.")
    ap.add_argument("dirs", type=Path, nargs="+", metavar="DIR")
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if a notebook is not stamped")
    args = ap.parse_args(argv)
    metadata = kernel_metadata()
    paths = [p for d in args.dirs for p in notebooks(d)]
    wrong = unstamped(paths, metadata)
    version = metadata["language_info"]["version"]
    if args.check:
        for path in wrong:
            info = json.loads(path.read_text(encoding="utf-8")).get("metadata", {}).get("language_info", {})
            print(f"{path}: stamped for Python {info.get('version', '?')}, this kernel is {version}", file=sys.stderr)
        print(f"{len(paths) - len(wrong)} of {len(paths)} notebooks carry this kernel's metadata (Python {version})")
        return 1 if wrong else 0
    for path in wrong:
        path.write_bytes(stamped(path, metadata))
    print(f"stamped {len(wrong)} of {len(paths)} notebooks for Python {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
