"""Writes the flag names of each JDK major into flag_lists/jdkN.txt from the JDKs installed here:

    python -m jvmlab.jdk.flag_names --write     # regenerate the lists of the installed majors
    python -m jvmlab.jdk.flag_names --check     # exit 1 when a list differs from what the JDKs say
    python -m jvmlab.jdk.flag_names --write --major 8 --java /opt/jdk8/bin/java   # one major, one java

Per major: every -XX:+PrintFlagsFinal row of its installed HotSpot JDKs (diagnostic and experimental ones
unlocked) as `name type kind`; then each name another major lists (or the table has) and this one does not
is tried alone: a name it accepts all the same (ignored, renamed, with a warning) is kept with the JVM's
words. A major with no JDK installed keeps its list; every list is read from real JVMs (JDK 8's from OpenJDK
8u504, which tools/jdk8-chroot.sh installs: docs/flags.md, "JDK 8").
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from jvmlab.entry import guarded
from jvmlab.errors import UsageError
from jvmlab.jdk.flag_table import (
    LISTED_KINDS,
    MAJORS,
    UNLOCK_DIAGNOSTIC,
    UNLOCK_EXPERIMENTAL,
    FlagName,
    flag_names,
    flag_table,
    list_path,
    plain_message,
    read_warning,
)
from jvmlab.jdk.jvm_output import parse_flags_final, split_messages
from jvmlab.jdk.model import Jdk
from jvmlab.jdk.probe import run_java
from jvmlab.jdk.versions import parse_version

UNLOCKS = (f"-XX:+{UNLOCK_DIAGNOSTIC}", f"-XX:+{UNLOCK_EXPERIMENTAL}")
PRINT_ALL = (*UNLOCKS, "-XX:+PrintFlagsFinal", "-version")
TIMEOUT_S = 60.0
WORKERS = 4
FORMAT_LINE = "# name type kind [the JVM's warning, for a name it accepts without listing it]"


def _kind(kinds: str) -> str:
    words = kinds.split()
    return next((k for k in ("experimental", "diagnostic") if k in words), "product")


def listed_names(jdk: Jdk) -> dict[str, FlagName]:
    """Every flag `jdk` lists with -XX:+PrintFlagsFinal, diagnostic and experimental ones unlocked."""
    out = run_java(jdk.java, PRINT_ALL, TIMEOUT_S)
    rows = parse_flags_final(out.stdout)
    if not rows:
        raise RuntimeError(f"{jdk.java} printed no flag table: {out.stderr.strip()[:200]}")
    return {r.name: FlagName(r.name, r.type, _kind(r.kinds)) for r in rows}


def newest_first(jdks: Iterable[Jdk]) -> list[Jdk]:
    return sorted(jdks, key=lambda j: parse_version(j.version), reverse=True)


def _try_unlisted(jdk: Jdk, candidate: FlagName) -> FlagName | None:
    """The name as `jdk` takes it although it does not list it (ignored, renamed), or None if refused."""
    option = f"-XX:+{candidate.name}" if candidate.type == "bool" else f"-XX:{candidate.name}=1"
    out = run_java(jdk.java, (*UNLOCKS, option, "-version"), TIMEOUT_S)
    if out.returncode != 0:
        return None
    warnings, _ = split_messages(out.stderr + "\n" + out.stdout)
    said = next((plain_message(w) for w in warnings if candidate.name in w), None)
    status = read_warning(said)[0] if said else "ok"
    return FlagName(candidate.name, "-", status, said)


def unlisted_names(jdks: Sequence[Jdk], candidates: Iterable[FlagName]) -> dict[str, FlagName]:
    """The candidates the JDKs of one major accept without listing them (the first JDK that does)."""
    todo = [(jdk, c) for c in candidates for jdk in jdks]
    with ThreadPoolExecutor(WORKERS) as pool:
        found = list(pool.map(lambda job: _try_unlisted(*job), todo))
    accepted: dict[str, FlagName] = {}
    for name in found:
        if name is not None:
            accepted.setdefault(name.name, name)
    return accepted


def _table_names() -> dict[str, FlagName]:
    """The -XX: names of the table's rows, typed by their example."""
    out = {}
    for key, row in flag_table().rows.items():
        if not key.startswith("-"):
            is_bool = row.example.startswith(("-XX:+", "-XX:-"))
            out[key] = FlagName(key, "bool" if is_bool else "value", "product")
        # -X options are not -XX: flags: they have no place in the lists
    return out


