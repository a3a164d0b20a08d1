"""``python -m dpsym.cli``: the same as the ``dpsym`` command."""

import sys

from .app import main

sys.exit(main())
