"""The layer rule of docs/architecture.md, read from the source with ``ast``.

The rule is the "Layers" table of ``docs/architecture.md``: this file parses it (:func:`layer_table`), so the
document and the test cannot drift. A module imports only from its own package and from packages of a lower
rank; the package root (``armlab/__init__.py``) may import any layer; ``grading`` (the student kernel's side),
``autograde`` (the instructor's) and ``class_report`` stand alone. Every import
counts, including the lazy ones inside functions. Every package of ``lib/armlab`` must have a row, and every
row must name a package that exists.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

LIB = Path(__file__).resolve().parents[2] / "lib"
PKG = LIB / "armlab"

DOC = LIB.parent / "docs" / "architecture.md"
#: The old module files, where they still exist: one-line re-exports for released notebooks (their paths are
#: kept by the import hook in armlab._core.deprecation). Exempt from the rule, like the package root.
OLD_PATHS = {"dh", "viz_ik", "grading_ik", "nbgrader_hardening"}


def layer_table(text: str) -> dict[str, int | str]:
    """package → rank (an int), "root" or "alone", from the first table under the "## Layers" heading.

    A row is ``| rank | `pkg`, `pkg` | what |``; the rank is an integer, ``root`` (may import any layer) or
    ``alone`` (imports no other part of armlab).
    """
    m = re.search(r"^## Layers\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    if m is None:
        raise ValueError("docs/architecture.md has no '## Layers' section")
    table: dict[str, int | str] = {}
    rows = [line for line in m.group(1).splitlines() if line.lstrip().startswith("|")]
    for line in rows[2:]:  # the header and the |---| line
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rank = int(cells[0]) if re.fullmatch(r"\d+", cells[0]) else cells[0]
        if rank not in ("root", "alone") and not isinstance(rank, int):
            raise ValueError(f"layer table: rank must be an integer, 'root' or 'alone', got {cells[0]!r}")
        for name in re.findall(r"`([^`]+)`", cells[1]):
            if name in table:
                raise ValueError(f"layer table: {name} has two rows")
            table[name] = rank
    if not table:
        raise ValueError("docs/architecture.md: the Layers section has no table")
    return table


TABLE = layer_table(DOC.read_text(encoding="utf-8"))
#: Rank of each top-level part of armlab; a module may import only strictly lower ranks (or its own part).
RANK = {name: rank for name, rank in TABLE.items() if isinstance(rank, int)}
#: The package root and the old module paths: they may import any layer.
TOP = {name for name, rank in TABLE.items() if rank == "root"} | OLD_PATHS
#: Parts that import no other part of armlab.
ALONE = {name for name, rank in TABLE.items() if rank == "alone"}
#: What a part that stands alone may use besides itself and the standard library.
ALONE_ALLOWED = {
    "numpy",
    "sympy",
    "nbgrader",
    "traitlets",
    "nbformat",
    "nbconvert",
    "IPython",
    "jupyter_client",  # nbclient's kernel managers: the batch grader's forked kernels
    "ipykernel_launcher",  # the kernel nbgrader starts, which a forked kernel becomes
    "sqlalchemy",  # nbgrader's gradebook, read by the batch grader
    "jinja2",  # nbconvert's templates: the feedback's exporter (autograde/offline_html.py)
    "latex2mathml",  # the feedback's maths as MathML, offline (the course extra)
    "dask",
    "distributed",
}  # the batch grader's workers (the scale extra, imported on use)
#: grading runs in the student's kernel: numpy, sympy and IPython (the feedback's traceback hook), no nbgrader
GRADING_ALLOWED = {"numpy", "sympy", "IPython"}


def allowed(part: str) -> set[str]:
    """The third-party packages a part that stands alone may import."""
    return GRADING_ALLOWED if part == "grading" else ALONE_ALLOWED


def module_name(path: Path) -> str:
    parts = list(path.relative_to(LIB).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path):
    """(line, absolute module name) for every import in the file, relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            # `from . import x` and `from .pkg import sub` name submodules: count those
            for alias in node.names:
                sub = f"{mod}.{alias.name}"
                yield node.lineno, sub if _is_module(sub) else mod


def _is_module(name: str) -> bool:
    parts = name.split(".")
    if parts[0] != "armlab":
        return False
    p = LIB.joinpath(*parts)
    return p.with_suffix(".py").exists() or (p / "__init__.py").exists()


