"""Issue #19 §4: at least 90 % of the public functions in ``lib/armlab`` have annotated signatures.

The rule, read from the source with ``ast`` (nothing is imported):

- **Counted**: every ``def`` (or ``async def``) whose name does not start with ``_``, at module level
  or in a class body (methods, properties, static and class methods, in nested classes too), in every
  module of ``lib/armlab``, the private packages included (``_core`` is the library's own API and is
  typed like the rest). Definitions inside ``if``/``try`` blocks at those levels count.
- **Not counted**: names starting with ``_`` (dunders such as ``__init__`` included) and functions
  nested inside other functions (closures and callbacks are not callable from outside).
- **Fully annotated**: every parameter has an annotation (positional-only, ordinary, keyword-only,
  ``*args`` and ``**kwargs``), except the first parameter of a method that is not a ``staticmethod``
  (``self``/``cls``), and the return has one (``-> None`` included).

The issue's "104 of 857" counted differently: every def without a leading underscore, nested ones
included, typed if it had at least one annotation. That count is printed too, for comparison.
"""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "lib" / "armlab"
TARGET = 0.90


def _is_static(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list)


def fully_annotated(fn: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> bool:
    a = fn.args
    params = [*a.posonlyargs, *a.args, *a.kwonlyargs]
    if method and params and not _is_static(fn):
        params = params[1:]
    params += [p for p in (a.vararg, a.kwarg) if p is not None]
    return fn.returns is not None and all(p.annotation is not None for p in params)


def public_functions(tree: ast.Module) -> list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, bool]]:
    """(function, is_method) for every counted definition in one module, by the rule above."""
    out: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, bool]] = []

    def visit(body: list[ast.stmt], method: bool) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if not node.name.startswith("_"):
                    out.append((node, method))
            elif isinstance(node, ast.ClassDef):
                visit(node.body, True)
            elif isinstance(node, ast.If):
                visit(node.body + node.orelse, method)
            elif isinstance(node, ast.Try):
                visit(node.body + node.orelse + node.finalbody + [s for h in node.handlers for s in h.body], method)

    visit(tree.body, False)
    return out


def survey(pkg: Path = PKG) -> dict[str, tuple[int, int, list[str]]]:
    """module path → (typed, counted, names of the untyped ones)."""
    out = {}
    for path in sorted(pkg.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        fns = public_functions(tree)
        untyped = [f"{fn.name}:{fn.lineno}" for fn, method in fns if not fully_annotated(fn, method)]
        out[str(path.relative_to(pkg.parent))] = (len(fns) - len(untyped), len(fns), untyped)
    return out


def issue_count(pkg: Path = PKG) -> tuple[int, int]:
    """The issue's own count: (defs with any annotation, all defs without a leading underscore)."""
    typed = total = 0
    for path in pkg.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
                a = node.args
                total += 1
                typed += node.returns is not None or any(
                    p.annotation is not None for p in [*a.posonlyargs, *a.args, *a.kwonlyargs]
                )
    return typed, total


def test_the_rule_counts_what_it_says(tmp_path: Path) -> None:
    """The counter itself, on a planted module: what counts, what is typed."""
    pkg = tmp_path / "armlab"
    pkg.mkdir()
    (pkg / "m.py").write_text(
        "def typed(x: int, *a: int, k: int = 1, **kw: int) -> int: ...\n"
        "def no_return(x: int): ...\n"
        "def bare_kwargs(x: int, **kw) -> None: ...\n"
        "def _private(x): ...\n"
        "def outer() -> None:\n    def inner(y): ...\n"
        "class C:\n"
        "    def __init__(self, x): ...\n"
        "    def method(self, x: int) -> int: ...\n"
        "    @staticmethod\n    def static(x) -> int: ...\n"
        "    @classmethod\n    def make(cls) -> 'C': ...\n"
        "if True:\n    def in_if(x: float) -> float: ...\n"
    )
    typed, counted, untyped = survey(pkg)["armlab/m.py"]
    assert (typed, counted) == (5, 8), untyped
    assert sorted(n.split(":")[0] for n in untyped) == ["bare_kwargs", "no_return", "static"]


def test_at_least_90_percent_of_public_functions_are_typed() -> None:
    stats = survey()
    typed = sum(t for t, _, _ in stats.values())
    counted = sum(n for _, n, _ in stats.values())
    assert counted > 500, f"the survey found only {counted} public functions: is {PKG} the library?"
    share = typed / counted
    worst = sorted(((t / n, p, n - t, u) for p, (t, n, u) in stats.items() if t < n), key=lambda r: (r[0], -r[2]))
    lines = [
        f"{typed} of {counted} public functions fully annotated ({share:.1%}; target {TARGET:.0%})",
        "issue #19's count (any annotation, nested defs included): %d of %d" % issue_count(),
        "least-typed modules:",
    ]
    lines += [
        f"  {p}: {n_untyped} untyped ({frac:.0%} typed): {', '.join(u[:6])}{' …' if len(u) > 6 else ''}"
        for frac, p, n_untyped, u in worst[:15]
    ]
    print("\n".join(lines))
    assert share >= TARGET, "\n".join(lines)
