"""The JVM's start in wall-clock time, from logs that carry dates and uptimes."""

from __future__ import annotations

from datetime import datetime

import pytest
from corpus import GCLOGS

from jvmlab.gclog.clock import jvm_start_epoch


def epoch(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()


def test_unified_time_and_uptime(tmp_path):
    log = tmp_path / "gc.log"
    log.write_text(
        "[2026-11-23T17:01:02.131+0000][0.007s][info][gc] Using Parallel\n"
        "[2026-11-23T17:01:02.330+0000][0.205s][info][gc,init] Version: 17.0.9+9 (release)\n"
        "[2026-11-23T17:01:02.331+0000][0.206s][info][gc,init] CPUs: 2 total, 2 available\n"
    )
    assert jvm_start_epoch(log) == pytest.approx(epoch("2026-11-23T17:01:02.125+0000"), abs=0.002)


@pytest.mark.corpus
def test_jdk8_date_and_time_stamps():
    log = GCLOGS / "gcviewer" / "openjdk" / "SampleSun1_8_0Parallel_Apple.txt"
    if not log.exists():
        pytest.skip("corpus log missing")
    start = jvm_start_epoch(log)
    assert start is not None
    assert start == pytest.approx(epoch("2015-07-22T14:53:42.655-0100") - 1.807, abs=0.01)


def test_a_log_without_dates_has_no_start(tmp_path):
    log = tmp_path / "gc.log"
    log.write_text("[0.007s][info][gc] Using G1\n")
    assert jvm_start_epoch(log) is None
    assert jvm_start_epoch(tmp_path / "missing.log") is None
