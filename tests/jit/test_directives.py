"""Hot methods from a profile or a compile log, and the directives for them: the file is what every
installed JDK 9+ accepts (`-XX:+CompilerDirectivesPrint` says it added the directive)."""

from __future__ import annotations

import json
import subprocess

import pytest

from jvmlab.errors import UsageError
from jvmlab.jdk.discovery import installed_jdks
from jvmlab.jit.directives import (
    HotMethod,
    compile_commands,
    directive_flags,
    directives_json,
    grouping_note,
    hot_from_compilations,
    hot_from_profile,
)
from jvmlab.profile.model import Profile

PROFILE = Profile(
    "cpu",
    {
        ("Thread.run_[j]", "a.B.hot_[j]"): 60,
        ("Thread.run_[j]", "a.B.warm_[i]"): 25,
        ("Thread.run_[j]", "a.C.cold_[0]"): 10,
        ("Thread.run_[j]", "a.C.coldest_[j]"): 5,
        ("start_thread", "os::sleep"): 400,  # native: never a hot Java method
        ("start_thread", "[unknown_Java]"): 50,
    },
)


def test_the_hot_set_is_the_fewest_java_methods_covering_the_share():
    hot = hot_from_profile(PROFILE, cover=0.8)
    assert [(h.name, round(h.share, 2)) for h in hot] == [("a.B.hot", 0.6), ("a.B.warm", 0.25)]
    assert [h.name for h in hot_from_profile(PROFILE, cover=1.0, limit=3)] == [
        "a.B.hot",
        "a.B.warm",
        "a.C.cold",
    ]
    with pytest.raises(UsageError, match="--cover 1.5"):
        hot_from_profile(PROFILE, cover=1.5)


def test_the_methods_compiled_most_are_hot_without_a_profile():
    log = ["a.B::hot"] * 5 + ["a/B.warm"] * 3 + ["a.C::cold"]
    assert [h.name for h in hot_from_compilations(log, cover=0.8)] == ["a.B.hot", "a.B.warm"]


def test_directives_skip_c1_and_inline_the_hot_methods():
    hot = [HotMethod("java.util.HashMap.resize", 0.5, "profile")]
    (d,) = json.loads(directives_json(hot))
    assert d == {
        "match": ["java/util/HashMap.resize"],
        "c1": {"Exclude": True},
        "inline": ["+java/util/HashMap.resize"],
    }
    (only_inline,) = json.loads(directives_json(hot, ["inline"]))
    assert "c1" not in only_inline
    assert compile_commands(hot) == "inline java/util/HashMap.resize\n"
    assert directive_flags("d.json", 17) == [
        "-XX:+UnlockDiagnosticVMOptions",
        "-XX:CompilerDirectivesFile=d.json",
    ]
    assert directive_flags("c.txt", 8) == ["-XX:CompileCommandFile=c.txt"]
    with pytest.raises(UsageError, match="no hot Java methods"):
        directives_json([])
    with pytest.raises(UsageError, match="--action c3"):
        directives_json(hot, ["c3"])


def test_grouping_is_said_only_where_a_flag_offers_it():
    assert "no hot code heap" in grouping_note(["SegmentedCodeCache", "NonProfiledCodeHeapSize"])
    assert "HotCodeHeapSize" in grouping_note(["HotCodeHeapSize"])


@pytest.mark.jvm
@pytest.mark.parametrize("major", [11, 17, 21, 25])
def test_every_installed_jdk_accepts_the_directives(major, tmp_path):
    jdk = next((j for j in installed_jdks() if j.major == major), None)
    if jdk is None:
        pytest.skip(f"no JDK {major} installed")
    path = tmp_path / "hot.json"
    path.write_text(directives_json(hot_from_profile(PROFILE)))
    argv = [str(jdk.java), *directive_flags(str(path), major), "-XX:+CompilerDirectivesPrint", "-version"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and "1 compiler directives added" in done.stdout + done.stderr, done.stderr
