"""Allows `python -m unox`."""

import sys

from unox.cli.main import main

sys.exit(main())
