"""The gate's result for CI systems: JUnit XML (one test case per check; a failed check is a failure, and so
is an inconclusive one unless the gate lets those pass, when it is skipped with its reason), Markdown (a
summary for a pull-request comment) and JSON (`jvmlab serve`)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from jvmlab.experiment.analysis.gate import GOALS, REGRESSIONS, GateResult
from jvmlab.experiment.analysis.goals import FAIL, INCONCLUSIVE, NO_DATA, PASS

ICONS = {PASS: "✅", FAIL: "❌", INCONCLUSIVE: "⚠️", NO_DATA: "➖"}
SUITES = {GOALS: "goals", REGRESSIONS: "regressions against the baseline experiment"}


def gate_document(result: GateResult) -> dict[str, object]:
    """The gate's verdict and checks as JSON types (`jvmlab serve`'s gate document)."""
    return {
        "format_version": 1,
        "experiment": result.experiment,
        "against": result.against,
        "threshold_percent": result.threshold_percent,
        "inconclusive": result.inconclusive,
        "passed": not result.failed,
        "exit_code": result.exit_code,
        "checks": [
            {
                "group": c.group,
                "level": c.level,
                "variant": c.variant,
                "name": c.name,
                "status": c.status,
                "message": c.message,
            }
            for c in result.checks
        ],  # fmt: skip
    }


def to_junit(result: GateResult) -> str:
    root = ET.Element("testsuites", name=f"jvmlab gate: {result.experiment}")
    for group, title in SUITES.items():
        checks = [c for c in result.checks if c.group == group]
        if group == REGRESSIONS and result.against is None:
            continue
        failing = set(id(c) for c in result.failed)
        failures = sum(id(c) in failing for c in checks)
        skipped = sum(c.status in (INCONCLUSIVE, NO_DATA) and id(c) not in failing for c in checks)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=title,
            tests=str(len(checks)),
            failures=str(failures),
            skipped=str(skipped),
        )
        for c in checks:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=f"jvmlab.{group}.{c.level or 'all'}",
                name=f"{c.variant}: {c.name}",
            )
            if id(c) in failing:
                ET.SubElement(case, "failure", message=c.message, type=c.status).text = c.message
            elif c.status in (INCONCLUSIVE, NO_DATA):
                ET.SubElement(case, "skipped", message=c.message)
            else:
                ET.SubElement(case, "system-out").text = c.message
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(result: GateResult) -> str:
    verdict = "❌ failed" if result.failed else "✅ passed"
    lines = [f"### jvmlab gate: {verdict}", "", f"Experiment: {_cell(result.experiment)}"]
    if result.against:
        lines.append(
            f"Against: {_cell(result.against)}; a regression is significantly worse by more than "
            f"{result.threshold_percent:g}%, equivalent is the whole CI within ±{result.threshold_percent:g}%"
        )
    if any(c.status == INCONCLUSIVE for c in result.checks):
        lines.append(f"Inconclusive checks {result.inconclusive} the gate (`--inconclusive`).")
    counts = {s: sum(c.status == s for c in result.checks) for s in (PASS, FAIL, INCONCLUSIVE, NO_DATA)}
    lines += ["", " · ".join(f"{ICONS[s]} {s}: {n}" for s, n in counts.items() if n), ""]
    shown = [c for c in result.checks if c.status != PASS] or list(result.checks)
    if shown:
        lines += ["| | check | level | variant | detail |", "|---|---|---|---|---|"]
        for c in shown:
            row = [ICONS.get(c.status, c.status), c.group, c.level or "all", c.variant, c.message]
            lines.append("| " + " | ".join(_cell(x) for x in row) + " |")
        if len(shown) < len(result.checks):
            lines += ["", f"{len(result.checks) - len(shown)} more checks passed."]
    return "\n".join(lines) + "\n"
