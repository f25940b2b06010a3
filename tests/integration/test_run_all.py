"""Run All of a homework in JupyterLab runs every cell, also past a failing test (issue #33, student item 5).

JupyterLab 4's *Run All Cells* sends every cell to the kernel at once; each request asks the kernel to drop the
queued ones if it fails (``stop_on_error``), unless the cell carries the ``raises-exception`` tag. Without the tag a
wrong answer in part 1 left parts 2–6 unrun. The kernel here gets exactly what JupyterLab sends (its rule, quoted
in ``_run_all``), in a real kernel, on the blank homework: nothing is dropped. The control run, the same notebook
without the tags, drops cells: the check sees what the tags fix.
"""

from __future__ import annotations

import queue
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[2]
EXERCISES = sorted((REPO / "exercises").glob("hw*/*.ipynb"))
TAG = "raises-exception"


def _run_all(nb, cwd: Path) -> list[str]:
    """The kernel's reply status of each code cell, sent as JupyterLab's Run All sends them: all at once, with
    ``stop_on_error = !tags.includes("raises-exception")`` (@jupyterlab/outputarea, OutputArea.execute)."""
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", cwd=str(cwd))
    try:
        cells = [c for c in nb.cells if c.cell_type == "code"]
        ids = [kc.execute(c.source, stop_on_error=TAG not in c.metadata.get("tags", [])) for c in cells]
        status: dict[str, str] = {}
        while len(status) < len(ids):
            try:
                reply = kc.get_shell_msg(timeout=120)
            except queue.Empty:
                raise AssertionError(f"the kernel answered {len(status)} of {len(ids)} cells") from None
            if reply["parent_header"].get("msg_id") in ids:  # not a late reply to start_new_kernel's kernel_info
                status[reply["parent_header"]["msg_id"]] = reply["content"]["status"]
        return [status[i] for i in ids]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


@pytest.mark.parametrize("path", EXERCISES, ids=lambda p: p.parent.name)
def test_every_code_cell_of_a_homework_but_its_setup_runs_on_after_an_error(path):
    nb = nbformat.read(path, 4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            setup = cell.metadata.get("nbgrader", {}).get("grade_id") == "setup"
            assert (TAG in cell.metadata.get("tags", [])) != setup, (path.name, cell.source[:80])


@pytest.mark.timeout(300)
def test_run_all_of_the_blank_hw01_runs_every_part_as_jupyterlab_sends_it(tmp_path):
    path = REPO / "exercises" / "hw01_transforms" / "hw01_transforms.ipynb"
    nb = nbformat.read(path, 4)
    statuses = _run_all(nb, tmp_path)
    assert statuses[0] == "ok" and statuses.count("error") >= 6  # every part's test fails: nothing answered
    assert "aborted" not in statuses, statuses
    for cell in nb.cells:  # the control: without the tags the first failing cell drops everything after it
        cell.metadata.pop("tags", None)
    untagged = _run_all(nb, tmp_path)
    assert untagged.count("error") == 1 and untagged[untagged.index("error") + 1 :] == ["aborted"] * (
        len(untagged) - untagged.index("error") - 1
    ), untagged
