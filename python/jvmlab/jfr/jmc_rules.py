"""JDK Mission Control's automated analysis of a JFR recording, run headless (docs/jmc.md).

`make jmc` puts JMC's rule jars (Maven Central, org.openjdk.jmc) and a small runner, JmcRulesXml, into
build/jmc. The runner calls JMC's own report code (JfrRulesReport.addReport) with every result kept, the
"not applicable" ones too, and prints JMC's XML report; this module runs it as a Java subprocess and reads
that XML (JMC's JSON output has been seen invalid). The rules are JMC's: nothing here judges a recording.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from jvmlab.errors import InputError, JvmLabError, os_error_reason
from jvmlab.jdk import default_jdk, installed_jdks
from jvmlab.jdk.launch import capture_jvm

REPO_ROOT = Path(__file__).resolve().parents[3]
RUNNER_CLASS = "JmcRulesXml"
RULES_JAR = re.compile(r"flightrecorder\.rules\.jdk-(.+)\.jar")
MIN_JAVA_MAJOR = 17  # JMC 9's jars are Java 17 class files (Bundle-RequiredExecutionEnvironment: JavaSE-17)
DEFAULT_TIMEOUT_S = 180.0
# JMC's messages come in English, Japanese and Chinese: English keeps texts and severity names stable.
ENGLISH = ("-Duser.language=en", "-Duser.country=US")

# JMC's Severity.getLocalizedName() (English) -> ours.
SEVERITIES = {
    "OK": "ok",
    "Information": "info",
    "Warning": "warning",
    "Not Applicable": "not applicable",
    "Ignore": "ignore",
}
NOT_APPLICABLE_SCORE = -1.0  # JMC's Severity.NA limit
INVALID_RECORDING = "InvalidJfrFileException"


class JmcError(JvmLabError):
    """JMC's analysis could not run or gave no usable report."""


class JmcNotInstalledError(JmcError):
    """The JMC jars or the runner are not in build/jmc (or $JVMLAB_JMC_DIR)."""


@dataclass(frozen=True)
class JmcResult:
    """One JMC rule's result. score: JMC's 0-100, -1.0 for "not applicable", None when the rule gave a
    severity without a score (FullGc does). severity: JMC's own, Severity.get(score) where there is a score:
    "warning" (>= 75), "info" (>= 25), "ok" (>= 0), "not applicable", or "ignore". Texts are JMC's, with its
    markup (HTML tags such as <p>, Markdown links) left in."""

    rule_id: str
    name: str
    score: float | None
    severity: str
    summary: str
    explanation: str
    solution: str

    @property
    def applicable(self) -> bool:
        return self.severity not in ("not applicable", "ignore")


@dataclass(frozen=True)
class JmcRuleError:
    """A rule that failed on this recording: JMC's exception, first line."""

    rule_id: str
    name: str
    error: str


@dataclass(frozen=True)
class JmcReport:
    """JMC's results for one recording, the JMC version and the java that ran them."""

    recording: Path
    jmc_version: str
    java: Path
    results: tuple[JmcResult, ...]
    rule_errors: tuple[JmcRuleError, ...]
    elapsed_s: float

    def result(self, rule_id: str) -> JmcResult | None:
        return next((r for r in self.results if r.rule_id == rule_id), None)


@dataclass(frozen=True)
class JmcInstall:
    """Where `make jmc` put JMC: the jars, the runner's class folder, the version of the rules jar."""

    jars: tuple[Path, ...]
    classes: Path
    version: str

    @property
    def classpath(self) -> str:
        return os.pathsep.join(str(p) for p in (self.classes, *self.jars))


def jmc_dir() -> Path:
    """$JVMLAB_JMC_DIR, else build/jmc of this source checkout."""
    configured = os.environ.get("JVMLAB_JMC_DIR")
    return Path(configured) if configured else REPO_ROOT / "build" / "jmc"


def find_install(folder: Path | None = None) -> JmcInstall:
    """The JMC jars and runner in `folder` (default jmc_dir()); JmcNotInstalledError when any is missing."""
    folder = folder or jmc_dir()
    jars = tuple(sorted(folder.glob("*.jar")))
    versions = sorted({m.group(1) for p in jars if (m := RULES_JAR.fullmatch(p.name))})
    runner = folder / "classes" / f"{RUNNER_CLASS}.class"
    if not versions or not runner.is_file():
        raise JmcNotInstalledError(
            f"{folder}: JDK Mission Control's rules are not installed (no flightrecorder.rules.jdk jar or "
            f"{RUNNER_CLASS}.class); fetch them with `make jmc`"
        )
    if len(versions) > 1:
        raise JmcNotInstalledError(
            f"{folder}: several JMC versions ({', '.join(versions)}); refetch one with `make jmc`"
        )
    return JmcInstall(jars, folder / "classes", versions[0])


def java_for_jmc() -> Path:
    """The java of the default JDK when it is 17 or newer, else of the first installed one that is."""
    default = default_jdk()
    if default is not None and default.major >= MIN_JAVA_MAJOR:
        return default.java
    found = next((j for j in installed_jdks() if j.major >= MIN_JAVA_MAJOR), None)
    if found is None:
        raise JmcError(
            f"JMC's rules need Java {MIN_JAVA_MAJOR} or newer and no such JDK was found: install one "
            "(`make jdks`) or pass java="
        )
    return found.java


