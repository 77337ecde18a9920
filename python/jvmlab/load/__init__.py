"""Load: driving a service at fixed request rates (the native open-model driver), and reading the results of
other load tools (importers), into one `LoadResult`."""

from jvmlab.load.result import Latency, LoadResult, Second

__all__ = ["Latency", "LoadResult", "Second"]
