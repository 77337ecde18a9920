"""JIT compilation logs (docs/jit.md): `-XX:+PrintCompilation` output, `-Xlog:jit+compilation` and
LogCompilation XML, read by the native parser into an events table and an inlining table
(`load_compile_log`), and the figures made from them (`summarize`)."""

from __future__ import annotations

from jvmlab.jit.log import CompileLog, load_compile_log
from jvmlab.jit.summary import FORMAT_VERSION, JitSummary, reported_code_heaps, summarize

__all__ = [
    "FORMAT_VERSION",
    "CompileLog",
    "JitSummary",
    "load_compile_log",
    "reported_code_heaps",
    "summarize",
]
