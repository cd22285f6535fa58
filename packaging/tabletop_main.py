"""The frozen program's entry point (packaging/tabletop.spec): the ``tabletop`` command."""

import sys

from tabletop.cli import main

if __name__ == "__main__":
    sys.exit(main())
