"""Analysing stored experiments: figures per variant and load level, measures, the comparison with
confidence intervals and significance, goals, and the CI gate. Reads `jvmlab.experiment.storage` only."""
