"""`jvmlab profile` and `jvmlab jit`: a main mode beside a real subcommand (`profile diff`, `jit directives`),
each with its own --help and options; an option of the other mode is refused in one line, never ignored."""

from __future__ import annotations

import re

import pytest

PROFILE = {"--pid", "--duration", "--event", "--interval", "--output", "--top", "--count", "--help"}
DIFF = {"--db", "--event", "--output", "--top", "--help"}
JIT = {"--json", "--top", "--compilations", "--order", "--csv", "--profile", "--db", "--help"}
DIRECTIVES = {
    *("--output", "--cover", "--limit", "--action", "--jdk", "--verify", "--flags", "--repetitions"),
    *("--db", "--runs", "--help"),
}


def options_shown(help_text: str) -> set[str]:
    """The options named in the Options panel of a help."""
    panel = help_text.split("─ Options ", 1)[1].split("╰", 1)[0]
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", panel))


@pytest.mark.parametrize(
    ("argv", "own"),
    [
        (["profile"], PROFILE),
        (["profile", "diff"], DIFF),
        (["jit"], JIT),
        (["jit", "directives"], DIRECTIVES),
    ],
    ids=["profile", "profile diff", "jit", "jit directives"],
)
def test_each_mode_has_its_own_help(cli, argv, own):
    run = cli(*argv, "--help")
    assert run.code == 0
    assert options_shown(run.out) == own
    assert f"jvmlab {' '.join(argv)} [OPTIONS]" in " ".join(run.out.split())


@pytest.mark.parametrize(("group", "subcommand"), [("profile", "diff"), ("jit", "directives")])
def test_the_group_help_lists_its_subcommand(cli, group, subcommand):
    out = cli(group, "--help").out
    assert re.search(rf"Commands.*\n│ {subcommand} ", out), out
    assert re.search(rf"^│ {group} ", cli("--help").out, re.M)


@pytest.mark.parametrize(
    ("argv", "option", "owner"),
    [
        (["profile", "diff", "a", "b", "--pid", "4242"], "--pid", "jvmlab profile"),
        (["profile", "diff", "a", "b", "--count=a.B.run"], "--count", "jvmlab profile"),
        (["profile", "--duration", "5s", "diff", "a", "b"], "--duration", "jvmlab profile"),
        (["profile", "--db", "x.db", "--", "java", "-version"], "--db", "jvmlab profile diff"),
        (["jit", "compilation.log", "-o", "hot.json"], "-o", "jvmlab jit directives"),
        (["jit", "compilation.log", "--verify", "spec.toml"], "--verify", "jvmlab jit directives"),
        (["jit", "directives", "profile/", "--json"], "--json", "jvmlab jit"),
        (["jit", "--top", "3", "directives", "profile/"], "--top", "jvmlab jit"),
    ],
)
def test_an_option_of_the_other_mode_is_refused_in_one_line(cli, argv, option, owner):
    run = cli(*argv)
    assert run.code == 2
    assert run.err.count("\n") == 1, run.err
    assert f"error: {option} is an option of `{owner}`, not of" in run.err


def test_a_mistyped_subcommand_is_not_run_as_a_command(cli):
    run = cli("profile", "dif", "a.collapsed", "b.collapsed")
    assert run.code == 2 and run.err.count("\n") == 1
    assert "dif is no subcommand (diff)" in run.err and "goes after --" in run.err


def test_an_unknown_option_is_named(cli):
    run = cli("profile", "--frobnicate", "3", "--", "java", "-version")
    assert run.code == 2 and "No such option: --frobnicate" in run.err


def test_options_before_the_subcommand_name_are_its_own(cli, tmp_path):
    for side, frames in (("base", "main;a 90\nmain;b 10\n"), ("new", "main;a 10\nmain;b 90\n")):
        (tmp_path / f"{side}.collapsed").write_text(frames)
    out = tmp_path / "out"
    base, new = tmp_path / "base.collapsed", tmp_path / "new.collapsed"
    run = cli("profile", "-o", out, "--top", "1", "diff", base, new)
    assert run.code == 0, run.err
    assert (out / "diff.html").is_file() and f"wrote {out / 'diff.html'}" in run.out
