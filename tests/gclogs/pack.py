"""Packs the part of the shared GC log corpus that the tests read into corpus.tar.xz (run from the
repository root with ../shared/gclogs present: `python tests/gclogs/pack.py`). The archive holds the same
paths as the corpus and an INDEX.csv of its rows, so tests/corpus.py can unpack it where ../shared is absent.
Deterministic: sorted members, no owners, one fixed time."""

from __future__ import annotations

import csv
import io
import lzma
import tarfile
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[2] / "shared" / "gclogs"
ARCHIVE = HERE / "corpus.tar.xz"
GCTOOLKIT = "gctoolkit-testdata/gctoolkit-gclogs/"

# Whole folders (GCViewer's samples, the logs generated here), the gctoolkit-testdata logs tests name and
# the healthy logs on which advice must stay quiet (tests/advise/healthy_corpus.toml).
MTIME = 1_700_000_000  # one fixed time for every member (zip entries need one after 1980)
FOLDERS = ("gcviewer", "generated", GCTOOLKIT + "streaming/rotating_directory")
FILES = tuple(
    GCTOOLKIT + name
    for name in (
        "preunified/cms/530_gc.log",
        "preunified/cms/713_gc.log",
        "preunified/cms/defnew/details/defnew.log.gz",
        "preunified/cms/parnew/details/1073_1.log",
        "preunified/cms/parnew/details/apptio_gc.log",
        "preunified/cms/parnew/details/scavangeBeforeRemark.log",
        "preunified/cms/parnew/details/tenuring/gc.log",
        "preunified/cms/parnew/details/tenuring/par.cms.wd.wt.webapp.log",
        "preunified/ps/details/tenuring/adaptive_sizing/icap.log",
        "preunified/serial/defnew/details/tenuring/180/serial180.log",
        "streaming/gcspike.log",
    )
)


def members() -> list[str]:
    healthy = tomllib.loads((HERE.parent / "advise" / "healthy_corpus.toml").read_text())["logs"]
    paths = set(FILES) | set(healthy)
    for folder in FOLDERS:
        paths |= {p.relative_to(SHARED).as_posix() for p in (SHARED / folder).rglob("*") if p.is_file()}
    return sorted(paths)


def index_rows(paths: set[str]) -> str:
    with open(SHARED / "INDEX.csv", newline="") as f:
        reader = csv.DictReader(f)
        out = io.StringIO()
        writer = csv.DictWriter(out, reader.fieldnames or [], lineterminator="\n")
        writer.writeheader()
        writer.writerows(r for r in reader if r["path"] in paths)
    return out.getvalue()


def add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), 0o644, MTIME
    tar.addfile(info, io.BytesIO(data))


def main() -> None:
    paths = members()
    with (
        lzma.open(ARCHIVE, "wb", preset=9 | lzma.PRESET_EXTREME) as xz,
        tarfile.open(fileobj=xz, mode="w") as tar,
    ):
        add(tar, "INDEX.csv", index_rows(set(paths)).encode())
        add(tar, "README.md", (SHARED / "README.md").read_bytes())
        for path in paths:
            add(tar, path, (SHARED / path).read_bytes())
    print(f"{ARCHIVE}: {len(paths)} logs, {ARCHIVE.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
