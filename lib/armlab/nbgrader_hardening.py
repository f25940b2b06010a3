"""Old path of :mod:`armlab.grading.preprocessors`, kept for ``nbgrader_config.py`` and existing course setups."""
from armlab.grading.preprocessors import *  # noqa: F401,F403
