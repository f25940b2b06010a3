"""Every course notebook runs headless from top to bottom, and is committed clean.

Later chapters are picked up automatically (parametrized over course/*.ipynb). How long each takes (target
≤ 20 s, limit 90 s): bench/bench_resources.py --check.
"""

import ast
import re
from pathlib import Path

import nbformat
import pytest

from support.browser import NOTEBOOKS as BROWSER_NOTEBOOKS
from support.browser import browser_runs
from support.notebooks import generated_alt, printed_markup, run_problems, run_whole

nbclient = pytest.importorskip("nbclient")

COURSE = Path(__file__).resolve().parents[2] / "course"
NOTEBOOKS = sorted(COURSE.glob("*.ipynb"))
# the notebooks JupyterLab runs in the browser tests, whose outputs are checked there (support.browser): run
# here only where no browser runs them
#: run whole elsewhere, its executed copy checked as these are: lab 3 by test_lab_statements.py (its statements are
#: about the run's values; one run of its 15 s of motion)
RUN_ELSEWHERE = {"lab3_identification.ipynb"}
HEADLESS = [
    p for p in NOTEBOOKS if not (browser_runs() and p.name in BROWSER_NOTEBOOKS) and p.name not in RUN_ELSEWHERE
]


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


def compile_warnings(nb):
    """(cell index, line, message) of every warning Python gives when it compiles ``nb``'s code cells, after
    IPython turns their magics into Python: an invalid escape such as ``"}\\ "`` in a LaTeX label is a
    DeprecationWarning on 3.11 and a SyntaxWarning a student sees above the cell's output from 3.12 on."""
    import warnings

    from IPython.core.inputtransformer2 import TransformerManager

    to_python = TransformerManager().transform_cell
    found = []
    for i, c in enumerate(nb.cells):
        if c.cell_type == "code":
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                compile(to_python(c.source), f"cell {i}", "exec")
            found += [(i, w.lineno, str(w.message)) for w in caught]
    return found


@pytest.mark.parametrize(
    "path",
    NOTEBOOKS
    + sorted((COURSE.parent / "solutions").glob("*/*.ipynb"))
    + sorted((COURSE.parent / "exercises").glob("*/*.ipynb")),
    ids=lambda p: str(p.relative_to(COURSE.parent)),
)
def test_code_compiles_without_warnings(path):
    assert compile_warnings(nbformat.read(path, as_version=4)) == []


def test_the_compile_check_finds_an_invalid_escape():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell('%matplotlib inline\nlabel = "\\text{x}\\ y"')])
    assert [(i, line) for i, line, _ in compile_warnings(nb)] == [(0, 2)]


def start_page_misses(text, course=COURSE):
    """What the start page ``text`` does not link: each chapter and lab of ``course``, each homework beside it
    in exercises/, and the glossary (as markdown links ``[…](target)``, relative to course/)."""
    linked = set(re.findall(r"\]\(([^)\s]+)\)", text))
    wanted = {p.name for p in course.glob("*.ipynb") if p.name != "00_start_here.ipynb"} | {"glossary.md"}
    wanted |= {
        f"../exercises/{hw.name}/{hw.name}.ipynb" for hw in (course.parent / "exercises").iterdir() if hw.is_dir()
    }
    return sorted(wanted - linked)


