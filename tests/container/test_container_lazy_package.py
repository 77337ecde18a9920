"""jvmlab.container imports its modules on first use: every name it exports resolves, and the CLI (whose
options read container.limits) starts without the cgroup code and psutil."""

from __future__ import annotations

import subprocess
import sys

import jvmlab.container as container


def test_every_exported_name_resolves():
    assert [name for name in container.__all__ if getattr(container, name, None) is None] == []
    assert callable(container.make) and callable(container.usage_of)


def test_the_cli_starts_without_the_cgroup_code():
    code = (
        "import sys, jvmlab.cli.main; "
        "print(sorted(m for m in sys.modules if m.startswith(('psutil', 'jvmlab.container.'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['jvmlab.container.limits']", done.stdout
