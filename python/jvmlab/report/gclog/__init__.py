"""Views of GC logs (`jvmlab gc summary|events|compare|report`): summary and diagnostics view models, the
side-by-side comparison of logs, their terminal rendering, JSON / CSV / Parquet exports and the HTML page."""
