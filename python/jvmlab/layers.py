"""The layers of jvmlab, top to bottom: a part imports only parts of its own layer or of a lower one (and two
parts of one layer never both ways). tests/test_layers.py holds the imports to this table and
docs/architecture.md draws it (`diagram()`, checked to match)."""

from __future__ import annotations

# (parts, what the layer does), from the top.
LAYERS: tuple[tuple[tuple[str, ...], str], ...] = (
    (
        ("__main__", "demo", "demo_regress"),
        "entry points: `python -m jvmlab`, `make demo`, `make demo-regress`",
    ),
    (("cli",), "typer commands: parse, call the library, one error printer"),
    (("serve",), "the web app over the store: pages, the JSON API, uploads"),
    (("report",), "views: terminal tables, HTML pages, JSON/CSV exports (never the store)"),
    (("tune", "regress", "verify"), "Optuna search; regression hunts; advice checked by experiment"),
    (("experiment",), "specs, trials (local, Ray), the store, analysis of stored results"),
    (("advise",), "findings and recommendations over the facts of a log, a JVM or a trial"),
    (("load", "jit"), "the open-model load driver; compilation logs and the code cache"),
    (("jfr", "profile"), "JFR recordings, JMC's rules; async-profiler stacks, counts, diffs"),
    (("jdk",), "what a JDK has (versions, tools, flags, collectors); launch, attach"),
    (
        ("metrics", "stats", "gclog", "host", "container", "workloads"),
        "GC figures, statistics, GC log parsing, the machine, cgroups for trials, bundled workloads",
    ),
    (
        ("errors", "durations", "entry", "layers", "lazy"),
        "the error hierarchy, durations, the error printer, this table, names imported on first use",
    ),
)

RANKS: dict[str, int] = {part: len(LAYERS) - i for i, (parts, _) in enumerate(LAYERS) for part in parts}


def diagram() -> str:
    """The layers as docs/architecture.md draws them."""
    width = max(len(", ".join(parts)) for parts, _ in LAYERS)
    return "\n  ▼\n".join(f"{', '.join(parts):<{width}}  {what}" for parts, what in LAYERS)
