"""A trial's profiles: one async-profiler session attached to the trial's JVM once it is ready (jcmd
JVMTI.agent_load), for one event (written as collapsed stacks) or several (written as one JFR recording,
converted per event by jfr-converter), stopped before jvmlab stops the JVM; a JVM that ends by itself writes
them as it exits.

Where async-profiler cannot load (another OS or architecture, no library, $JVMLAB_ASYNC_PROFILER naming a
missing file, a JVM that refuses it) the trial records JFR's own samples instead (jcmd JFR.start;
jvmlab.profile.jfr). Either way the trial gets a one-line note of what was recorded, or of why nothing
was; profiling never fails a trial.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from jvmlab.errors import JvmLabError, write_file
from jvmlab.experiment.spec import ProfileSpec
from jvmlab.experiment.storage.artifacts import PROFILE, PROFILE_RECORDING, profile_kind
from jvmlab.profile.agent import Sampling
from jvmlab.profile.jfr import FALLBACK_NOTE

PROFILE_FILE = "profile.collapsed"
RECORDING_FILE = "profile.jfr"
SETTINGS_FILE = "profile.jfc"
ASYNC, JFR = "async-profiler", "jfr"


def collapsed_name(event: str, first: bool) -> str:
    return PROFILE_FILE if first else f"profile-{event}.collapsed"


@dataclass
class Profiling:
    pid: int
    run_dir: Path
    samplings: list[Sampling]
    java: Path
    mode: str | None = None  # ASYNC, JFR, or None: nothing is being recorded
    note: str = ""
    started: bool = False

    @property
    def recording(self) -> Path:
        return self.run_dir / RECORDING_FILE

    @property
    def single(self) -> bool:
        """One async-profiler event: its collapsed file is written directly."""
        return self.mode == ASYNC and len(self.samplings) == 1

    def stop(self) -> None:
        """Stops the recording (it is written); nothing when it never started or the JVM is gone."""
        if not self.started:
            return
        from jvmlab.profile.agent import stop_string
        from jvmlab.profile.jfr import jfr_stop
        from jvmlab.profile.record import agent_command

        try:
            if self.single:
                agent_command(self.pid, stop_string(self.samplings[0], self.run_dir / PROFILE_FILE))
            elif self.mode == ASYNC:
                agent_command(self.pid, f"stop,file={self.recording},jfr")
            else:
                jfr_stop(self.pid, self.recording)
        except JvmLabError as e:
            self.note += f"; stopping it failed ({e}): the JVM writes the profile when it exits"
        self.started = False

    def collect(self) -> dict[str, str]:
        """After the JVM's end: each event's collapsed file (converted from the recording when there is
        one), by artifact kind; the note says what is missing."""
        if self.mode is None:
            return {}
        if self.single:
            path = self.run_dir / PROFILE_FILE
            if path.is_file():
                return {PROFILE: str(path)}
            self.note = f"no profile: the JVM wrote none ({self.note})"
            return {}
        if not self.recording.is_file() or not self.recording.stat().st_size:
            self.note = f"no profile: the JVM wrote no recording ({self.note})"
            return {}
        found = {PROFILE_RECORDING: str(self.recording)}
        failed = []
        for i, s in enumerate(self.samplings):
            try:
                found[profile_kind(s.asked, i == 0)] = str(self._convert(s, collapsed_name(s.asked, i == 0)))
            except JvmLabError as e:
                failed.append(f"{s.asked}: {e}")
        if failed:
            self.note += "; " + "; ".join(failed)
        return found

    def _convert(self, s: Sampling, name: str) -> Path:
        from jvmlab.profile.collapsed import write_collapsed
        from jvmlab.profile.jfr import convert, load_converted

        out = self.run_dir / name
        convert(self.recording, s, out, java=self.java, standard=self.mode == JFR)
        if self.mode == JFR and s.asked == "cpu" and any(o.asked == "wall" for o in self.samplings):
            # the recording holds wall's native-method samples too: cpu keeps the samples of Java code
            write_collapsed(load_converted(out, s, "", java_leaves_only=True), out)
        return out


def start_profiling(
    specs: Sequence[ProfileSpec], pid: int, run_dir: Path, java: Path, major: int
) -> Profiling:
    """Starts the trial's profile: async-profiler, else JFR's samples, else a note of why there is none."""
    from jvmlab.profile.agent import ConverterMissingError, sampling

    profiling = Profiling(pid, run_dir, [sampling(p.event, p.interval) for p in specs], java)
    try:
        _start_async(profiling)
    except ConverterMissingError as e:  # several events: neither async-profiler's nor JFR's can be read
        profiling.note = f"no profile: {e}"
    except JvmLabError as e:
        _start_jfr(profiling, major, f"async-profiler could not load: {e}")
    return profiling


def _start_async(p: Profiling) -> None:
    from jvmlab.profile.agent import converter, library, option_string, session_options
    from jvmlab.profile.record import agent_command

    library()
    if len(p.samplings) == 1:
        options = option_string(p.samplings[0], p.run_dir / PROFILE_FILE)
    else:
        converter()  # several events are converted from the recording: no converter, no profiles
        options = session_options(p.samplings, p.recording)
    agent_command(p.pid, options)
    p.mode, p.started = ASYNC, True
    p.note = "async-profiler " + ", ".join(s.label for s in p.samplings)


def _start_jfr(p: Profiling, major: int, why: str) -> None:
    from jvmlab.profile.agent import converter
    from jvmlab.profile.jfr import fallback_settings, jfr_start

    settings = p.run_dir / SETTINGS_FILE
    try:
        converter()
        write_file(settings, fallback_settings(p.samplings, major), what="JFR settings")
        jfr_start(p.pid, settings, p.recording)
    except JvmLabError as e:
        p.note = f"no profile: {why}; JFR could not start either: {e}"
        return
    p.mode, p.started = JFR, True
    p.note = FALLBACK_NOTE + why
