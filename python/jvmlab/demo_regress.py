"""`python -m jvmlab.demo_regress` (`make demo-regress`): the TLS regression hunt of the field report.

examples/tls-regression.toml made short (10 s of connections per trial): `jvmlab regress` runs the bundled
tlsbench on the newest installed JDK with a client that sends the Extended Master Secret extension (base)
and one that does not (new, the old OpenSSL clients of the report), in interleaved rounds until the
connections per second are decided (`--repetitions auto`, three a side at least), with CPU profiles, JFR
event counts and (JDK 25) the calls of the certificate producer of a full handshake; it finds the slowdown,
points at the full-handshake frames and the handshake count, hints at JDK-8148421 and verifies
-Djdk.tls.useExtendedMasterSecret=false as a third variant. Writes build/demo-regress/regress.html.
About 4 minutes on 2 cores.
"""

from __future__ import annotations

import shutil
import sys

from jvmlab.demo import demo_spec_text
from jvmlab.entry import guarded
from jvmlab.workloads import REPO_ROOT

SPEC = REPO_ROOT / "examples" / "tls-regression.toml"
DEMO_DIR = REPO_ROOT / "build" / "demo-regress"
DURATION_S = 10
# Counting calls beside a CPU profile needs JFR method timing (JDK 25+; docs/counting.md).
JFR_METHOD_TIMING = 25
# Called once per full handshake (the server's certificate), almost never when sessions are resumed.
COUNTED = "sun.security.ssl.CertificateMessage$T12CertificateProducer.produce"


def run_demo() -> int:
    from jvmlab.cli.regress_run import RegressOptions, run
    from jvmlab.errors import write_file
    from jvmlab.experiment.execution import jdks

    shutil.rmtree(DEMO_DIR, ignore_errors=True)
    DEMO_DIR.mkdir(parents=True)
    spec = DEMO_DIR / "tls-regression-demo.toml"
    text = demo_spec_text(
        SPEC,
        (
            (r"-Dtls\.durationS=\d+", f"-Dtls.durationS={DURATION_S}"),
            (r'(?m)^name = "tls-regression"', 'name = "tls-regression-demo"'),
        ),
    )
    write_file(spec, text, what="demo's spec")
    newest = max(jdks.resolve(["all"]), key=lambda j: j.major)
    jdk = str(newest.major)
    shown = spec.relative_to(REPO_ROOT)
    out = DEMO_DIR.relative_to(REPO_ROOT)
    counting = f" --count '{COUNTED}'" if newest.major >= JFR_METHOD_TIMING else ""
    print(
        f"$ jvmlab regress {shown} --base client-ems --new default --jdk {jdk}{counting} --repetitions auto "
        f"--verify "
        f"--db {out}/jvmlab.db --runs {out}/runs -o {out}\n",
        flush=True,
    )
    options = RegressOptions(
        spec=spec,
        base="client-ems",
        new="default",
        jdk=jdk,
        flags=None,
        repetitions="auto",  # rounds until the primary measure is decided
        threshold=5.0,
        verify=True,
        output=DEMO_DIR,
        db=str(DEMO_DIR / "jvmlab.db"),
        runs=DEMO_DIR / "runs",
        count=(COUNTED,) if newest.major >= JFR_METHOD_TIMING else (),
    )
    code = run(options)
    return 0 if code == 1 else code  # the demo shows a regression: finding it is success


def main() -> int:
    return guarded(run_demo)


if __name__ == "__main__":
    sys.exit(main())