def part_of(name: str) -> str:
    """'armlab.ik.puma560' → 'ik'; 'armlab' → '__init__'."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


FILES = sorted(PKG.rglob("*.py"))


def violations():
    out = []
    for path in FILES:
        me = module_name(path)
        mine = part_of(me)
        for line, target in imports(path):
            where = f"{path.relative_to(LIB)}:{line}"
            top = target.split(".")[0]
            if mine in ALONE:
                if top == "armlab" and part_of(target) != mine:
                    out.append(f"{where}: {mine} imports {target} ({mine} must stand alone)")
                elif top not in ("armlab", *allowed(mine)) and top not in sys.stdlib_module_names:
                    out.append(f"{where}: {mine} imports {target} (only stdlib and {', '.join(sorted(allowed(mine)))})")
                continue
            if top != "armlab" or mine in TOP:
                continue
            other = part_of(target)
            if other == mine:
                continue
            if other in ALONE or other in TOP:
                out.append(f"{where}: {me} imports {target}")
            elif other not in RANK or mine not in RANK:
                out.append(f"{where}: {me} or {target} has no layer in docs/architecture.md's table")
            elif RANK[other] >= RANK[mine]:
                out.append(
                    f"{where}: {me} (layer {RANK[mine]}) imports {target} (layer {RANK[other]}): upward or sideways"
                )
    return out


def parts_of_the_library(pkg: Path | None = None) -> set[str]:
    """The top-level parts of armlab: its subpackages and modules (``__init__`` for the package root)."""
    pkg = pkg or PKG
    out = {p.stem for p in pkg.glob("*.py")}
    out |= {p.parent.name for p in pkg.glob("*/__init__.py")}
    return out


def table_problems(table: dict[str, int | str], parts: set[str]) -> list[str]:
    """What is wrong between the doc's layer table and the library's parts (empty when they agree)."""
    out = [
        f"{name}: a part of lib/armlab without a row in docs/architecture.md's layer table"
        for name in sorted(parts - set(table) - OLD_PATHS)
    ]
    out += [
        f"{name}: a row of docs/architecture.md's layer table, but no such package in lib/armlab"
        for name in sorted(set(table) - parts)
    ]
    return out


def test_the_layer_table_is_read_from_the_doc():
    """The parse gives the ranks the doc states (a broken parse would otherwise pass everything or nothing)."""
    assert RANK["_core"] == 0 and RANK["transforms"] == 1
    assert RANK["ik"] == RANK["jacobians"] < RANK["dynamics"] < RANK["statics"] < RANK["sim"] == RANK["control"]
    assert RANK["control"] < RANK["robot"] < RANK["models"] < RANK["viz"] == RANK["export"] < RANK["lab"]
    assert TABLE["__init__"] == "root" and TABLE["grading"] == TABLE["autograde"] == "alone"


def test_the_layer_table_names_every_package_and_only_real_ones():
    assert not table_problems(TABLE, parts_of_the_library()), "\n".join(table_problems(TABLE, parts_of_the_library()))


def test_a_package_missing_from_the_table_fails(tmp_path):
    """Plant a package the doc does not know, and drop a row from the doc: both are reported."""
    pkg = tmp_path / "armlab"
    for part in [p for p in TABLE if p != "__init__"] + ["newpkg"]:
        (pkg / part).mkdir(parents=True)
        (pkg / part / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    problems = table_problems(TABLE, parts_of_the_library(pkg))
    assert problems == ["newpkg: a part of lib/armlab without a row in docs/architecture.md's layer table"]
    text = DOC.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| 5 |"))
    assert "`statics`" in row
    shorter = layer_table(text.replace(row + "\n", ""))
    assert table_problems(shorter, parts_of_the_library()) == [
        "statics: a part of lib/armlab without a row in docs/architecture.md's layer table"
    ]


def test_a_package_without_a_layer_is_reported_at_its_imports(tmp_path, monkeypatch):
    """An import from or into a package the table does not know is a violation, not silently allowed."""
    fake = tmp_path / "armlab" / "newpkg"
    fake.mkdir(parents=True)
    (tmp_path / "armlab" / "__init__.py").write_text("")
    (fake / "__init__.py").write_text("from ..ik import solve\n")
    (tmp_path / "armlab" / "ik.py").write_text("")
    monkeypatch.setattr(sys.modules[__name__], "LIB", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "PKG", tmp_path / "armlab")
    monkeypatch.setattr(sys.modules[__name__], "FILES", sorted((tmp_path / "armlab").rglob("*.py")))
    assert violations() == [
        "armlab/newpkg/__init__.py:1: armlab.newpkg or armlab.ik has no layer in docs/architecture.md's table"
    ]


@pytest.mark.integration  # starts a process
def test_import_armlab_stays_light():
    """docs/architecture.md: `import armlab` loads neither sympy, matplotlib, ipywidgets, anywidget, websockets,
    dask nor casadi."""
    heavy = ("sympy", "matplotlib", "ipywidgets", "anywidget", "websockets", "dask", "casadi")
    code = f"import sys, armlab; print(','.join(m for m in {heavy!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(LIB)},
    )
    assert out.stdout.strip() == ""


def test_every_import_goes_down_the_layers():
    assert not violations(), "\n".join(violations())


def test_no_import_cycles():
    graph = {}
    for path in FILES:
        me = module_name(path)
        graph[me] = {t for _, t in imports(path) if t.startswith("armlab") and _is_module(t) and t != me}
    cycles = []
    state = {}

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" → ".join(stack[stack.index(nxt) :] + [nxt]))
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_no_private_names_imported_across_modules():
    bad = []
    for path in FILES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("armlab")):
                for alias in node.names:
                    if alias.name.startswith("_") and alias.name != "__version__":
                        bad.append(f"{path.relative_to(LIB)}:{node.lineno}: imports {alias.name}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    "source, expected",
    [
        ("from ..robot import DHRobot", "armlab/ik/x.py:1: armlab.ik.x (layer 3) imports armlab.robot (layer 7)"),
        (
            "def f():\n    from armlab import viz",
            "armlab/ik/x.py:2: armlab.ik.x (layer 3) imports armlab.viz (layer 9)",
        ),
    ],
)
def test_the_rule_catches_an_upward_import(tmp_path, monkeypatch, source, expected):
    """A test that cannot fail is a defect: plant an upward import and see it reported with file and line."""
    fake = tmp_path / "armlab" / "ik"
    fake.mkdir(parents=True)
    for p in (
        tmp_path / "armlab" / "__init__.py",
        fake / "__init__.py",
        tmp_path / "armlab" / "robot.py",
        tmp_path / "armlab" / "viz.py",
    ):
        p.write_text("")
    (fake / "x.py").write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "LIB", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "PKG", tmp_path / "armlab")
    monkeypatch.setattr(sys.modules[__name__], "FILES", sorted((tmp_path / "armlab").rglob("*.py")))
    assert any(v.startswith(expected) for v in violations()), violations()
