"""Views of stored experiments (`jvmlab run|results|compare|report|gate`): the plan and results tables, the
comparison of variants with statistics, its exports (JSON, CSV, Markdown), the gate's JUnit and Markdown,
and the HTML page."""