def test_start_page_links_every_chapter_lab_and_homework():
    """00_start_here once listed hw01–hw03 only and marked chapters 04–08 and the labs "later"."""
    nb = nbformat.read(COURSE / "00_start_here.ipynb", as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert not start_page_misses(text), f"00_start_here does not link {start_page_misses(text)}"
    assert not re.search(r"^\|\s*later\s*\|", text, re.M), "a row still says 'later'"
    assert len(start_page_misses("")) >= 3 + 8 + 8  # the check sees the chapters, labs and homework on disk


_TEST_NAME = re.compile(r"\btests/|\btest_\w+")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_course_text_names_no_test(path):
    """The course's text is about its subject: what a test proves is said in words, and the test is not
    named (chapter 04 once sent students to `tests/test_textbook_ch6.py`)."""
    nb = nbformat.read(path, as_version=4)
    named = {i: _TEST_NAME.findall(c.source) for i, c in enumerate(nb.cells) if c.cell_type == "markdown"}
    named = {i: found for i, found in named.items() if found}
    assert not named, f"{path.name}: markdown cells name tests {named}; say what they prove instead"
    assert _TEST_NAME.search("each with its test in `tests/test_textbook_ch6.py`")  # the check sees one


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.stem[:2].isdigit() and p.stem[:2] != "00"], ids=_id)
def test_chapter_links_to_glossary(path):
    text = path.read_text(encoding="utf-8")
    assert "glossary.md" in text, f"{path.name} should link to the glossary"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_figures_shown_with_viz_shown(path):
    """A cell ending in a bare ``fig.canvas`` shows "<FigureCanvasAgg …>" as text under the inline
    fallback; ``viz.shown(fig)`` gives a still image with its alt text."""
    nb = nbformat.read(path, as_version=4)
    bare = [
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code"
        and c.source.strip()
        and c.source.strip().splitlines()[-1].split("#")[0].strip().endswith(".canvas")
    ]
    assert not bare, f"{path.name}: cells {bare} end with a bare .canvas; end them with viz.shown(fig)"


