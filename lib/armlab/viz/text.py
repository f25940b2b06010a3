"""Matrices, tables and formulas as text: what the panels print next to their figures.

* :func:`format_matrix` / :func:`parse_matrix` — fixed-decimal text of a matrix and back;
* :class:`MatrixDisplay` — that text in an ``ipywidgets.HTML``, updated in place;
* :func:`plain_text` — a panel's HTML message as the text it reads;
* :func:`dh_table` — a robot's DH table as HTML, in its own convention's column order;
* :func:`trig_shorthand` — sin(q₁), cos(q₂+q₃) written as the books' s1, c23;
* :func:`latex` / :func:`show_math` — sympy matrices and equations set as LaTeX in a notebook.
"""

from __future__ import annotations

import html
import math
import re
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .widgets import in_ipython, load_widgets

if TYPE_CHECKING:
    from ..robot import DHRobot

__all__ = [
    "format_matrix",
    "parse_matrix",
    "plain_text",
    "MatrixDisplay",
    "dh_table",
    "Table",
    "trig_shorthand",
    "latex",
    "show_math",
]


# --- matrices -------------------------------------------------------------------------
def format_matrix(T: ArrayLike, decimals: int = 3) -> str:
    """A matrix as fixed-decimal text, one row a line (−0.000 shown as 0.000).

    >>> print(format_matrix(np.eye(2), 2))
    [ 1.00  0.00]
    [ 0.00  1.00]
    """
    T = np.asarray(T, dtype=float)
    T = np.where(np.round(T, decimals) == 0, 0.0, T)  # no "-0.000"
    width = decimals + 3 + max(0, int(math.log10(max(1.0, np.abs(T).max()))))
    return "\n".join("[" + " ".join(f"{v:{width}.{decimals}f}" for v in row) + "]" for row in T)


_NUMBER = re.compile(r"[-+]?\d+\.\d+")


def parse_matrix(text: str, shape: tuple[int, ...] = (4, 4)) -> np.ndarray:
    """Read back the numbers of :func:`format_matrix` (tags and titles are ignored).

    Only numbers with a decimal point count, so a title such as "⁰T₆" does not.

    >>> parse_matrix("<pre>[ 1.00  0.50]\\n[ 0.00 -2.25]</pre>", (2, 2))
    array([[ 1.  ,  0.5 ],
           [ 0.  , -2.25]])
    """
    body = re.sub(r"<[^>]*>", " ", html.unescape(str(text)))
    values = [float(v) for v in _NUMBER.findall(body)]
    need = int(np.prod(shape))
    if len(values) < need:
        raise ValueError(f"text holds {len(values)} numbers, need {need} for shape {shape}")
    return np.array(values[-need:]).reshape(shape)


class MatrixDisplay:
    """A matrix shown with fixed decimals in an ``ipywidgets.HTML`` (``.widget``).

    ``.text`` is the plain text shown; :func:`parse_matrix` reads it back.
    """

    def __init__(self, T: ArrayLike | None = None, title: str = "T", decimals: int = 3) -> None:
        self.title = title
        self.decimals = decimals
        self.text = ""
        self.widget = load_widgets().HTML()
        self.widget.add_class("armlab-matrix")
        if T is not None:
            self.update(T)

    def update(self, T: ArrayLike, title: str | None = None) -> str:
        """Show ``T`` (and a new ``title``); returns the text shown."""
        if title is not None:
            self.title = title
        self.text = format_matrix(T, self.decimals)
        self.widget.value = (
            f"<div style='font-family:monospace'><b>{html.escape(self.title)}</b>"
            f"<pre class='armlab-matrix-text' style='margin:2px 0;line-height:1.25'>"
            f"{html.escape(self.text)}</pre></div>"
        )
        return self.text


def plain_text(markup: str) -> str:
    """What a panel's HTML message says, as plain text: line breaks and block ends become newlines, tags go,
    entities are decoded.

    >>> print(plain_text("<div style='color:#a00'><b>No solution.</b> x &gt; r<br>try again</div>"))
    No solution. x > r
    try again
    """
    text = re.sub(r"<br\s*/?>|</(div|p|tr|li)>", "\n", str(markup), flags=re.I)
    text = html.unescape(re.sub(r"<[^>]*>", "", text))
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


