"""``python -m dpsym.cli``: the same as the ``dpsym`` command."""

import sys

from dpsym.cli.app import main

sys.exit(main())
