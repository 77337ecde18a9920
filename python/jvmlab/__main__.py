"""`python -m jvmlab`: the command line."""

import sys

from jvmlab.cli.main import main

sys.exit(main())