def check_recording(recording: Path) -> None:
    """InputError naming the file when it cannot be a recording: missing, a folder, unreadable, empty."""
    try:
        size = recording.stat().st_size
    except OSError as e:
        raise InputError(str(recording), os_error_reason(e)) from None
    if recording.is_dir():
        raise InputError(str(recording), "is a folder, not a JFR recording")
    if size == 0:
        raise InputError(str(recording), "is empty, not a JFR recording")
    if not os.access(recording, os.R_OK):
        raise InputError(str(recording), "permission denied")


def run_jmc_rules(
    recording: Path, *, java: Path | None = None, timeout_s: float = DEFAULT_TIMEOUT_S
) -> JmcReport:
    """Runs JMC's rules on `recording` in a fresh JVM (killed after timeout_s) and reads its XML report."""
    check_recording(recording)
    install = find_install()
    java = java or java_for_jmc()
    argv = [str(java), *ENGLISH, "-cp", install.classpath, RUNNER_CLASS, str(recording.resolve())]
    out = capture_jvm(argv, timeout_s=timeout_s)
    if out.error is not None:
        raise JmcError(out.error)
    if out.timed_out:
        raise JmcError(
            f"{recording}: JMC's analysis did not finish in {timeout_s:g} s and was stopped; "
            "give a longer timeout_s"
        )
    if "UnsupportedClassVersionError" in out.stderr:
        raise JmcError(f"{java}: too old for JMC's rules, which need Java {MIN_JAVA_MAJOR} or newer")
    if out.returncode != 0:
        raise JmcError(f"{recording}: JMC's analysis failed ({java}): {_first_problem(out.stderr)}")
    results, errors = parse_report(out.stdout, recording)
    return JmcReport(recording, install.version, java, results, errors, out.elapsed_s)


def _first_problem(stderr: str) -> str:
    """The line of a JVM's stderr that says what went wrong (an exception, an error), else its first."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if "Exception" in line or "Error" in line:
            return line
    return lines[0] if lines else "no message"


def parse_report(xml_text: str, recording: Path) -> tuple[tuple[JmcResult, ...], tuple[JmcRuleError, ...]]:
    """JMC's XML report (reportcollection/report/rule) -> results and failed rules. A report-level error
    (the file is no recording) is an InputError naming the recording; the XML's own entities are refused."""
    if "<!DOCTYPE" in xml_text or "<!ENTITY" in xml_text:
        raise JmcError(f"{recording}: JMC's report declares a DOCTYPE or entities; refusing to read it")
    try:
        root = ET.fromstring(xml_text)
    except ET.ParseError as e:
        raise JmcError(f"{recording}: JMC's XML report cannot be read: {e}") from None
    report = root.find("report")
    if root.tag != "reportcollection" or report is None:
        raise JmcError(f"{recording}: JMC's XML report has no <report> element")
    _raise_report_error(report, recording)
    results, errors = [], []
    for rule in report.iter("rule"):
        if rule.find("error") is not None:
            error = _first_line(_text(rule, "error"))
            errors.append(JmcRuleError(_text(rule, "id"), _text(rule, "name"), error))
        else:
            results.append(_result(rule))
    return tuple(results), tuple(errors)


def _raise_report_error(report: ET.Element, recording: Path) -> None:
    error = report.find("error")
    if error is None:
        return
    message = _first_line(error.text or "")
    if INVALID_RECORDING in message:
        raise InputError(str(recording), f"not a JFR recording (JMC: {message.rsplit('.', 1)[-1]})")
    raise JmcError(f"{recording}: JMC could not load the recording: {message}")


def _result(rule: ET.Element) -> JmcResult:
    localized = _text(rule, "severity")
    severity = SEVERITIES.get(localized)
    if severity is None:
        raise JmcError(f"JMC rule {_text(rule, 'id')}: unknown severity {localized!r}")
    score = _score(_text(rule, "score"))
    if score is None and severity == "not applicable":
        score = NOT_APPLICABLE_SCORE
    return JmcResult(
        rule_id=_text(rule, "id"),
        name=_text(rule, "name"),
        score=score,
        severity=severity,
        summary=_text(rule, "summary"),
        explanation=_text(rule, "explanation"),
        solution=_text(rule, "solution"),
    )


def _score(text: str) -> float | None:
    """JMC prints the score with IQuantity.displayUsing("auto"): "93.8", "74", "0.983"."""
    try:
        return float(text.replace(",", "")) if text else None
    except ValueError:
        return None


def severity_of(score: float) -> str:
    """JMC's Severity.get(score): the first limit the score reaches, WARNING 75, INFO 25, OK 0, NA -1."""
    for limit, name in ((75.0, "warning"), (25.0, "info"), (0.0, "ok"), (-1.0, "not applicable")):
        if score >= limit:
            return name
    return "ignore"


def _text(element: ET.Element, tag: str) -> str:
    found = element.find(tag)
    return (found.text or "").strip() if found is not None else ""


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")
