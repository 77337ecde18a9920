"""Reports: view models (data laid out for a reader), their terminal rendering, and exports (JSON, CSV,
Parquet, HTML). `gclog/` shows GC logs, `experiment/` stored experiments; `html/` is the single-file page
both use. Views never read the store or parse a log, and never compute a figure: they get them from
jvmlab.metrics and jvmlab.experiment.analysis."""
