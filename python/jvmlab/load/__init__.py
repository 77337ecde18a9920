"""Load: driving a service at fixed request rates (the native open-model driver), and reading the results of
other load tools (importers), into one `LoadResult`."""

from jvmlab.load.result import DriverStats, Latency, LoadResult, Second

__all__ = ["DriverStats", "Latency", "LoadResult", "Second"]