# --- the DH table -------------------------------------------------------------------------
def _fmt_len(v, unit):
    if not isinstance(v, (int, float)):
        return str(v)
    return f"{v * 1000:g}" if unit == "mm" else f"{v:g}"


def _fmt_angle(v):
    return f"{math.degrees(v):g}°" if isinstance(v, (int, float)) else str(v)


class Table:
    """Results as a table, the last value of a cell: HTML in a notebook (it reflows and a screen reader reads it
    by rows and columns, where a long printed line wraps in the middle of words), aligned text when printed.

    >>> print(Table(["case", "error"], [["exact", "0.1°"], ["unknown payload", "2.3°"]]))
    case             error
    exact             0.1°
    unknown payload   2.3°
    """

    def __init__(self, header: Sequence[str], rows: Sequence[Sequence[object]], caption: str = "") -> None:
        self.header = [str(h) for h in header]
        self.rows = [[str(c) for c in row] for row in rows]
        if any(len(row) != len(self.header) for row in self.rows):
            raise ValueError(f"rows must have {len(self.header)} cells each (one per header), got {self.rows!r}")
        self.caption = caption

    def _repr_html_(self) -> str:
        cap = f"<caption style='text-align:left'>{html.escape(self.caption)}</caption>" if self.caption else ""
        head = "".join(f"<th scope='col'>{html.escape(h)}</th>" for h in self.header)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in self.rows)
        return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    def __str__(self) -> str:
        widths = [max(len(r[k]) for r in [self.header, *self.rows]) for k in range(len(self.header))]
        lines = [self.caption] if self.caption else []
        for row in [self.header, *self.rows]:
            cells = [c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(row, widths))]
            lines.append("  ".join(cells).rstrip())
        return "\n".join(lines)

    __repr__ = __str__


def dh_table(robot: DHRobot, unit: str = "mm") -> Any:
    """The robot's DH table as HTML, in its own convention's column order.

    Modified: i, α_{i−1}, a_{i−1}, d_i, θ_i (textbook Table 3.2); standard: i, a_i, α_i, d_i, θ_i
    (lab report Table 2.1). Angles in degrees, lengths in ``unit`` ("mm" or "m"),
    joint variables as qᵢ (+ offset), and the joint range when the model has one.
    """
    from IPython.display import HTML

    if unit not in ("mm", "m"):
        raise ValueError(f"unit must be 'mm' or 'm', got {unit!r}")
    rows = []
    for i, (link, (lo, hi)) in enumerate(zip(robot.links, robot.qlim), start=1):
        q = f"q{i}"
        if link.revolute:
            off = f" + {math.degrees(link.offset):g}°" if link.offset else ""
            th, d = q + off, _fmt_len(link.d, unit)
        else:
            off = f" + {_fmt_len(link.offset, unit)}" if link.offset else ""
            th, d = _fmt_angle(link.theta), q + off
        if not np.isfinite([lo, hi]).all():
            rng = "—"
        elif link.revolute:
            rng = f"{math.degrees(lo):.0f}° … {math.degrees(hi):.0f}°"
        else:
            rng = f"{_fmt_len(lo, unit)} … {_fmt_len(hi, unit)}"
        a, al = _fmt_len(link.a, unit), _fmt_angle(link.alpha)
        cells = (i, al, a, d, th, rng) if robot.modified else (i, a, al, d, th, rng)
        rows.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in cells) + "</tr>")
    head: tuple[str, ...] = (
        ("i", "α<sub>i−1</sub>", f"a<sub>i−1</sub> ({unit})", f"d<sub>i</sub> ({unit})", "θ<sub>i</sub>")
        if robot.modified
        else ("i", f"a<sub>i</sub> ({unit})", "α<sub>i</sub>", f"d<sub>i</sub> ({unit})", "θ<sub>i</sub>")
    )
    head += ("joint range",)
    title = f"{html.escape(robot.name)}: {robot.convention} DH"
    return HTML(
        f"<table><caption>{title}</caption><tr>"
        + "".join(f"<th>{h}</th>" for h in head)
        + "</tr>"
        + "".join(rows)
        + "</table>"
    )


