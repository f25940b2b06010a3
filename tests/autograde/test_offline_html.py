"""The feedback HTML's maths, typeset when it is written (armlab.autograde.offline_html): it reads offline."""

from __future__ import annotations

import nbformat
import pytest

pytest.importorskip("nbgrader")
pytest.importorskip("latex2mathml")

from armlab.autograde.offline_html import OfflineHTMLExporter, TypesetMath, typeset  # noqa: E402


def test_inline_and_display_maths_become_mathml_and_code_stays_as_written():
    md = "Rotate $\\theta_1$ about $Z_A$:\n\n$$T = \\begin{bmatrix} R & p \\\\ 0 & 1 \\end{bmatrix}$$\n\n`x = '$a$'`, 5\\$"
    out = typeset(md)
    assert out.count('<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">') == 2
    assert out.count('display="block"') == 1 and "<mtable>" in out  # the matrix
    assert "`x = '$a$'`" in out and out.endswith("5\\$")  # code and an escaped dollar: untouched
    assert "&#x003B8;" in out  # θ


def test_a_formula_latex2mathml_cannot_read_stays_as_written():
    assert typeset("unbalanced $\\left( x$ and $y$") == "unbalanced $\\left( x$ and " + typeset("$y$")
    assert typeset("costs 5 dollars") == "costs 5 dollars"


def test_html_typesets_markdown_and_sympy_output_and_loads_no_mathjax():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("The link transform ${}^{i-1}T_i$ of $\\alpha_i$"),
        nbformat.v4.new_code_cell(
            "M",
            outputs=[
                nbformat.v4.new_output(
                    "execute_result",
                    {"text/latex": "$\\displaystyle \\cos{\\left(\\theta \\right)}$", "text/plain": "cos(θ)"},
                    execution_count=1,
                )
            ],
        ),
    ]
    nb, _ = TypesetMath().preprocess(nb, {})
    html, _ = OfflineHTMLExporter(template_name="classic").from_notebook_node(nb)
    assert html.count("<math") == 3
    # (nbgrader's feedback template loads no other script: tests/integration/test_batch_grading.py)
    assert "mathjax/" not in html.lower() and "text/x-mathjax-config" not in html
    assert "$\\alpha_i$" not in html
