"""The `jvmlab` command line (`main.py`: the app and its one error printer; one module per command)."""