# --- symbolic display -----------------------------------------------------------------
def trig_shorthand(expr: Any, q: Sequence[Any]) -> Any:
    """Rewrite sin(qᵢ), cos(qᵢ), sin(qᵢ+qⱼ)… as the book's sᵢ, cᵢ, s₂₃… symbols.

    >>> import sympy as sp
    >>> q = sp.symbols("q1:4")
    >>> trig_shorthand(sp.cos(q[0]) * sp.sin(q[1] + q[2]), q)
    c1*s23
    """
    import sympy as sp

    q = list(q)
    index = {s: str(k) for k, s in enumerate(q, start=1)}
    reps = {}
    for f in expr.atoms(sp.sin, sp.cos) if hasattr(expr, "atoms") else ():
        arg = f.args[0]
        terms = arg.args if arg.is_Add else (arg,)
        if all(t in index for t in terms):
            name = ("s" if f.func is sp.sin else "c") + "".join(sorted((index[t] for t in terms), key=int))
            reps[f] = sp.Symbol(name)
    return expr.xreplace(reps)


def _sympy_of(obj):
    """A numpy array becomes a sympy Matrix; anything else goes to sympy as it is."""
    import sympy as sp

    return sp.Matrix(obj) if isinstance(obj, np.ndarray) else obj


#: A typeset line wider than this (in characters as :func:`_width` counts them) is broken into several: at
#: 1366×768 with the file browser open an output is 934 px wide, about 90 of them (measured in Chromium).
LINE = 80

_TEX_DROP = re.compile(r"\\(left|right|displaystyle|mathrm|operatorname|text|dot|ddot|hat|bar|tilde|vec)\b|[{}_^ ]")
_TEX_COMMAND = re.compile(r"\\[A-Za-z]+")
_MATRIX = re.compile(r"\\left\[\\begin\{matrix\}(.*?)\\end\{matrix\}\\right\]", re.S)
_BLOCK = re.compile(r"\\(begin|end)\{(aligned|gathered)\}(\[t\])?")


def _line_width(tex: str) -> int:
    t = _TEX_DROP.sub("", tex)
    return len(_TEX_COMMAND.sub(lambda m: "xxx" if m.group(0)[1:] in ("sin", "cos", "tan", "exp", "log") else "x", t))


def _width(tex: str) -> int:
    """Roughly how many characters wide ``tex`` is set: markup dropped, a command (\\sin, \\theta) as its
    printed length (3 for a function name, 1 for a symbol), a matrix as its columns' widest entries side by
    side, several lines (aligned, gathered) as the widest. Fractions count numerator and denominator both,
    so the estimate errs wide."""

    def matrix(m: re.Match) -> str:
        rows = [row.split("&") for row in m.group(1).split("\\\\")]
        widths = [max(_width(r[j]) for r in rows if j < len(r)) for j in range(max(map(len, rows)))]
        return "x" * (sum(widths) + 2 * len(widths))

    tex = _BLOCK.sub("", _MATRIX.sub(matrix, tex))
    return max(_line_width(line) for line in tex.split("\\\\"))


def _sum_lines(expr: Any, room: int) -> list[str] | None:
    """The terms of a sum as LaTeX lines of at most ``room`` characters each (the first without its sign
    written out, the others starting with + or −), or None when ``expr`` is not a sum or fits on one line."""
    import sympy as sp

    if not isinstance(expr, sp.Add) or _width(sp.latex(expr)) <= room:
        return None
    lines: list[str] = []
    line, used = "", 0
    for k, term in enumerate(expr.as_ordered_terms()):
        if k == 0:
            piece = sp.latex(term)
        elif term.could_extract_minus_sign():
            piece = "- " + sp.latex(-term)
        else:
            piece = "+ " + sp.latex(term)
        w = _width(piece)
        if line and used + w > room:
            lines.append(line)
            line, used = "", 0
        line, used = (f"{line} {piece}" if line else piece), used + w
    lines.append(line)
    return lines


