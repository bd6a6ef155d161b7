"""``python -m spades`` — see :mod:`spades.cli`."""

import sys

from .cli import main

sys.exit(main())
