"""Running an experiment: the plan, the trials (one JVM each, its load levels, its process samples) and what
they leave behind. Writes to `jvmlab.experiment.storage`; never reads the analysis."""
