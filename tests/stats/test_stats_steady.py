"""steady_state(): warm-up, flat, slowdown and no steady state on seeded synthetic series (PELT)."""

import numpy as np
import pytest

from jvmlab.errors import JvmLabError
from jvmlab.stats import FLAT, NO_STEADY_STATE, SLOWDOWN, WARMUP, Segment, consistency, steady_state

SEEDS = range(8)


def noisy(levels: np.ndarray, seed: int, sd: float = 6.0) -> tuple[np.ndarray, np.ndarray]:
    """The series `levels` plus normal noise, one point every 0.5 s starting at 10 s."""
    rng = np.random.default_rng(seed)
    return 10.0 + 0.5 * np.arange(levels.size), levels + rng.normal(0.0, sd, levels.size)


def ramp_warmup() -> np.ndarray:
    """20 points rising from 150 to 300, then 100 points at 300: steady from point 20."""
    return np.concatenate([np.linspace(150.0, 300.0, 20, endpoint=False), np.full(100, 300.0)])


@pytest.mark.parametrize("seed", SEEDS)
def test_a_ramp_then_a_plateau_is_a_warmup(seed):
    t, y = noisy(ramp_warmup(), seed)
    s = steady_state(t, y)
    assert s.classification == WARMUP
    # The ramp's last points are within the noise of the plateau (292.5 vs 300, sd 6): PELT may start the
    # plateau a few points early, never late.
    assert t[14] <= s.steady_start_s <= t[21]
    assert s.time_to_steady_s == pytest.approx(s.steady_start_s - 10.0)
    assert s.steady_mean == pytest.approx(300.0, abs=2.0)
    start = int(round((s.steady_start_s - 10.0) / 0.5))
    assert s.early_mean == pytest.approx(float(np.mean(ramp_warmup()[:start])), abs=4.0)
    assert s.segments[-1].end_s == t[-1] and sum(seg.n for seg in s.segments) == y.size


@pytest.mark.parametrize("seed", SEEDS)
def test_a_step_warmup_is_found_within_a_point(seed):
    t, y = noisy(np.concatenate([np.full(20, 150.0), np.full(100, 300.0)]), seed)
    s = steady_state(t, y)
    assert s.classification == WARMUP
    assert abs(s.steady_start_s - t[20]) <= 0.5
    assert s.early_mean == pytest.approx(150.0, abs=4.0) and s.steady_mean == pytest.approx(300.0, abs=2.0)
    assert len(s.segments) == 2


@pytest.mark.parametrize("seed", SEEDS)
def test_noise_alone_is_flat(seed):
    t, y = noisy(np.full(120, 300.0), seed)
    s = steady_state(t, y)
    assert s.classification == FLAT and len(s.segments) == 1
    assert (s.steady_start_s, s.time_to_steady_s, s.early_mean) == (10.0, 0.0, None)
    assert s.steady_mean == pytest.approx(float(np.mean(y)))


def test_a_small_step_within_1_percent_is_merged_into_flat():
    t, y = noisy(np.concatenate([np.full(60, 300.0), np.full(60, 302.0)]), 0, sd=0.3)
    s = steady_state(t, y)
    assert s.classification == FLAT and s.segments[0].n == 120


@pytest.mark.parametrize("seed", SEEDS)
def test_a_drop_is_a_slowdown(seed):
    t, y = noisy(np.concatenate([np.full(40, 300.0), np.full(80, 250.0)]), seed)
    s = steady_state(t, y)
    assert s.classification == SLOWDOWN
    assert s.steady_start_s == pytest.approx(t[40], abs=0.5)
    assert s.steady_mean == pytest.approx(250.0, abs=2.0) and s.early_mean == pytest.approx(300.0, abs=3.0)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_change_in_the_last_10_percent_is_no_steady_state(seed):
    t, y = noisy(np.concatenate([np.full(108, 300.0), np.full(12, 250.0)]), seed)
    s = steady_state(t, y)
    assert s.classification == NO_STEADY_STATE
    assert (s.steady_start_s, s.time_to_steady_s, s.early_mean, s.steady_mean) == (None, None, None, None)
    assert len(s.segments) == 2


def test_lower_is_better_turns_a_falling_latency_into_a_warmup():
    t, y = noisy(np.concatenate([np.full(30, 20.0), np.full(90, 10.0)]), 1, sd=0.5)
    assert steady_state(t, y, higher_is_better=False).classification == WARMUP
    assert steady_state(t, y, higher_is_better=True).classification == SLOWDOWN


