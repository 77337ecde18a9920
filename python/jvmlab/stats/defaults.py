"""The defaults every statistic of jvmlab shares, in one place (docs/methodology.md#defaults): `compare`,
`gate`, goals, `profile diff`, `regress`, `verify` and `tune` read them from here, never their own."""

# Resamples per bootstrap (an estimate's CI): the Monte Carlo error of a 95% bound is then well under 1% of
# the CI's width.
N_RESAMPLES = 9999
# The level of an estimate's CI (a variant's mean). A change's CI is at the level of its test: 1 - alpha, or
# the false-coverage level among several (stats.change).
CONFIDENCE = 0.95
# Compared runs report several metrics at once and Benjamini-Hochberg keeps the chance of any false alarm,
# when nothing changed at all, at about alpha. At 0.05 an A/A run (the same thing twice) would raise an
# alarm in about 1 run in 20; at 0.01, in about 1 in 100 (docs/methodology.md#the-default-alpha).
DEFAULT_ALPHA = 0.01
# Seed policy: every bootstrap draws from numpy.random.default_rng(seed), a fresh generator per CI, with
# seed 0 unless the caller passes one, so that the same values give the same CI on every path.
DEFAULT_SEED = 0
# A change smaller than this (percent) is one nobody acts on: within +-it, two variants are equivalent; a
# change is called better or worse only beyond it (docs/methodology.md#verdicts). `--threshold` sets it.
DEFAULT_THRESHOLD_PERCENT = 5.0
# `repetitions = "auto"` (stats.sequential): the first look comes after this many values a side (the fewest
# for a CI on each), and rounds are added up to the budget below: 20 values a side find a 10% change 90% of
# the time at a CV up to 5%, the noise of short trials on a busy 2-core machine (docs/methodology.md).
AUTO_FIRST_LOOK = 3
DEFAULT_MAX_REPETITIONS = 20
