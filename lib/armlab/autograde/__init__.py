"""The instructor's side of grading: what runs in nbgrader's and the grader's own processes, never beside
student code (that is :mod:`armlab.grading`, the checkers a test cell imports in the student's kernel).

* :mod:`.key`: what the solutions' ``### ANSWER KEY`` cells build their keys with (``cases``, ``value``,
  ``wrong_orders``), armlab computing the expected answers and the usual mistakes.
* :mod:`.bake`: at release, the key cells run alone in a fresh process and their ``KEY_...`` values are
  written into the test cells as literal data.
* :mod:`.preprocessors`: nbgrader preprocessors (``BakeAnswerKey`` and the hardening), imported by
  ``nbgrader_config.py`` only.
* :mod:`.batch` (``armlab-grade``), :mod:`.forked_kernels`, :mod:`.batch_report`: nbgrader's autograde for a
  whole class in parallel, each submission in a kernel forked from a warm template; ``armlab-grade report``
  runs :mod:`armlab.class_report`.
* :mod:`.offline_html`: the feedback HTML's maths as MathML, so it reads offline.

Like :mod:`armlab.grading` it imports no other part of armlab (the answer key cells and the injected grading
import are code it runs in other processes); importing this package loads none of its modules.
"""