def test_a_dip_then_recovery_is_a_warmup():
    t, y = noisy(np.concatenate([np.full(30, 300.0), np.full(30, 200.0), np.full(60, 300.0)]), 2)
    s = steady_state(t, y)
    assert s.classification == WARMUP and len(s.segments) == 3


def test_steady_fraction_decides_how_long_the_last_segment_must_be():
    t, y = noisy(np.concatenate([np.full(80, 150.0), np.full(40, 300.0)]), 3)
    assert steady_state(t, y).classification == WARMUP
    assert steady_state(t, y, steady_fraction=0.5).classification == NO_STEADY_STATE


def test_a_short_series_is_flat_with_one_segment():
    s = steady_state([0.0, 1.0, 2.0, 3.0], [100.0, 300.0, 300.0, 300.0])
    assert s.classification == FLAT
    assert s.segments == (Segment(0.0, 3.0, 250.0, 4),)


def test_a_constant_series_is_flat():
    s = steady_state(list(range(50)), [7.0] * 50)
    assert s.classification == FLAT and s.steady_mean == 7.0


def test_the_same_series_gives_the_same_result():
    t, y = noisy(ramp_warmup(), 0)
    assert steady_state(t, y) == steady_state(list(t), list(y))


@pytest.mark.parametrize(
    ("times", "values", "message"),
    [
        ([0.0, 1.0], [1.0], "one time per value"),
        ([], [], "empty series"),
        ([0.0, 2.0, 1.0], [1.0, 1.0, 1.0], r"times must increase: times_s\[2\] = 1.0 after 2.0"),
        ([0.0, 1.0, 1.0], [1.0, 1.0, 1.0], "times must increase"),
        ([0.0, 1.0], [1.0, float("nan")], "finite times and values"),
    ],
)
def test_bad_series_are_refused(times, values, message):
    with pytest.raises(JvmLabError, match=message):
        steady_state(times, values)


def test_a_steady_fraction_outside_0_1_is_refused():
    with pytest.raises(JvmLabError, match="steady_fraction must be between 0 and 1"):
        steady_state([0.0, 1.0], [1.0, 1.0], steady_fraction=1.5)


def test_consistency_means_every_repetition_got_the_same_class():
    assert consistency([WARMUP, WARMUP, WARMUP])
    assert not consistency([WARMUP, FLAT, WARMUP])
    assert consistency([]) and consistency([NO_STEADY_STATE])
    with pytest.raises(JvmLabError, match="unknown steady-state class 'warmup'"):
        consistency(["warmup"])


@pytest.mark.parametrize("seed", range(3))
def test_the_prefix_sum_cost_segments_like_ruptures_own_l2(seed):
    import math

    import ruptures

    from jvmlab.stats._changepoints import MIN_SEGMENT_POINTS, PENALTY_PER_LOG_N, noise_sigma, segment_ends

    _, y = noisy(
        np.concatenate([np.linspace(150.0, 300.0, 30), np.full(50, 300.0), np.full(40, 280.0)]), seed
    )
    scaled = (y - np.median(y)) / noise_sigma(y)
    algo = ruptures.Pelt(model="l2", min_size=MIN_SEGMENT_POINTS, jump=1).fit(scaled)
    assert segment_ends(y) == algo.predict(pen=PENALTY_PER_LOG_N * math.log(y.size))


@pytest.mark.parametrize("level", [0.0, 300.0, 1e9])
def test_span_means_and_standard_errors_from_prefix_sums_agree_with_numpy(level):
    from jvmlab.stats.steady import _Span, _Sums

    rng = np.random.default_rng(7)
    y = level + np.concatenate([rng.normal(0.0, 1.0, 50), rng.normal(40.0, 0.01, 50)])
    sums = _Sums(y)
    for start, stop in [(0, 50), (50, 100), (0, 100), (10, 11), (37, 64), (95, 100)]:
        points = y[start:stop]
        span = _Span(start, stop)
        assert sums.mean(span) == pytest.approx(float(np.mean(points)), rel=1e-12, abs=1e-9)
        se = float(np.std(points, ddof=1) / np.sqrt(points.size)) if points.size > 1 else 0.0
        assert sums.se(span) == pytest.approx(se, rel=1e-6, abs=1e-9)
