"""Experiments: one workload under a matrix of JDKs x flag sets x load levels, repeated.

- `spec`: what to run, read from a TOML file and validated before anything starts (docs/experiment-spec.md).
- `execution`: running it: plan the trials, launch each JVM in isolation, drive its load levels, sample the
  process, collect the GC log and the workload's metric.
- `storage`: storing it: every trial and level, committed as it ends, in SQLite or PostgreSQL.
- `analysis`: reading it back: figures per variant and level, the comparison against a baseline with
  statistics, goals, and the CI gate. Analysis reads the store only, never a running trial.

Dependencies run one way: execution -> storage <- analysis, and all three read `spec`.
"""
