"""`jvmlab regress` end to end on tlsbench, short: a client without the Extended Master Secret extension
(new) against one with it (base) on one JDK. The regression is found (connections/s), the handshake frames
and JFR events point at it, the tls-ems hint fires, and --verify confirms its flag. Plus the usage errors,
said before anything runs."""

from __future__ import annotations

import json
import re

import pytest

from jvmlab.cli.main import main

SPEC = """
name = "tls-short"
[workload]
# Server and client JVMs C1 only: the regression is the same one (no resumption, a full handshake per
# connection), larger (C1 has no BigInteger intrinsics: RSA signing is 0.6 % -> 59 % of the samples instead
# of 0.7 % -> 12 %, the connections 90 % fewer instead of 66 %), so that 3 trials a side decide it. With
# the C2 tier the frames' growth missed significance at 3 trials a side in two clean-clone runs of six
# (q 0.053-0.057, 4 s trials); C1 only, in 3 s trials: q 0.0001-0.018 over five runs, the hint and its
# verification each time, in 67 s and 77 CPU-s instead of 94 s and 149. `make demo-regress` runs the
# full JIT in 10 s trials (docs/regress.md).
command = ["{java}", "-Dtls.client=noems", "-XX:TieredStopAtLevel=1",
           "-Dtls.clientOpts=-Xmx128m -XX:TieredStopAtLevel=1", "{jvm_opts}", "-Dtls.durationS=3",
           "-cp", "{classes}", "jvmlab.workloads.TlsBench", "server"]
ready = { log = "TlsBench listening on port \\\\d+", timeout_s = 60 }
stop = { exit = true, send = "stop", grace_s = 10 }
[workload.metric]
name = "connections_per_s"
regex = "^client: status: .* rate=(?P<value>[0-9.]+)/s"
kind = "rate"
unit = "conn/s"
[matrix]
jdks = ["21"]
repetitions = 2
[matrix.flags]
default = []
client-ems = ["-Dtls.client=ems"]
[trial]
timeout_s = 60
warmup_s = 1
[compare]
alpha = 0.05  # 3 short trials a side: Welch's test cannot reach 0.01 on a 4x change this noisy
"""


@pytest.fixture
def spec(tmp_path):
    path = tmp_path / "tls.toml"
    path.write_text(SPEC)
    return path


def _args(spec, tmp_path, *extra):
    return [
        "regress", str(spec), "--base", "client-ems", "--new", "default", "--repetitions", "3",
        "--db", str(tmp_path / "r.db"), "--runs", str(tmp_path / "runs"), "-o", str(tmp_path / "out"), *extra,
    ]  # fmt: skip


@pytest.mark.jvm
@pytest.mark.timing  # the hint's evidence must be significant at 3 short trials a side: a quiet machine
def test_the_ems_regression_is_found_explained_and_its_fix_verified(spec, tmp_path, capsys):
    code = main(_args(spec, tmp_path, "--verify"))
    out = capsys.readouterr().out
    assert code in (0, 1), out
    doc = json.loads((tmp_path / "out" / "regress.json").read_text())
    assert doc["repetitions"] == {"per_side": 3, "auto_stopped": None}  # --repetitions 3: no looks
    metric = next(m for m in doc["measures"] if m["measure"] == "connections_per_s")
    assert metric["change_percent"] < -40, metric  # 8-11x fewer connections/s here (C1 only)
    # Worse when its CI leaves 0 % beyond the threshold: usually so at 3 short trials a side, not always;
    # else inconclusive, never "ok" or equivalent. The exit code follows the verdicts as `jvmlab gate`'s
    # does: 1 when a measure is worse or undecided.
    assert metric["verdict"] in ("worse", "inconclusive"), metric
    undecided = [m for m in doc["measures"] if m["verdict"] in ("worse", "inconclusive")]
    assert code == (1 if undecided else 0)
    # The full handshakes' frames take a larger share of the CPU (RSA signing: 0.6 % -> 59 % here). Mostly
    # significant, not always at 3 short trials a side, so the test asks for the size.
    grown = [f["frame"] for f in doc["frames"] if f["new_total"] - f["base_total"] >= 0.02]
    assert any(f.startswith("sun.security.") for f in grown), [
        (f["frame"], f["base_total"], f["new_total"], f["significant"]) for f in doc["frames"][:15]
    ]
    events = {e["event"]: e for e in doc["events"]}
    # The abbreviated handshakes of resumed sessions are gone: about 900 a trial to none. Significant when
    # the base's counts agree (q 0.012 here); a loaded machine spreads them (Welch's test at 3 a side), so
    # the test asks for the size, the verdict follows the statistics.
    shakes = events["jdk.TLSHandshake"]
    assert shakes["change_percent"] < -90 and shakes["new_mean"] < 0.1 * shakes["base_mean"], shakes
    assert doc["hints"][0]["id"] == "tls-ems"
    assert doc["hints"][0]["flag"] == "-Djdk.tls.useExtendedMasterSecret=false"
    # The flag restores resumption: far more connections/s. At 3 short trials a side that is not always
    # decided (inconclusive), so the test asks for the direction and size, and never "harmful" or "no
    # effect"; `make demo-regress` (10 s trials) confirms it (docs/regress.md).
    verification = doc["verification"]
    # The verification follows the measures that regressed: the metric when it was worse (its steady state
    # too, "connections per s, steady state"), else the first measure judged; under a loaded machine a GC
    # measure can be the one that regressed beside an inconclusive metric, then the metric is not followed.
    rows = [m for m in verification["measures"] if m["measure"].startswith("connections per s")]
    assert rows or metric["verdict"] != "worse", verification
    for restored in rows:
        assert restored["with_flag"] > 1.5 * restored["new"], verification
    assert verification["verdict"] in ("confirmed", "inconclusive"), verification
    html = (tmp_path / "out" / "regress.html").read_text()
    assert "tls-ems" in html and "flame-diff" in html
    assert "test it: -Djdk.tls.useExtendedMasterSecret=false" in out
    # The headline: "regressed: ..." or "inconclusive: <measure> changed ..., neither shown beyond nor within
    # ..." (the verify line may say "inconclusive: ..." of the flag's own run)
    said = " ".join(out.split())
    assert bool(re.search(r"^regressed: \d+ measures? worse", out, re.M)) == doc["regressed"], out
    assert ("neither shown beyond nor within" in said) == (not doc["regressed"] and code == 1), out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--base", "nosuch"), "--base nosuch: neither a flag set of the spec"),
        (("--new", "client-ems"), "are the same variant"),
    ],
)
def test_sides_that_make_no_sense_are_one_line_and_exit_2(spec, tmp_path, capsys, extra, message):
    args = _args(spec, tmp_path)
    for flag, value in zip(extra[::2], extra[1::2], strict=True):
        args[args.index(flag) + 1] = value
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert not (tmp_path / "runs").exists()


def test_an_unusable_output_folder_is_said_before_the_run(spec, tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    args = _args(spec, tmp_path)
    args[args.index("-o") + 1] = str(blocker / "out")
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert "cannot make the output folder" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "runs").exists()