def _broken(obj: Any, width: int) -> str | None:
    """LaTeX of a long sum, or of an equation whose right side is one, set on several lines; else None."""
    import sympy as sp

    if isinstance(obj, sp.Equality):
        lhs = sp.latex(obj.lhs)
        lines = _sum_lines(obj.rhs, max(width - _width(lhs) - 2, width // 2))
        if lines is None:
            return None
        return (
            r"\begin{aligned}[t]" + lhs + " &= " + lines[0] + "".join(r" \\ &\quad " + x for x in lines[1:])
        ) + r"\end{aligned}"
    lines = _sum_lines(obj, width)
    if lines is None:
        return None
    return r"\begin{aligned}[t]&" + lines[0] + "".join(r" \\ &\quad " + x for x in lines[1:]) + r"\end{aligned}"


def latex(obj: Any, width: int = LINE) -> str:
    r"""LaTeX of a sympy expression, matrix or equation (``sp.Eq``), a numpy array, or a list/tuple of them.

    A list is set one item a line, a tuple on one line separated by a quad (continued on further lines
    when it would be wider than ``width`` characters); a ``str`` is taken to be LaTeX already. A sum, or an
    equation's right side, wider than ``width`` is broken before a + or − onto further lines, so that
    nothing is wider than the notebook column. Matrices are set as they are: show a wide one by rows or
    entries.

    >>> import sympy as sp
    >>> x = sp.Symbol("x")
    >>> print(latex([sp.Eq(x, 1), (x, sp.Matrix([[1, 2]]))]))
    \begin{gathered}x = 1 \\ x \quad \left[\begin{matrix}1 & 2\end{matrix}\right]\end{gathered}
    >>> print(latex(sp.Eq(sp.Symbol("y"), sum(sp.symbols("a1:9"))), width=12))
    \begin{aligned}[t]y &= a_{1} + a_{2} + a_{3} \\ &\quad + a_{4} + a_{5} + a_{6} \\ &\quad + a_{7} + a_{8}\end{aligned}
    """
    import sympy as sp

    if isinstance(obj, str):
        return obj
    if isinstance(obj, list):
        return r"\begin{gathered}" + r" \\ ".join(latex(item, width) for item in obj) + r"\end{gathered}"
    if isinstance(obj, tuple):
        lines: list[list[str]] = [[]]
        used = 0
        for item in (latex(item, width) for item in obj):
            w = _width(item) + 2
            if lines[-1] and used + w > width:  # this item on the next line
                lines.append([])
                used = 0
            lines[-1].append(item)
            used += w
        if len(lines) == 1:
            return r" \quad ".join(lines[0])
        return r"\begin{gathered}" + r" \\ ".join(r" \quad ".join(line) for line in lines) + r"\end{gathered}"
    obj = _sympy_of(obj)
    return _broken(obj, width) or sp.latex(obj)


def _plain(obj) -> str:
    """The text :func:`show_math` prints without IPython: sympy's pretty form, list items a line each."""
    import sympy as sp

    if isinstance(obj, str):
        return obj
    if isinstance(obj, list):
        return "\n\n".join(_plain(item) for item in obj)
    if isinstance(obj, tuple):
        return sp.pretty(tuple(_sympy_of(item) for item in obj), use_unicode=True)
    return sp.pretty(_sympy_of(obj), use_unicode=True)


def show_math(obj: Any) -> None:
    """Display ``obj`` (see :func:`latex`) as typeset math in a notebook; print it as text elsewhere.

    >>> import sympy as sp
    >>> show_math(sp.Eq(sp.Symbol("c23"), sp.cos(sp.Symbol("q2") + sp.Symbol("q3"))))
    c₂₃ = cos(q₂ + q₃)
    """
    if in_ipython():
        from IPython.display import Math, display

        display(Math(latex(obj)))
    else:
        print(_plain(obj))
