"""Feedback HTML that shows its maths offline: typeset as MathML when written, no MathJax from a CDN.

nbgrader's feedback template loads MathJax from a CDN, so on an offline or firewalled hub, or in a file a student
opened on a train, every formula stays raw ``$\\theta$``. Here the maths is converted once, when the feedback is
written (latex2mathml), into MathML, which every current browser typesets by itself:

* :class:`TypesetMath` (feedback preprocessor): ``$…$`` and ``$$…$$`` of markdown cells (not in code) and the
  LaTeX outputs of code cells (sympy's) become MathML; a formula it cannot convert stays as written;
* :class:`OfflineHTMLExporter` (``GenerateFeedback.exporter_class``): nbgrader's own feedback template, whose
  MathJax macro writes nothing, so the page loads no script at all.

Imported only by ``nbgrader_config.py``, like :mod:`.preprocessors`.
"""

from __future__ import annotations

import re
from typing import Any

from jinja2 import DictLoader
from nbconvert.exporters import HTMLExporter
from traitlets import default

from nbgrader.preprocessors import NbGraderPreprocessor


__all__ = ["TypesetMath", "OfflineHTMLExporter", "typeset"]

#: code (fenced blocks, inline spans): never maths
_CODE = re.compile(r"(```.*?```|~~~.*?~~~|`[^`\n]*`)", re.S)
#: $$display$$ or $inline$ (not an escaped \$, not spanning a blank line)
_MATH = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<![\\$])\$(?!\s)([^$\n]+?)(?<![\s\\])\$", re.S)


def _mathml(tex: str, display: bool) -> str | None:
    from latex2mathml.converter import convert

    try:
        return convert(tex.strip(), display="block" if display else "inline")
    except Exception:  # a construct latex2mathml does not know: the LaTeX stays, readable
        return None


def typeset(markdown: str) -> str:
    """``markdown`` with its formulas as MathML (code spans and blocks untouched)."""

    def one(m: re.Match) -> str:
        display = m.group(1) is not None
        return _mathml(m.group(1) if display else m.group(2), display) or m.group(0)

    parts = _CODE.split(markdown)
    return "".join(part if i % 2 else _MATH.sub(one, part) for i, part in enumerate(parts))


def _latex_output(tex: str) -> str | None:
    """MathML for a ``text/latex`` output (``$…$``, ``$$…$$`` or an equation environment around it)."""
    tex = tex.strip()
    for left, right in (("$$", "$$"), ("$", "$"), ("\\[", "\\]")):
        if tex.startswith(left) and tex.endswith(right) and len(tex) > len(left) + len(right):
            return _mathml(tex[len(left) : -len(right)], display=True)
    return _mathml(tex, display=True)


class TypesetMath(NbGraderPreprocessor):
    """Markdown maths and LaTeX outputs as MathML, for feedback HTML without MathJax."""

    def preprocess_cell(self, cell: Any, resources: Any, cell_index: Any) -> Any:
        if cell.cell_type == "markdown":
            cell.source = typeset(cell.source)
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if "text/latex" in data and "text/html" not in data:
                html = _latex_output(data["text/latex"])
                if html is not None:
                    data["text/html"] = html
        return cell, resources


class OfflineHTMLExporter(HTMLExporter):
    """HTMLExporter whose templates' ``mathjax()`` macro writes nothing: the page fetches no MathJax."""

    @default("extra_loaders")
    def _no_mathjax(self) -> list[Any]:  # found before the templates' own mathjax.html.j2
        return [DictLoader({"mathjax.html.j2": "{%- macro mathjax(url='') -%}{%- endmacro %}"})]
