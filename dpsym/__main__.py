"""``python -m dpsym``: the same as the ``dpsym`` command."""

import sys

from dpsym.cli import main

sys.exit(main())
