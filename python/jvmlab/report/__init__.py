"""Reports: view models (data laid out for a reader), their terminal rendering, and exports (JSON, CSV,
Parquet). Rendering never computes a figure: figures come from jvmlab.metrics."""
