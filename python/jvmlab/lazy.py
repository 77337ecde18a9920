"""Packages whose names resolve on first use (PEP 562): importing the package does not import what its
modules do (scipy under stats, psutil under container) until a name from them is read."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def exports(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """The module `__getattr__` of `package`: a name of `homes` is read from its module (`homes[name]`, a
    module of the package), imported then and kept in the package, so that it is looked up once."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
