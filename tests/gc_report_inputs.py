"""The inputs of a GC report page as `jvmlab gc report` makes them: a parsed log and its summary."""

from __future__ import annotations

from jvmlab.gclog import GcLog
from jvmlab.metrics import summarize
from jvmlab.metrics.summary import Window
from jvmlab.report.gclog.page import LabelledLog


def labelled(label: str, log: GcLog, window: Window | None = None) -> LabelledLog:
    return LabelledLog(label, log, summarize(log, window=window))
