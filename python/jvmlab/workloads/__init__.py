"""The bundled Java workloads (java/src/jvmlab/workloads): where their compiled classes are.

`make java` compiles them into build/java under the repository root; JVMLAB_JAVA_CLASSES names another
directory. Experiment specs reach them through the `{classes}` placeholder.
"""

from __future__ import annotations

import os
from pathlib import Path

from jvmlab.errors import JvmLabError

REPO_ROOT = Path(__file__).resolve().parents[3]
GC_CHURN = "jvmlab.workloads.GcChurn"
CHUNKGEN = "jvmlab.workloads.ChunkGen"
API_SERVICE = "jvmlab.workloads.ApiService"
BIGCODE = "jvmlab.workloads.BigCode"


def classes_dir(required: str = "GcChurn") -> Path:
    """The directory holding the compiled workloads; `required` is a class that must be there."""
    configured = os.environ.get("JVMLAB_JAVA_CLASSES")
    path = Path(configured) if configured else REPO_ROOT / "build" / "java"
    if not (path / "jvmlab" / "workloads" / f"{required}.class").is_file():
        raise JvmLabError(
            f"{path}: no jvmlab/workloads/{required}.class; build the Java classes with `make java` "
            "or point JVMLAB_JAVA_CLASSES at them"
        )
    return path
