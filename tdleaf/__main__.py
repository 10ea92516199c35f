"""``python -m tdleaf``: the same as the ``tdleaf`` command."""

import sys

from .cli import main

sys.exit(main())
