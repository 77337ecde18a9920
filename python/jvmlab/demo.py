"""`python -m jvmlab.demo` (`make demo`): runs the bundled GcChurn workload for a few seconds on the default
`java` with G1 and GC logging, then prints `jvmlab gc summary` of its log.

The Java classes are found by `jvmlab.workloads.classes_dir()`.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import polars as pl

from jvmlab import gclog
from jvmlab.errors import JvmLabError
from jvmlab.jdk.discovery import default_jdk
from jvmlab.jdk.launch import JvmRun, run_jvm, xlog_file_option
from jvmlab.workloads import REPO_ROOT, classes_dir

WORKLOAD_CLASS = "jvmlab.workloads.GcChurn"
DEMO_DURATION_S = 8
# A mix that shows more than young pauses: humongous arrays, metaspace growth, one System.gc().
WORKLOAD_ARGS = (
    f"--duration-s={DEMO_DURATION_S}",
    "--rate-mb-s=400",
    "--live-mb=48",
    "--humongous=0.02",
    "--classes-per-s=400",
    "--system-gc-s=5",
)
JVM_FLAGS = ("-Xmx256m", "-XX:+UseG1GC")
LOG_SELECTION = "gc*,safepoint"
LOG_DECORATORS = "uptime,time,level,tags"
TIMEOUT_S = DEMO_DURATION_S + 60


def java_executable() -> str:
    jdk = default_jdk()
    if jdk is None:
        raise JvmLabError("no JDK found (JAVA_HOME, java on PATH, /usr/lib/jvm): install a JDK 11 or newer")
    return str(jdk.java)


def workload_argv(java: str, log_path: Path) -> list[str]:
    xlog = xlog_file_option(LOG_SELECTION, log_path, LOG_DECORATORS)
    return [java, *JVM_FLAGS, xlog, "-cp", str(classes_dir()), WORKLOAD_CLASS, *WORKLOAD_ARGS]


def run_workload(log_path: Path) -> JvmRun:
    """Runs GcChurn with GC logging into log_path (replacing an older log); its output goes to ours."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log_path.unlink(missing_ok=True)
    run = run_jvm(workload_argv(java_executable(), log_path), timeout_s=TIMEOUT_S)
    if run.timed_out:
        raise JvmLabError(f"the workload did not finish within {TIMEOUT_S} s and was killed")
    if run.returncode != 0:
        raise JvmLabError(f"the workload failed with exit status {run.returncode}: {' '.join(run.argv)}")
    return run


def cli_available() -> bool:
    try:
        return importlib.util.find_spec("jvmlab.cli.main") is not None
    except ModuleNotFoundError:
        return False


def cli_summary(log_path: Path) -> int:
    """`jvmlab gc summary <log>` in a child Python, as the installed `jvmlab` script would run it."""
    code = "import sys; from jvmlab.cli.main import main; sys.exit(main())"
    argv = [sys.executable, "-c", code, "gc", "summary", str(log_path)]
    return subprocess.run(argv, check=False).returncode


def minimal_summary(log_path: Path) -> pl.DataFrame:
    """Fallback when the CLI is not installed: pause count, total and max per kind and cause."""
    pauses = gclog.load(log_path).events.filter(pl.col("category") == "pause")
    return (
        pauses.group_by("kind", "cause")
        .agg(
            pl.len().alias("count"),
            pl.col("pause_ms").sum().round(3).alias("total_ms"),
            pl.col("pause_ms").max().round(3).alias("max_ms"),
        )
        .sort("count", descending=True)
    )


def main() -> int:
    log_path = REPO_ROOT / "build" / "demo" / "gc.log"
    try:
        print(f"running {WORKLOAD_CLASS} for {DEMO_DURATION_S} s; GC log: {log_path}", flush=True)
        run_workload(log_path)
        print(f"\n$ jvmlab gc summary {log_path}", flush=True)
        if cli_available():
            return cli_summary(log_path)
        print("(jvmlab.cli is not installed yet: minimal summary from the event table)")
        with pl.Config(tbl_rows=50, tbl_hide_dataframe_shape=True):
            print(minimal_summary(log_path))
        return 0
    except JvmLabError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
