"""jvmlab.stats imports its modules on first use: every name it exports resolves, and what an experiment's
spec reads (the defaults) does not bring scipy into the process (0.9 CPU-s in each jvmlab process)."""

from __future__ import annotations

import subprocess
import sys

import jvmlab.stats as stats


def test_every_exported_name_resolves_to_its_function_or_value():
    assert [name for name in stats.__all__ if getattr(stats, name, None) is None] == []
    assert callable(stats.estimate) and callable(stats.relative_change)  # not the modules of the same name


def test_the_experiment_spec_does_not_import_scipy():
    code = "import sys, jvmlab.experiment.spec; print(sorted(m for m in sys.modules if m[:5] == 'scipy'))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout
