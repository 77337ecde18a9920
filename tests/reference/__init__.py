"""The reference implementation of the summary figures: plain polars/numpy over a whole event table, written
to read like docs/metrics.md rather than to be fast. The native summary (native/src/summary/), which jvmlab
uses, must give the same figures: tests/metrics/test_native_matches_reference.py checks that on every shared
log and on random tables."""
