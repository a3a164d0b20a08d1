"""``python -m dpsym``: the same as the ``dpsym`` command."""

import sys

from .cli import main

sys.exit(main())
