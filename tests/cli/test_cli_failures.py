"""Every failure a user can cause is one line naming the thing and the problem, exit 2; anything unexpected is
one line and exit 3, never 1 (the code `jvmlab gate` gives a regression); every entry point says it the same
way."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from jvmlab import _native
from jvmlab.entry import EXIT_INTERNAL_ERROR, EXIT_USER_ERROR, guarded
from jvmlab.errors import JvmLabError
from jvmlab.experiment.storage import Store
from jvmlab.load.driver import LoadPlan, drive

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "experiment"))
from synthetic import Variant, store_experiment  # noqa: E402


def one_line(run, *names: object, code: int = EXIT_USER_ERROR) -> str:
    assert run.code == code, (run.code, run.err)
    lines = run.err.splitlines()
    assert len(lines) == 1, run.err
    assert lines[0].startswith("error: ") and "Traceback" not in run.err, run.err
    for name in names:
        assert str(name) in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "jvmlab.db"
    store = Store.open(str(path))
    store_experiment(store, [Variant("jdk25", "default"), Variant("jdk25", "tuned")], name="exp", seed=1)
    store.close()
    return path


@pytest.mark.parametrize(
    "args",
    [
        ["gate", "exp", "--junit", "{dir}"],
        ["gate", "exp", "--markdown", "{dir}"],
        ["compare", "exp", "--format", "json", "-o", "{dir}"],
        ["report", "exp", "--format", "csv", "-o", "{dir}"],
        ["report", "exp", "-o", "{dir}"],
        ["compare", "exp", "--format", "csv", "-o", "{dir}/missing/out.csv"],
    ],
    ids=["gate-junit", "gate-markdown", "compare", "report-csv", "report-html", "missing-folder"],
)
def test_an_output_that_is_a_folder_or_has_none(cli, db, tmp_path, args):
    out = tmp_path / "out"
    out.mkdir()
    argv = [a.replace("{dir}", str(out)) for a in args] + ["--db", str(db)]
    line = one_line(cli(*argv), out)
    assert "folder" in line


def test_a_database_that_is_no_store(cli, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes, not a database\n" * 100)
    line = one_line(cli("results", "--db", str(notes)), notes)
    assert "not a database" in line


def test_a_store_written_by_another_version(cli, db):
    with sqlite3.connect(db) as conn:
        (spec,) = conn.execute("select spec from experiments").fetchone()
        changed = json.loads(spec) | {"matrix": {"jdks": 17}}  # what no version of the model reads
        conn.execute("update experiments set spec = ?", (json.dumps(changed),))
    line = one_line(cli("compare", "exp", "--db", str(db)), "exp")
    assert "another version" in line


@pytest.mark.jvm  # the plan asks every JDK of the machine about the flags first
def test_a_runs_folder_that_cannot_be_made(cli, tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(
        'name = "x"\n[workload]\ncommand = ["{java}", "-version"]\n[matrix]\njdks = ["all"]\n'
        "[matrix.flags]\ndefault = []\n"
    )
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    runs = blocker / "runs"  # a folder under a file: even root cannot make it
    line = one_line(cli("run", str(spec), "--db", str(tmp_path / "db.sqlite"), "--runs", str(runs)), blocker)
    assert "cannot make the trials' folder" in line


def test_the_load_drivers_os_errors_are_user_errors(monkeypatch):
    def fail(*_: object) -> None:
        raise OSError("cannot start the load driver: Resource temporarily unavailable")

    monkeypatch.setattr(_native, "run_load", fail)
    with pytest.raises(JvmLabError, match="load on http://127.0.0.1:1/: cannot start"):
        drive(LoadPlan("http://127.0.0.1:1/", rate=1, duration_s=1))


def test_an_unexpected_error_is_one_line_and_exit_3(cli, monkeypatch):
    import jvmlab.cli.load_run as load_run

    def crash(_: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(load_run, "run", crash)
    line = one_line(cli("load", "http://127.0.0.1:1/", "--rate", "1"), code=EXIT_INTERNAL_ERROR)
    assert "internal error (ZeroDivisionError: a bug)" in line and "JVMLAB_DEBUG=1" in line


def test_jvmlab_debug_shows_the_traceback(monkeypatch, capsys):
    monkeypatch.setenv("JVMLAB_DEBUG", "1")

    def crash() -> int:
        raise KeyError("missing")

    assert guarded(crash) == EXIT_INTERNAL_ERROR
    err = capsys.readouterr().err
    assert "Traceback" in err and err.rstrip().splitlines()[-1].startswith("error: internal error")


def test_an_os_error_that_names_its_file_is_the_users(capsys):
    def unreadable() -> int:
        raise PermissionError(13, "Permission denied", "/etc/secret.log")

    assert guarded(unreadable) == EXIT_USER_ERROR
    assert capsys.readouterr().err == "error: /etc/secret.log: permission denied\n"


@pytest.mark.parametrize(
    "argv",
    [
        [sys.executable, "-m", "jvmlab.jdk.runtimes", "--majors", "eleven"],
        [sys.executable, "-m", "jvmlab", "load", "http://127.0.0.1:1/"],
    ],
    ids=["runtimes", "cli"],
)
def test_every_entry_point_prints_errors_alike(argv):
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == EXIT_USER_ERROR
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
