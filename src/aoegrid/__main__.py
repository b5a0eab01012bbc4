"""``python -m aoegrid``: the ``aoegrid`` command, for an environment whose scripts folder is not on PATH."""

import sys

from aoegrid.cli import main

if __name__ == "__main__":
    sys.exit(main())
