"""JFR event counts (`jfr summary`) and settings with more events on, on real recordings of the installed
JDKs: an event the default settings leave off is recorded once settings_with turns it on."""

from __future__ import annotations

import subprocess

import pytest

from jvmlab.errors import InputError
from jvmlab.jdk.discovery import installed_jdks
from jvmlab.jfr.events import default_settings, event_counts, event_counts_of_summary, settings_with

pytestmark = pytest.mark.jvm

SUMMARY = """
 Version: 2.1
 Chunks: 1
 Start: 2026-11-25 15:40:01 (UTC)

 Event Type                              Count  Size (bytes)
=============================================================
 jdk.TLSHandshake                         2890        112660
 jdk.X509Certificate                       144         22887
 jdk.ClassLoad                               0             0
"""


def test_the_summary_table_is_read_with_zero_counts_kept():
    assert event_counts_of_summary(SUMMARY) == {
        "jdk.TLSHandshake": 2890,
        "jdk.X509Certificate": 144,
        "jdk.ClassLoad": 0,
    }


def _jfr_tool():
    tools = sorted((j for j in installed_jdks() if j.has_jfr_tool), key=lambda j: -j.major)
    if not tools:
        pytest.skip("no installed JDK has the jfr tool")
    return tools[0].jfr


def _record(jdk, settings, path):
    # C1 only: which events a recording of the JVM's start holds does not hang on the JIT tier, and it
    # halves the CPU of JFR's start-up Java code (0.45 CPU-s a start against 0.8)
    recording = f"-XX:StartFlightRecording=filename={path},settings={settings}"
    argv = [str(jdk.java), "-XX:TieredStopAtLevel=1", recording, "-version"]
    subprocess.run(argv, capture_output=True, timeout=60, check=True)
    return path


@pytest.mark.parametrize("major", [11, 17, 21, 25])
def test_class_loads_are_counted_once_turned_on(major, tmp_path):
    tool = _jfr_tool()
    jdk = next((j for j in installed_jdks() if j.major == major and default_settings(j.home)), None)
    if jdk is None:
        pytest.skip(f"no JDK {major} with JFR settings installed")
    default = default_settings(jdk.home)
    off = event_counts(_record(jdk, default, tmp_path / "off.jfr"), tool)
    on_settings = settings_with(default, ["jdk.ClassLoad", "jdk.NoSuchEvent"], tmp_path / "on.jfc")
    on = event_counts(_record(jdk, on_settings, tmp_path / "on.jfr"), tool)
    assert off.get("jdk.ClassLoad", 0) == 0 and on["jdk.ClassLoad"] > 0


def test_a_file_that_is_not_a_recording_is_an_input_error_naming_it(tmp_path):
    bad = tmp_path / "notes.jfr"
    bad.write_text("not a recording\n")
    with pytest.raises(InputError, match="notes.jfr"):
        event_counts(bad, _jfr_tool())
