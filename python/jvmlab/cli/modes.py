"""Commands with a main mode beside subcommands: `jvmlab jit LOG...` and `jvmlab jit directives SOURCE`,
`jvmlab profile -- java ...` and `jvmlab profile diff BASE NEW`. The group's own options and arguments are
the main mode, run by its callback when no subcommand is named; each subcommand has its own options and its
own --help. The first argument that is neither an option nor an option's value decides which runs. Options
written before a subcommand's name are the subcommand's (`jvmlab profile -o out diff A B`), and an option of
the other mode is refused in one line instead of being ignored."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from jvmlab.errors import UsageError


def option_values(command: Any) -> dict[str, bool]:
    """Each option name of a click command -> whether it takes a value (flags do not)."""
    return {
        name: not (p.is_flag or p.count)
        for p in command.params
        if p.param_type_name == "option"
        for name in (*p.opts, *p.secondary_opts)
    }


def tokens(args: Sequence[str], values: dict[str, bool]) -> Iterator[tuple[int, str | None]]:
    """(index, option name) of each option and (index, None) of each other argument, up to `--`; the value
    of an option in `values` that takes one is skipped. An unknown option is taken for a flag: click names
    it afterwards."""
    i = 0
    while i < len(args) and args[i] != "--":
        token = args[i]
        if token.startswith("-") and token != "-":
            name = token.split("=", 1)[0]
            yield i, name
            i += 2 if values.get(name) and "=" not in token else 1
        else:
            yield i, None
            i += 1


def wrong_mode(option: str, owner: str, used: str) -> UsageError:
    return UsageError(f"{option} is an option of `{owner}`, not of `{used}` (`{used} --help` lists its own)")


class ModeGroup(TyperGroup):
    """The group of a command with a main mode. `after_dashdash`: the main mode's arguments are a command
    line that follows `--` (`jvmlab profile -- java ...`), so that a mistyped subcommand is not run."""

    allow_interspersed_args = True  # main mode: `jvmlab jit LOG --json`
    after_dashdash = False

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        own = option_values(self)
        theirs = {name: sub for sub, cmd in self.commands.items() for name in option_values(cmd)}
        values = {n: v for cmd in self.commands.values() for n, v in option_values(cmd).items()} | own
        found = list(tokens(args, values))
        first = next((i for i, option in found if option is None), None)
        before = [option for i, option in found if first is None or i < first]
        if any(option not in (*values, *ctx.help_option_names) for option in before):
            return super().parse_args(ctx, args)  # click names the unknown option
        if first is not None and args[first] in self.commands:
            super().parse_args(ctx, [])  # the main mode's defaults: its callback sees the subcommand
            ctx._protected_args, ctx.args = [args[first]], [*args[:first], *args[first + 1 :]]
            return ctx.args
        for _, option in found:
            if option is not None and option not in own and option in theirs:
                raise wrong_mode(option, f"{ctx.command_path} {theirs[option]}", ctx.command_path)
        if first is not None and self.after_dashdash:
            raise UsageError(
                f"{ctx.command_path}: {args[first]} is no subcommand ({', '.join(self.commands)}), and the "
                f"command line to run goes after --: {ctx.command_path} [OPTIONS] -- java ..."
            )
        return super().parse_args(ctx, args)


class ModeContext(typer.Context):
    @property
    def command_path(self) -> str:
        """`jvmlab profile diff`, without the main mode's arguments click would put after `profile`."""
        return f"{self.parent.command_path} {self.info_name}" if self.parent else str(self.info_name)


class ModeCommand(TyperCommand):
    """A subcommand of a ModeGroup: an option of the main mode given to it is refused."""

    context_class = ModeContext

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        parent = ctx.parent
        if parent is not None and isinstance(parent.command, ModeGroup):
            own, main = option_values(self), option_values(parent.command)
            for _, option in tokens(args, main | own):
                if option is not None and option not in own and option in main:
                    raise wrong_mode(option, parent.command_path, ctx.command_path)
        return super().parse_args(ctx, args)