def generate(jdks_by_major: Mapping[int, Sequence[Jdk]]) -> dict[int, dict[str, FlagName]]:
    """The lists of the majors with installed JDKs: listed names, then the unlisted ones they accept."""
    listed: dict[int, dict[str, FlagName]] = {}
    for major, jdks in jdks_by_major.items():
        listed[major] = {}
        for jdk in newest_first(jdks):  # an update may change a flag's kind: the newest one's is kept
            for name, info in listed_names(jdk).items():
                listed[major].setdefault(name, info)
    known = dict(_table_names())
    for major in MAJORS:
        stored = flag_names(major)
        names = listed.get(major) or (stored.names if stored else {})
        known.update({n: f for n, f in names.items() if f.kind in LISTED_KINDS})
    lists = {}
    for major, names in listed.items():
        candidates = [f for n, f in known.items() if n not in names]
        lists[major] = {**names, **unlisted_names(jdks_by_major[major], candidates)}
    return lists


def render(major: int, names: Mapping[str, FlagName], origin: str) -> str:
    lines = [f"# JDK {major} flag names: {origin}", FORMAT_LINE]
    for name in sorted(names):
        f = names[name]
        lines.append(" ".join(p for p in (f.name, f.type, f.kind, f.message) if p))
    return "\n".join(lines) + "\n"


def described(jdk: Jdk) -> str:
    """The JDK as a list's header names it: `temurin-21.0.8`, and JDK 8's update and vendor, which its
    name does not say (`openjdk-1.8.0_504 (OpenJDK 8u504, Debian)`)."""
    if jdk.major != 8:
        return jdk.name
    update = parse_version(jdk.version).update
    brand = "OpenJDK" if "openjdk" in (jdk.vm_name + jdk.distribution).lower() else jdk.distribution
    return f"{jdk.name} ({brand} 8u{update}, {jdk.vendor})"


def rendered_lists(jdks: Sequence[Jdk], majors: Iterable[int] | None = None) -> dict[int, str]:
    """The text of every list the installed HotSpot JDKs give (only those of `majors` when given)."""
    wanted = set(MAJORS if majors is None else majors)
    by_major: dict[int, list[Jdk]] = {}
    for jdk in jdks:
        if jdk.vm == "HotSpot" and jdk.major in wanted:
            by_major.setdefault(jdk.major, []).append(jdk)
    lists = generate(by_major)
    texts = {}
    for major, names in lists.items():
        read = ", ".join(described(j) for j in newest_first(by_major[major]))
        texts[major] = render(major, names, f"read from {read} by `python -m jvmlab.jdk.flag_names --write`")
    return texts


def _jdks(javas: Sequence[str]) -> list[Jdk]:
    """The installed JDKs, or the JDKs of the given `java` launchers (bin/java of a home)."""
    from jvmlab.jdk.discovery import installed_jdks, jdk_at

    if not javas:
        return installed_jdks()
    found = []
    for java in javas:
        jdk = jdk_at(Path(java).parent.parent) if Path(java).name == "java" else None
        if jdk is None:
            raise UsageError(f"--java {java}: not the bin/java of a JDK that answers")
        found.append(jdk)
    return found


def _write_or_check(texts: Mapping[int, str], write: bool, directory: Path | None = None) -> list[str]:
    """Writes the lists (write) or names those that differ; returns what it did or found."""
    said = []
    for major, text in sorted(texts.items()):
        path = list_path(major) if directory is None else list_path(major, directory)
        same = path.is_file() and path.read_text() == text
        if write and not same:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        verb = "unchanged" if same else ("written" if write else "differs")
        count = sum(1 for line in text.splitlines() if not line.startswith("#"))
        said.append(f"{path}: {verb} ({count} names)")
    return said


def main(argv: list[str] | None = None) -> int:
    summary = (__doc__ or "").split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m jvmlab.jdk.flag_names", description=summary)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="write the lists of the installed majors")
    mode.add_argument("--check", action="store_true", help="exit 1 when a list differs")
    parser.add_argument("--major", type=int, action="append", choices=MAJORS, help="only this major")
    parser.add_argument("--java", action="append", default=[], help="read this bin/java, not discovery's")
    args = parser.parse_args(argv)

    def run() -> int:
        said = _write_or_check(rendered_lists(_jdks(args.java), args.major), args.write)
        if not said:
            raise UsageError("no installed HotSpot JDK of the majors asked for: nothing to read")
        print("\n".join(said))
        return 1 if args.check and any(": differs" in s for s in said) else 0

    return guarded(run)


if __name__ == "__main__":
    sys.exit(main())
