"""The run window: from JVM start or the first line to the last line; narrowing; no time stamps."""

import pytest
from metrics_frames import frame, pause
from reference.selection import events_in

from jvmlab.errors import UsageError
from jvmlab.metrics.windows import RunWindow, narrow, run_window


def test_window_starts_at_zero_when_the_log_shows_the_jvm_start():
    w = run_window({"first_time_s": 0.015, "last_time_s": 12.8, "jvm_start_seen": True})
    assert (w.start_s, w.end_s, w.duration_s, w.from_jvm_start) == (0.0, 12.8, 12.8, True)


def test_window_starts_at_the_first_line_otherwise():
    w = run_window({"first_time_s": 100.0, "last_time_s": 160.0, "jvm_start_seen": False})
    assert (w.start_s, w.duration_s, w.from_jvm_start) == (100.0, 60.0, False)


def test_no_time_stamps_means_no_window():
    w = run_window({"first_time_s": None, "last_time_s": None, "jvm_start_seen": False})
    assert w.start_s is None and w.duration_s is None


def test_a_single_time_stamp_gives_an_empty_window():
    assert run_window({"first_time_s": 5.0, "last_time_s": 5.0}).duration_s is None


def test_narrowing_intersects_and_filters_events():
    whole = RunWindow(start_s=0.0, end_s=100.0, from_jvm_start=True)
    w = narrow(whole, 10.0, None)
    assert (w.start_s, w.end_s, w.narrowed) == (10.0, 100.0, True)
    events = frame(pause(5.0, 0, "young", 1.0), pause(20.0, 1, "young", 1.0))
    assert events_in(events, w).get_column("gc_id").to_list() == [1]
    assert events_in(events, whole).height == 2


@pytest.mark.parametrize(
    ("start", "end", "message"), [(50.0, 40.0, "before it starts"), (200.0, None, "outside")]
)
def test_bad_windows_name_the_options(start, end, message):
    whole = RunWindow(start_s=0.0, end_s=100.0, from_jvm_start=True)
    with pytest.raises(UsageError, match=message):
        narrow(whole, start, end)


def test_narrowing_a_log_without_time_stamps_is_an_error():
    with pytest.raises(UsageError, match="--start-s"):
        narrow(RunWindow(start_s=None, end_s=None, from_jvm_start=False), 1.0, None)
