"""``python -m armlab.class_report ASSIGNMENT``: what ``armlab-grade report ASSIGNMENT`` runs."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
