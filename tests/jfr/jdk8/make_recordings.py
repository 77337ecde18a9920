"""Makes the JDK 8 recordings of tests/jfr/test_jfr_table_jdk8.py: Churn (tests/advise/programs) on a real
OpenJDK 8 (tools/jdk8-chroot.sh) per collector, with a GC log (-XX:+PrintGCDetails -XX:+PrintGCID) and a
JFR recording of the same JVM; the recording is cut down with a JDK 17+ `jfr scrub` to the events
jvmlab.jfr.gc_events reads (a few tens of kB instead of hundreds).

    .venv/bin/python tests/jfr/jdk8/make_recordings.py [--java8 /opt/jdk8/bin/java]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
PROGRAMS = HERE.parents[1] / "advise" / "programs"
COLLECTORS = {
    "serial": ["-XX:+UseSerialGC"],
    "parallel": ["-XX:+UseParallelGC"],
    "cms": ["-XX:+UseConcMarkSweepGC"],
    "g1": ["-XX:+UseG1GC"],
}
RUN = ["Churn", "seconds=4", "live_mb=40", "keep=8", "rate_mbps=150"]
KEPT = (
    "GarbageCollection,GCPhasePause,GCHeapSummary,MetaspaceSummary,EvacuationFailed,PromotionFailed,"
    "SafepointBegin,ExecuteVMOperation,JVMInformation,G1GarbageCollection,YoungGarbageCollection,"
    "OldGarbageCollection,ParallelOldGarbageCollection,GCConfiguration"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--java8", default="/opt/jdk8/bin/java")
    parser.add_argument("--jfr", default="/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr", help="JDK 19+ (scrub)")
    a = parser.parse_args()
    javac8 = str(Path(a.java8).with_name("javac"))
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        work = Path(tmp)
        for source in ("Churn.java", "Args.java"):
            shutil.copy(PROGRAMS / source, work / source)
        subprocess.run(
            [javac8, "-d", str(work), str(work / "Churn.java"), str(work / "Args.java")], check=True
        )
        for name, flags in COLLECTORS.items():
            log, rec = work / f"{name}.gc.log", work / f"{name}.jfr"
            logging = ["-XX:+PrintGCDetails", "-XX:+PrintGCTimeStamps", "-XX:+PrintGCID", f"-Xloggc:{log}"]
            recording = f"-XX:StartFlightRecording=filename={rec},settings=default"
            argv = [a.java8, "-Xmx128m", "-Xms128m", *flags, *logging, recording, "-cp", str(work), *RUN]
            subprocess.run(argv, check=True, timeout=120, cwd=work, stdout=subprocess.DEVNULL)
            scrub = [a.jfr, "scrub", "--include-events", KEPT, str(rec), str(HERE / f"{name}.jfr")]
            subprocess.run(scrub, check=True, stdout=subprocess.DEVNULL)
            shutil.copy(log, HERE / f"{name}.gc.log")
            print(name, (HERE / f"{name}.jfr").stat().st_size, (HERE / f"{name}.gc.log").stat().st_size)


if __name__ == "__main__":
    main()
