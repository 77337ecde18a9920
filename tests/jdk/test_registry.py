"""Registered JDKs: `jvmlab jdks add NAME PATH` / `remove NAME`, kept in $JVMLAB_HOME/jdks.toml."""

from __future__ import annotations

import tomllib

import pytest

from jvmlab.errors import UsageError
from jvmlab.jdk.discovery import default_locations, discover
from jvmlab.jdk.registry import register, registered, unregister


def _registered_only():
    return [loc for loc in default_locations() if loc.source.startswith("registered:")]


def test_add_remove_round_trip(fake_jdk, jvmlab_home):
    fake = fake_jdk("mine", version="21.0.77")
    path = register("my-jdk", fake.home)
    assert path == jvmlab_home / "jdks.toml"
    data = tomllib.loads(path.read_text())
    assert data == {"format_version": 1, "jdks": {"my-jdk": str(fake.home)}}
    jdk = discover(_registered_only()).jdks[0]
    assert (jdk.name, jdk.sources, jdk.major) == ("my-jdk", ("registered:my-jdk",), 21)
    register("my-jdk", fake.home)  # the same again: no change
    unregister("my-jdk")
    assert registered() == {}
    assert _registered_only() == []


def test_a_registered_directory_lists_its_jdks(fake_jdk, tmp_path):
    fake_jdk("a", version="11.0.1")
    fake_jdk("b", version="25.0.1")
    register("lab", tmp_path / "jdks")
    found = discover(_registered_only())
    assert sorted(j.name for j in found.jdks) == ["acme-corp-11.0.1", "acme-corp-25.0.1"]
    assert all(j.sources == ("registered:lab",) for j in found.jdks)


def test_a_registered_jdk_that_went_away_is_a_problem(fake_jdk):
    fake = fake_jdk("gone")
    register("gone", fake.home)
    (fake.home / "bin" / "java").unlink()
    found = discover(_registered_only())
    assert found.jdks == ()
    assert "jvmlab jdks remove gone" in found.problems[0].message


@pytest.mark.parametrize(
    ("name", "path", "message"),
    [
        ("17", "HOME", "must start with a letter"),
        ("bad name", "HOME", "must start with a letter"),
        ("ok", "MISSING", "no such directory"),
        ("ok", "EMPTY", "no bin/java there and no JDK homes under it"),
    ],
)
def test_add_errors_name_the_fix(fake_jdk, tmp_path, name, path, message):
    (tmp_path / "empty").mkdir()
    fake = fake_jdk("x")
    paths = {"HOME": fake.home, "MISSING": tmp_path / "missing", "EMPTY": tmp_path / "empty"}
    with pytest.raises(UsageError, match=message):
        register(name, paths[path])


def test_a_name_is_not_silently_repointed(fake_jdk):
    register("mine", fake_jdk("one").home)
    with pytest.raises(UsageError, match="already registered .* jvmlab jdks remove mine"):
        register("mine", fake_jdk("two").home)


def test_remove_unknown_lists_the_registered_names(fake_jdk):
    register("alpha", fake_jdk("a").home)
    with pytest.raises(UsageError, match=r"no JDK registered as 'beta' \(registered: alpha\)"):
        unregister("beta")


def test_a_broken_registry_file_names_itself(jvmlab_home):
    (jvmlab_home / "jdks.toml").write_text("[jdks\n")
    with pytest.raises(UsageError, match="jdks.toml: not valid TOML"):
        registered()
    (jvmlab_home / "jdks.toml").write_text("[jdks]\nx = 3\n")
    with pytest.raises(UsageError, match="must map names to paths"):
        registered()


def test_paths_with_quotes_and_backslashes_survive(tmp_path, fake_jdk):
    fake = fake_jdk('we"ird\\dir')
    register("weird", fake.home)
    assert registered() == {"weird": fake.home}
