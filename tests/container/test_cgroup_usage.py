"""What a trial's cgroup counted, read from cgroup v1's files (kept by the supervisor on this machine,
tests/container/data) and from cgroup v2's (the kernel's documented formats, cgroup-v2.rst)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jvmlab.container.hierarchy import V1, V2
from jvmlab.container.usage import usage_from_file, usage_of

DATA = Path(__file__).with_name("data")


def test_v1_counters_of_a_throttled_trial():
    u = usage_from_file(V1, DATA / "v1-gcchurn-half-cpu.json")
    assert u is not None
    assert u.cpu_s == pytest.approx(2.0895, abs=1e-3) and u.periods == 42 and u.throttled_periods == 41
    assert u.throttled_s == pytest.approx(2.206, abs=1e-3) and u.throttled_percent == pytest.approx(
        97.62, abs=0.01
    )
    assert u.memory_peak_bytes == 85434368 and u.memory_limit_bytes == 256 * 2**20
    assert u.memory_peak_percent == pytest.approx(31.8, abs=0.1)
    assert u.file_bytes == 1421312 and u.oom_kills == 0


def test_v1_counters_of_an_oom_killed_trial():
    u = usage_from_file(V1, DATA / "v1-pretouch-oom-killed.json")
    assert u is not None and u.oom_kills == 1
    assert u.memory_peak_bytes == u.memory_limit_bytes == 128 * 2**20
    assert u.periods == 0 and u.throttled_percent == 0.0  # no CPU limit: no period ran out of quota


def test_v2_counters():
    texts = {
        "cpu.stat": "usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\nnr_periods 50\n"
        "nr_throttled 10\nthrottled_usec 400000\nnr_bursts 0\nburst_usec 0\n",
        "memory.peak": "400000000\n",
        "memory.current": "300000000\n",
        "memory.max": "536870912\n",
        "memory.stat": "anon 250000000\nfile 40000000\nkernel 5000000\n",
        "memory.events": "low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\noom_group_kill 0\n",
    }
    u = usage_of(V2, texts)
    assert (u.cpu_s, u.periods, u.throttled_periods, u.throttled_s) == (2.5, 50, 10, 0.4)
    assert u.throttled_percent == 20.0 and u.memory_peak_percent == pytest.approx(74.5, abs=0.1)
    assert (u.anon_bytes, u.file_bytes, u.oom_kills) == (250000000, 40000000, 1)
    assert usage_of(V2, {"memory.max": "max\n"}).memory_limit_bytes is None


def test_missing_files_leave_their_figures_unknown(tmp_path):
    u = usage_of(V1, {})
    assert u.cpu_s is None and u.throttled_percent is None and u.memory_peak_percent is None
    assert usage_from_file(V1, tmp_path / "absent.json") is None
    (tmp_path / "bad.json").write_text("{")
    assert usage_from_file(V1, tmp_path / "bad.json") is None
