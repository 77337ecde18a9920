"""A trial's folder shipped from the node that ran it to the driver: packed as a tar.gz there, unpacked into
the trial's run folder here, and the paths of its outcome moved from the one folder to the other."""

from __future__ import annotations

import dataclasses
import io
import shutil
import tarfile
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def pack(folder: Path) -> bytes:
    """The folder's whole content as a tar.gz (fast compression: logs shrink well even so)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=1) as tar:
        tar.add(folder, arcname=".")
    return buffer.getvalue()


def unpack(archive: bytes, folder: Path) -> None:
    """Replaces `folder` with the archive's content."""
    if folder.exists():
        shutil.rmtree(folder)  # what an earlier attempt left
    folder.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        tar.extractall(folder, filter="tar")  # nothing outside the folder; symlinks of a template kept


def relocate(value: T, old: Path, new: Path) -> T:
    """`value` (an outcome, or anything in it) with every path under `old` moved under `new`: artefacts,
    argv, the reasons and tails that quote them."""
    return _moved(value, str(old), str(new))  # type: ignore[no-any-return]


def _moved(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, dict):
        return {k: _moved(v, old, new) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_moved(v, old, new) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: _moved(getattr(value, f.name), old, new) for f in dataclasses.fields(value)}
        return dataclasses.replace(value, **fields)
    return value
