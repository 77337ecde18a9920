"""The executor a run asks for by name (`--executor local|ray`): the local one, or Ray's (optional, imported
only when asked for)."""

from __future__ import annotations

from jvmlab.errors import UsageError
from jvmlab.experiment.execution.executor import Executor, LocalExecutor

EXECUTORS = ("local", "ray")


def make_executor(name: str, address: str | None = None) -> Executor:
    """The executor `--executor NAME [--address ADDR]` asks for."""
    if name == "local":
        if address:
            raise UsageError(f"--address {address}: only with --executor ray")
        return LocalExecutor()
    if name == "ray":
        if not address:
            raise UsageError(
                "--executor ray needs --address: the head node's HOST:PORT (as `ray start --head` printed "
                "it) or auto"
            )
        from jvmlab.experiment.execution.ray_executor import RayExecutor  # Ray is optional

        return RayExecutor(address)
    raise UsageError(f"--executor {name}: unknown; use one of {', '.join(EXECUTORS)}")
