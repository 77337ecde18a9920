"""JFR recordings: JDK Mission Control's automated analysis run headless on them (docs/jmc.md).

from jvmlab.jfr import run_jmc_rules
report = run_jmc_rules(Path("trial.jfr"))   # JmcReport: JMC's version, one JmcResult per rule
report.result("SystemGc").score             # 0-100, -1.0 not applicable
"""

from jvmlab.jfr.jmc_rules import (
    JmcError,
    JmcNotInstalledError,
    JmcReport,
    JmcResult,
    JmcRuleError,
    find_install,
    parse_report,
    run_jmc_rules,
)

__all__ = [
    "JmcError",
    "JmcNotInstalledError",
    "JmcReport",
    "JmcResult",
    "JmcRuleError",
    "find_install",
    "parse_report",
    "run_jmc_rules",
]
