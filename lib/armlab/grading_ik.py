"""Old path of :mod:`armlab.grading.ik` (released hw03 notebooks import it): the same, read-only module object."""
import sys

from armlab.grading import ik

sys.modules[__name__] = ik
