"""Every course notebook runs headless from top to bottom, and is committed clean.

Later chapters are picked up automatically (parametrized over course/*.ipynb).
Execution times are printed (pytest -s, or the summary at the end with -rA);
the target is ≤ 20 s per notebook and ≤ 2 min for all chapters.
"""

import time
from pathlib import Path

import nbformat
import pytest

nbclient = pytest.importorskip("nbclient")

COURSE = Path(__file__).resolve().parents[2] / "course"
NOTEBOOKS = sorted(COURSE.glob("*.ipynb"))
TARGET_S = 20.0
LIMIT_S = 90.0  # fail only far above target: the machine is shared and timings are noisy
TIMES = {}


def _id(path):
    return path.stem


def test_course_has_notebooks():
    names = [p.name for p in NOTEBOOKS]
    assert "00_start_here.ipynb" in names
    assert len(names) >= 3, names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_notebook_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    dirty = [
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code" and (c.get("outputs") or c.get("execution_count") is not None)
    ]
    assert not dirty, f"{path.name}: cells {dirty} have outputs or execution counts; clear them before committing"


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.stem[:2].isdigit() and p.stem[:2] != "00"], ids=_id)
def test_chapter_links_to_glossary(path):
    text = path.read_text(encoding="utf-8")
    assert "glossary.md" in text, f"{path.name} should link to the glossary"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_figures_shown_with_viz_shown(path):
    """A cell ending in a bare ``fig.canvas`` shows "<FigureCanvasAgg …>" as text under the inline
    fallback; ``viz.shown(fig)`` gives the ipympl canvas or the figure."""
    nb = nbformat.read(path, as_version=4)
    bare = [
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code"
        and c.source.strip()
        and c.source.strip().splitlines()[-1].split("#")[0].strip().endswith(".canvas")
    ]
    assert not bare, f"{path.name}: cells {bare} end with a bare .canvas; end them with viz.shown(fig)"


@pytest.mark.timeout(240)
@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_notebook_runs_headless(path):
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(COURSE)}}
    )
    t0 = time.perf_counter()
    client.execute()  # raises CellExecutionError with the failing cell and traceback
    elapsed = time.perf_counter() - t0
    TIMES[path.name] = elapsed
    print(f"\n{path.name}: executed in {elapsed:.1f} s (target ≤ {TARGET_S:.0f} s)")
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    assert elapsed < LIMIT_S, f"{path.name} took {elapsed:.1f} s"


def test_kernel_is_this_python():
    """The notebooks run on the kernel "python3" of the interpreter running the tests (the venv's)."""
    import sys

    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3")
    out = []
    try:
        kc.execute_interactive(
            "import sys; print(sys.prefix)",
            timeout=60,
            output_hook=lambda msg: out.append(msg["content"].get("text", "")),
        )
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    assert "".join(out).strip() == sys.prefix


def test_print_execution_times():
    """Summary of the runs above (runs last in this file)."""
    if not TIMES:
        pytest.skip("no notebook was executed in this session")
    total = sum(TIMES.values())
    for name, t in TIMES.items():
        print(f"{name:40s} {t:6.1f} s {'OK' if t <= TARGET_S else 'over target'}")
    print(f"{'all':40s} {total:6.1f} s (target ≤ 120 s)")
