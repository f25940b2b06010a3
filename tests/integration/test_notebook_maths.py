"""Every formula in a notebook's markdown is typeset: ``$…$`` or ``$$…$$`` LaTeX that JupyterLab's MathJax renders.

Outside the maths delimiters markdown shows a formula as raw text: ``^{i+1}`` and ``\\frac`` stay as typed, and an
underscore between ``}`` and a letter opens an emphasis that eats the underscores up to the next one (issue 22).
``formula_problems`` splits a cell the way JupyterLab does (code spans and fenced code first, then ``$$…$$`` and
``$…$``, a formula ending only where its braces balance and never across a blank line) and looks in the prose that
is left for the marks of an unrendered formula: ``^``, underscores, LaTeX commands, Unicode super- and subscripts
(ⁱ ᵀ ₁), letters with a dot (θ̇), mathematical script letters (𝓛), Σ ∂ √, Greek letters, indexed symbols (``q3``) and
one-letter equations (``q = 0``). Units (kg·m², m/s²) are not formulas. Inside the maths the braces must balance.

Every notebook is checked: course/, solutions/ and the released exercises/.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted([*REPO.glob("course/*.ipynb"), *REPO.glob("solutions/*/*.ipynb"), *REPO.glob("exercises/*/*.ipynb")])

_FENCE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[^\n]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
_LINK_TARGET = re.compile(r"\]\([^)\s]*\)|<https?://[^>]*>|https?://\S+")
# JupyterLab's removeMath tokens: the delimiters, escaped braces and dollars, braces, and blank lines
_MATH_TOKEN = re.compile(r"\$\$|\$|\\[{}$]|[{}]|\n[ \t]*\n")
_PLACEHOLDER = "@@0@@"  # what JupyterLab puts in the markdown where a formula was
_UNIT = re.compile("(?<!\\w)(?:kg\u00b7m|rad/s|m/s)[\u00b2\u00b3]")  # kg·m², rad/s², m/s²

_OUTSIDE = [
    (re.compile(r"\^"), "'^'"),
    (re.compile(r"\\[A-Za-z]+"), "LaTeX command"),
    # super- and subscript digits and letters (ⁱ ᵀ ² ₁ ⁻), mathematical alphanumerics (𝓛 𝓘), Σ ∏ ∂ ∫ √ ∇ ′
    (
        re.compile(
            "[\u00b2\u00b3\u00b9\u2070-\u209f\u1d2c-\u1d6a\u1d9c-\u1dbf\U0001d400-\U0001d7ff"
            "\u2211\u03a3\u220f\u2202\u222b\u221a\u2207\u2032\u2033]"
        ),
        "Unicode maths",
    ),
    (re.compile("[\u0391-\u03a9\u03b1-\u03c9\u03d1\u03d5\u03f5]"), "Greek letter"),
    (re.compile("[A-Za-z\u0370-\u03ff][\u0300-\u036f]"), "letter with a Unicode accent (θ̇)"),
    (re.compile(r"(?<![\w.])[A-Za-z]\d{1,2}(?!\w)"), "indexed symbol (q3 for $q_3$)"),
    (re.compile(r"(?<![\w.'’])[A-Za-z] ?= "), "equation"),
]


def _strip_code(text: str) -> str:
    text = _FENCE.sub(" ", text)
    text = _CODE_SPAN.sub(" ", text)
    return _LINK_TARGET.sub("]", text)


def split_math(text: str) -> tuple[str, list[str], list[str]]:
    """(the prose with each formula replaced by a placeholder, the formulas, errors in delimiters or braces)."""
    prose: list[str] = []
    maths: list[str] = []
    errors: list[str] = []
    pos = 0  # start of the prose not yet copied
    start = None  # where the open formula's delimiter begins
    delim = ""
    braces = 0
    for m in _MATH_TOKEN.finditer(text):
        tok = m.group()
        if start is None:
            if tok in ("$", "$$"):
                prose.append(text[pos : m.start()])
                start, delim, braces = m.start(), tok, 0
            continue
        if tok == "{":
            braces += 1
        elif tok == "}":
            braces -= 1
            if braces < 0:
                errors.append(f"a '}}' closes a brace never opened in {_snippet(text[start : m.end()])}")
                braces = 0
        elif tok == delim:
            if braces:
                errors.append(f"unbalanced braces ({braces} '{{' left open) in {_snippet(text[start : m.end()])}")
            maths.append(text[start : m.end()])
            prose.append(_PLACEHOLDER)
            pos, start = m.end(), None
        elif tok.startswith("\n"):
            errors.append(f"a blank line inside {delim}…{delim} cuts the formula {_snippet(text[start : m.start()])}")
            pos, start = m.start(), None
    if start is not None:
        errors.append(f"{delim} opened and never closed: {_snippet(text[start:])}")
        pos = len(text)
    prose.append(text[pos:])
    return "".join(prose), maths, errors


def _snippet(s: str, width: int = 60) -> str:
    s = " ".join(s.split())
    return repr(s if len(s) <= width else s[: width - 1] + "…")


def _context(text: str, i: int, j: int, width: int = 25) -> str:
    return _snippet(text[max(0, i - width) : j + width], 2 * width + (j - i) + 2)


def _punct(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "PS"


def _underscore_problems(prose: str) -> list[str]:
    """An underscore left in the prose is a raw subscript (``f_v``) or, where CommonMark's flanking rules let it open
    or close emphasis (``}_i``, ``v_{``), the edge of italics that swallow the text and underscores between."""
    out = []
    for m in re.finditer(r"_+", prose):
        before = prose[m.start() - 1] if m.start() else " "
        after = prose[m.end()] if m.end() < len(prose) else " "
        left = not after.isspace() and (not _punct(after) or before.isspace() or _punct(before))
        right = not before.isspace() and (not _punct(before) or after.isspace() or _punct(after))
        opens, closes = left and (not right or _punct(before)), right and (not left or _punct(after))
        what = "becomes emphasis" if opens or closes else "raw subscript"
        out.append(f"underscore outside $…$ ({what}): {_context(prose, m.start(), m.end())}")
    return out


def formula_problems(markdown: str) -> list[str]:
    """What in one markdown cell is a formula that would not be typeset (empty when everything renders)."""
    prose, _, problems = split_math(_strip_code(markdown))
    prose = _UNIT.sub("unit", prose)
    for pattern, what in _OUTSIDE:
        problems += [f"{what} outside $…$: {_context(prose, m.start(), m.end())}" for m in pattern.finditer(prose)]
    return problems + _underscore_problems(prose)


def notebook_problems(path: Path) -> list[str]:
    """Each unrendered formula of a notebook, as 'notebook cell N (id …): what: the text around it'."""
    nb = nbformat.read(path, as_version=4)
    name = path.relative_to(REPO) if path.is_relative_to(REPO) else path
    return [
        f"{name} cell {i} (id {cell.get('id', '?')}): {problem}"
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "markdown"
        for problem in formula_problems(cell.source)
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_formula_is_typeset(path):
    problems = notebook_problems(path)
    assert not problems, f"{len(problems)} unrendered formula(s):\n" + "\n".join(problems)


def test_every_notebook_is_checked():
    homework = {p.parent.name for p in NOTEBOOKS if p.parts[-3] == "solutions"}
    released = {p.parent.name for p in NOTEBOOKS if p.parts[-3] == "exercises"}
    assert len(homework) >= 8 and released == homework, (homework, released)
    assert sum(p.parent.name == "course" for p in NOTEBOOKS) >= 12


# --- the check itself: it catches what issue 22 saw, and passes what renders --------------------------
@pytest.mark.parametrize(
    ("markdown", "what"),
    [
        # hw04 part 2, part 3 and chapter 07 as they were (issue 22)
        ("revolute: ^{i+1}ω_{i+1} = ^{i+1}_iR·ⁱω_i + θ̇·ẑ, ^{i+1}v_{i+1} = ^{i+1}_iR·ⁱv_i", "'^' outside"),
        ("revolute: ^{i+1}ω_{i+1} = ^{i+1}_iR·ⁱω_i + θ̇·ẑ, ^{i+1}v_{i+1} = ^{i+1}_iR·ⁱv_i", "becomes emphasis"),
        ("J = [[−Σ_{j≥k} l_j·sin(q1 + … + q_j)], [1, 1, 1]]", "Unicode maths"),
        ("the operator 𝓛_j{f} = d/dt ∂f/∂q̇_j − ∂f/∂q_j (2.50)", "Unicode maths"),
        ("the operator 𝓛_j{f} = d/dt ∂f/∂q̇_j − ∂f/∂q_j (2.50)", "letter with a Unicode accent"),
        ("frame {i} turns with ⁱω_i", "Unicode maths"),
        ("friction f_v and f_c", "raw subscript"),
        ("LaTeX without dollars: \\frac{a}{b}", "LaTeX command"),
        ("x^{2} and a_{ij}", "'^' outside"),
        ("Solving θ1 (3.38)", "Greek letter"),
        ("with symbols (q3 is the slide)", "indexed symbol"),
        ("From the start (upright, q = 0)", "equation"),
        ("braces $x_{i+1$ never closed", "unbalanced braces"),
        ("a dollar $x never closed", "$ opened and never closed"),
        ("braces $x_{i}}$ closed twice", "closes a brace never opened"),
        ("$$a = b\n\nc = d$$", "blank line"),
    ],
)
def test_planted_formula_is_caught(markdown, what):
    problems = formula_problems(markdown)
    assert any(what in p for p in problems), problems


@pytest.mark.parametrize(
    "markdown",
    [
        r"$${}^{i+1}\omega_{i+1} = {}^{i+1}_{i}R\,{}^{i}\omega_i + \dot\theta\,\hat z$$",
        r"inline $\mathcal{L}_j\{f\} = \frac{d}{dt}\frac{\partial f}{\partial \dot q_j}$ and $\tau = J^T F$",
        "code is not maths: `w_next, v_next = propagate(R, P, w, v, qd, joint)` and `q = [θ1, θ2]`",
        "```python\nx_1 = y ** 2  # θ̇\n```",
        "a link with underscores: [errata](../../docs/errata_notes.md), units 0.0048 kg·m² and 9.81 m/s²",
        r"**bold $\{i+1\}$** and an escaped \$5",
    ],
)
def test_typeset_formula_passes(markdown):
    assert formula_problems(markdown) == []


def test_split_math_finds_the_formulas_as_jupyterlab_does():
    prose, maths, errors = split_math(r"a $x_{1}$ b $$\frac{1}{2}$$ c $\{y\}$ d")
    assert maths == [r"$x_{1}$", r"$$\frac{1}{2}$$", r"$\{y\}$"] and errors == []
    assert prose == f"a {_PLACEHOLDER} b {_PLACEHOLDER} c {_PLACEHOLDER} d"


def test_a_planted_cell_fails_and_is_named(tmp_path):
    """hw04's recursion as it was, planted in a copy of the solution: the check names notebook, cell and text."""
    path = tmp_path / "hw04_jacobians.ipynb"
    shutil.copy(REPO / "solutions/hw04_jacobians/hw04_jacobians.ipynb", path)
    test_every_formula_is_typeset(path)  # the committed notebook passes
    nb = nbformat.read(path, as_version=4)
    planted = nbformat.v4.new_markdown_cell("revolute joint:  ^{i+1}ω_{i+1} = ^{i+1}_iR·ⁱω_i + θ̇·ẑ", id="planted")
    nb.cells.insert(3, planted)
    nbformat.write(nb, path)
    with pytest.raises(AssertionError) as failure:
        test_every_formula_is_typeset(path)
    message = str(failure.value)
    assert f"{path} cell 3 (id planted): '^' outside $…$: 'revolute joint: ^{{i+1}}ω_{{i+1}}" in message
    assert "underscore outside $…$ (becomes emphasis)" in message
