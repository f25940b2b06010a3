"""The layer rule of docs/architecture.md, read from the source with ``ast``.

_core → transforms → kinematics → algorithms (ik, jacobians → dynamics → statics → sim, control)
→ robot → models → viz, export → lab (the lab's teach pendant draws with viz). Statics sits above dynamics because its recursion is the inward
pass of Newton–Euler (one algorithm, not two). A module imports only from its own package and from lower
layers; ``grading`` stands alone. Every import counts, including the lazy ones inside functions.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

LIB = Path(__file__).resolve().parents[2] / "lib"
PKG = LIB / "armlab"

#: Rank of each top-level part of armlab; a module may import only strictly lower ranks (or its own part).
RANK = {
    "_core": 0, "transforms": 1, "kinematics": 2,
    "ik": 3, "jacobians": 3, "dynamics": 4, "statics": 5, "sim": 6, "control": 6,
    "robot": 7, "models": 8, "viz": 9, "export": 9, "lab": 10,
}
#: Old module paths kept as one-line re-exports for released notebooks, and the package itself.
TOP = {"__init__", "dh", "viz_ik", "grading_ik", "nbgrader_hardening"}
#: What grading may use besides itself: its frozen builtins come from the standard library.
GRADING_ALLOWED = {"numpy", "sympy", "nbgrader", "traitlets", "nbformat", "nbconvert", "IPython"}


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
                base = base[:len(base) - node.level + 1]
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
            if mine == "grading":
                if top == "armlab" and part_of(target) != "grading":
                    out.append(f"{where}: grading imports {target} (grading must stand alone)")
                elif top not in ("armlab", *GRADING_ALLOWED) and top not in sys.stdlib_module_names:
                    out.append(f"{where}: grading imports {target} (only stdlib, numpy, sympy, nbgrader)")
                continue
            if top != "armlab" or mine in TOP:
                continue
            other = part_of(target)
            if other == mine:
                continue
            if other == "grading" or other in TOP:
                out.append(f"{where}: {me} imports {target}")
            elif other not in RANK or mine not in RANK:
                out.append(f"{where}: {me} or {target} has no layer in RANK (add it to docs/architecture.md)")
            elif RANK[other] >= RANK[mine]:
                out.append(f"{where}: {me} (layer {RANK[mine]}) imports {target} (layer {RANK[other]}): upward or sideways")
    return out


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
                cycles.append(" → ".join(stack[stack.index(nxt):] + [nxt]))
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


@pytest.mark.parametrize("source, expected", [
    ("from ..robot import DHRobot", "armlab/ik/x.py:1: armlab.ik.x (layer 3) imports armlab.robot (layer 7)"),
    ("def f():\n    from armlab import viz", "armlab/ik/x.py:2: armlab.ik.x (layer 3) imports armlab.viz (layer 9)"),
])
def test_the_rule_catches_an_upward_import(tmp_path, monkeypatch, source, expected):
    """A test that cannot fail is a defect: plant an upward import and see it reported with file and line."""
    fake = tmp_path / "armlab" / "ik"
    fake.mkdir(parents=True)
    for p in (tmp_path / "armlab" / "__init__.py", fake / "__init__.py", tmp_path / "armlab" / "robot.py",
              tmp_path / "armlab" / "viz.py"):
        p.write_text("")
    (fake / "x.py").write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "LIB", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "PKG", tmp_path / "armlab")
    monkeypatch.setattr(sys.modules[__name__], "FILES", sorted((tmp_path / "armlab").rglob("*.py")))
    assert any(v.startswith(expected) for v in violations()), violations()
