"""Fake JDK homes: a `release` file and bin/java, a shell script that prints canned output and logs each call.

behaviour: "ok" (properties on stderr, a PrintFlagsFinal table on stdout, exit 0), "garbage" (prints
nonsense, exit 0), "fail" (an error, exit 1), "hang" (sleeps in a child process that holds the pipes),
"noexec" (bin/java without the executable bit).
"""

from __future__ import annotations

import os
import shlex
import stat
from dataclasses import dataclass
from pathlib import Path

HOTSPOT_FLAGS = {
    "UseSerialGC": "false",
    "UseParallelGC": "false",
    "UseG1GC": "true",
    "UseZGC": "false",
    "UseShenandoahGC": "false",
    "MaxHeapSize": "268435456",
    "InitialHeapSize": "16777216",
    "UseCompressedOops": "true",
    "FlightRecorderOptions": "",
}


@dataclass(frozen=True)
class FakeJdk:
    home: Path

    @property
    def calls(self) -> list[str]:
        """The argument lists bin/java was called with, one string per call."""
        log = self.home / "calls.log"
        return log.read_text().splitlines() if log.exists() else []


def properties_text(version: str, vendor: str, vm_name: str, runtime_version: str) -> str:
    props = {
        "java.version": version,
        "java.runtime.version": runtime_version,
        "java.vendor": vendor,
        "java.vm.vendor": vendor,
        "java.vm.name": vm_name,
        "os.arch": "amd64",
    }
    lines = ["Property settings:"] + [f"    {k} = {v}" for k, v in props.items()]
    return "\n".join([*lines, "", f'openjdk version "{version}"', "Fake Runtime Environment"]) + "\n"


def flags_text(flags: dict[str, str]) -> str:
    rows = ["[Global flags]"]
    for name, value in flags.items():
        kind = "bool" if value in ("true", "false") else ("size_t" if value.isdigit() else "ccstr")
        rows.append(f"     {kind} {name:<40} = {value:<40} {{product}} {{default}}")
    return "\n".join(rows) + "\n"


def _script(home: Path, behaviour: str) -> str:
    log = shlex.quote(str(home / "calls.log"))
    out, err = shlex.quote(str(home / "stdout.txt")), shlex.quote(str(home / "stderr.txt"))
    body = {
        "ok": f"cat {out}\ncat {err} >&2\nexit 0",
        "garbage": "echo 'hello, I am not a JVM'\necho '%%%' >&2\nexit 0",
        "fail": "echo 'Error: this JVM is broken' >&2\nexit 1",
        "hang": "sleep 60\nexit 0",
        "noexec": "exit 0",
    }[behaviour]
    return f'#!/bin/sh\necho "$*" >> {log}\n{body}\n'


def make_fake_jdk(
    home: Path,
    *,
    behaviour: str = "ok",
    version: str = "17.0.99",
    vendor: str = "Acme Corp",
    vm_name: str = "OpenJDK 64-Bit Server VM",
    implementor: str | None = None,
    release: bool = True,
    flags: dict[str, str] | None = None,
) -> FakeJdk:
    (home / "bin").mkdir(parents=True, exist_ok=True)
    if release:
        lines = [f'JAVA_VERSION="{version}"'] + ([f'IMPLEMENTOR="{implementor}"'] if implementor else [])
        (home / "release").write_text("\n".join(lines) + "\n")
    (home / "stderr.txt").write_text(properties_text(version, vendor, vm_name, f"{version}+7"))
    (home / "stdout.txt").write_text(flags_text(HOTSPOT_FLAGS if flags is None else flags))
    java = home / "bin" / "java"
    java.write_text(_script(home, behaviour))
    mode = java.stat().st_mode
    if behaviour != "noexec":
        java.chmod(mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    else:
        java.chmod(mode & ~(stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH))
    os.utime(java)
    return FakeJdk(home)
