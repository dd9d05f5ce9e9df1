"""The command line: ``python -m kappalib report data.csv --columns rater_a rater_b``
(``kappalib._report.cli``)."""

import sys

from ._report.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