def figures_shown_twice(source):
    """The lines of a cell that make a pyplot figure outside ``plt.ioff()`` in a cell that also shows one with
    ``viz.shown``: pyplot shows a figure made in interactive mode by itself (inline and ipympl alike), and
    viz.shown shows it again."""
    tree = ast.parse(re.sub(r"^(\s*)[%!].*$", r"\1pass", source, flags=re.M))
    if not any(isinstance(n, ast.Call) and _chain(n.func)[-2:] == ["viz", "shown"] for n in ast.walk(tree)):
        return []
    quiet = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.With) and any(_chain(item.context_expr)[-1:] == ["ioff"] for item in node.items):
            quiet |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return [
        n.lineno
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and _chain(n.func) in (["plt", "subplots"], ["plt", "figure"]) and id(n) not in quiet
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_a_figure_is_shown_once(path):
    nb = nbformat.read(path, as_version=4)
    twice = {
        i: lines for i, c in enumerate(nb.cells) if c.cell_type == "code" and (lines := figures_shown_twice(c.source))
    }
    assert not twice, (
        f"{path.name}: cells {twice} (cell: lines) make a figure outside plt.ioff() and show it with viz.shown"
    )


def test_the_twice_check_finds_lab1s_figure():
    """lab 1's plot of joint 1, as it was when it appeared twice, and as it is."""
    before = "fig, ax = plt.subplots(figsize=(7, 2.8))\nax.plot(t, q)\nviz.shown(fig)"
    after = "with plt.ioff():\n    fig, ax = plt.subplots(figsize=(7, 2.8))\nax.plot(t, q)\nviz.shown(fig)"
    assert figures_shown_twice(before) == [1] and figures_shown_twice(after) == []
    assert figures_shown_twice("fig, ax = plt.subplots()\nax.plot(t, q)") == []  # shown once, by pyplot


# A widget is what a cell gets from a viz factory (or the lab's teach pendant); a call of one of these on it, or
# an assignment to any of its attributes, changes what it shows.
_WIDGET_FACTORY = re.compile(r"explorer|playground|animator|viewer|player|control_lab|pendant|show_solutions")
_DRIVES = re.compile(r"^(set|load_|snap|reset)|^(hold|resume|press|click|play)$")


def _chain(node):
    """The names of an attribute chain a.b.c as ["a", "b", "c"] (subscripts skipped), or [] if not rooted at a name."""
    names = []
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        if isinstance(node, ast.Attribute):
            names.append(node.attr)
        node = node.func if isinstance(node, ast.Call) else node.value
    return [node.id, *reversed(names)] if isinstance(node, ast.Name) else []


def later_cells_driving_earlier_widgets(cells):
    """(cell, widget, cell it was made in, what) for every code cell that changes a widget an earlier cell made."""
    made, found = {}, []
    for i, source in enumerate(cells):
        code = re.sub(r"^(\s*)[%!].*$", r"\1pass", source, flags=re.M)  # IPython magics: no Python
        tree = ast.parse(code)
        for node in ast.walk(tree):  # the widgets this cell makes (or makes anew under an old name)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                chain = _chain(node.value.func)
                if chain and (chain[0] == "viz" or _WIDGET_FACTORY.search(chain[-1])):
                    made.update({t.id: i for t in node.targets if isinstance(t, ast.Name)})
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _DRIVES.search(node.func.attr):
                targets = [(node.func, ".".join(_chain(node.func)) + "()")]
            elif isinstance(node, (ast.Assign, ast.AugAssign)):
                for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(t, (ast.Attribute, ast.Subscript)):
                        targets.append((t, ".".join(_chain(t)) + " = …"))
            for target, what in targets:
                root = _chain(target)[:1]
                if root and root[0] in made and made[root[0]] != i:
                    found.append((i, root[0], made[root[0]], what))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_no_later_cell_changes_a_widget_an_earlier_cell_made(path):
    """A widget a chapter opens with shows what its own cell made of it, or what the student set: a later cell
    that moved it (chapter 03's explorer set to a singular pose, chapter 06's torque split moved to (0°, 90°))
    changed it without telling. A later cell makes a widget of its own, or reads the earlier one."""
    nb = nbformat.read(path, as_version=4)
    code = [c.source if c.cell_type == "code" else "" for c in nb.cells]
    found = later_cells_driving_earlier_widgets(code)
    assert not found, "\n".join(
        f"{path.name}: cell {i} changes `{w}`, made in cell {j} ({what}): make a widget of its own in cell {i}"
        for i, w, j, what in found
    )


def test_the_widget_check_finds_a_later_cell_that_drives_an_earlier_widget():
    """The check above, on the pattern it must catch (chapter 03 before it was fixed) and on what it must allow."""
    drives = later_cells_driving_earlier_widgets(
        [
            "explorer = viz.ik_explorer(puma, pose=T_ex)\nexplorer",
            "print(explorer.sols)",  # reading is fine
            "explorer.set_T(T_s)",
            "play = viz.torque_split_explorer(arm)",
            "play.joints.set_q(q)\nplay.rates[0].value = 3.0\nsplit = play.model.terms_fn(q, qd, qdd)",
            "play = viz.torque_split_explorer(arm, q)\nplay.set_state(q=q)",  # a widget of its own, set in its cell
        ]
    )
    assert [(i, w, j) for i, w, j, _ in drives] == [(2, "explorer", 0), (4, "play", 3), (4, "play", 3)]


def test_the_markup_check_finds_printed_html():
    cell = nbformat.v4.new_code_cell("print(explorer.message.value)")
    cell.outputs = [nbformat.v4.new_output("stream", text="<div style='line-height:1.35'>8 solution(s)<br>…\n")]
    plain = nbformat.v4.new_code_cell("print(explorer.message_text)")
    plain.outputs = [nbformat.v4.new_output("stream", text="8 solution(s), 4 within the joint limits; x < 2, y > 1\n")]
    assert printed_markup(nbformat.v4.new_notebook(cells=[plain, cell])) == [1]


def test_the_alt_check_finds_a_figure_with_only_a_generated_alt_text():
    from matplotlib.figure import Figure

    from armlab import viz

    fig = Figure()
    fig.subplots().plot([0, 1], [0, 1])
    generated = nbformat.v4.new_code_cell("viz.shown(fig)")
    generated.outputs = [nbformat.v4.new_output("display_data", data=viz.shown(fig)._repr_mimebundle_())]
    written = nbformat.v4.new_code_cell("viz.shown(fig, alt=...)")
    written.outputs = [
        nbformat.v4.new_output("display_data", data=viz.shown(fig, alt="a line from 0 to 1")._repr_mimebundle_())
    ]
    assert generated_alt(nbformat.v4.new_notebook(cells=[written, generated])) == [1]


def test_every_notebook_runs_headless_or_in_the_browser():
    assert set(NOTEBOOKS) == set(HEADLESS) | {COURSE / n for n in {*BROWSER_NOTEBOOKS, *RUN_ELSEWHERE}}
    assert {p.name for p in HEADLESS} >= {"lab2_pick_and_place.ipynb"}


@pytest.mark.timeout(240)
@pytest.mark.parametrize("path", HEADLESS, ids=_id)
def test_notebook_runs_headless(path, tmp_path):
    nb = run_whole(nbformat.read(path, as_version=4), tmp_path, COURSE)
    assert not run_problems(nb), f"{path.name}: {run_problems(nb)}"


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
