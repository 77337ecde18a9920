"""`jvmlab profile diff`: frames ranked by the change of their share, with a bootstrap CI over the profiles of
each side: a known answer on synthetic profiles, and an A/A pair that shows no significant frame."""

from __future__ import annotations

import numpy as np
import pytest

from jvmlab.cli.main import main
from jvmlab.profile.collapsed import read_collapsed, write_collapsed
from jvmlab.profile.diff import frame_changes
from jvmlab.profile.model import Profile

STACKS = [
    ("Thread.run_[j]", "Server.handle_[j]", "Handshaker.fullHandshake_[j]", "RSA.sign_[j]"),
    ("Thread.run_[j]", "Server.handle_[j]", "Codec.write_[j]"),
    ("Thread.run_[j]", "Server.handle_[j]", "Json.parse_[j]"),
    ("start_thread", "GC::work", "clear_page_erms_[k]"),
]


def sampled(weights: list[float], rng: np.random.Generator, samples: int = 3000) -> Profile:
    counts = rng.multinomial(samples, np.array(weights) / sum(weights))
    return Profile("cpu", {s: int(c) for s, c in zip(STACKS, counts, strict=True) if c})


def test_a_known_change_is_found_and_nothing_else():
    rng = np.random.default_rng(1)
    base = [sampled([10, 40, 40, 10], rng) for _ in range(5)]
    new = [sampled([40, 25, 25, 10], rng) for _ in range(5)]  # the handshake takes 30 points more
    changes = {c.frame: c for c in frame_changes(base, new)}
    sign = changes["RSA.sign"]
    assert sign.significant and sign.change_total == pytest.approx(0.30, abs=0.03)
    assert sign.ci_low is not None and sign.ci_low > 0.2
    assert changes["Handshaker.fullHandshake"].significant
    assert changes["Codec.write"].significant and changes["Codec.write"].change_total < 0
    # GC's share did not move; the root frames are on every stack
    assert not changes["clear_page_erms"].significant and not changes["Thread.run"].significant
    assert frame_changes(base, new)[0].frame in ("RSA.sign", "Handshaker.fullHandshake")


def test_an_a_a_pair_shows_no_significant_frame():
    for seed in range(5):
        rng = np.random.default_rng(100 + seed)
        base = [sampled([10, 40, 40, 10], rng) for _ in range(5)]
        same = [sampled([10, 40, 40, 10], rng) for _ in range(5)]
        assert not [c.frame for c in frame_changes(base, same) if c.significant], seed


def test_one_profile_a_side_has_no_ci():
    rng = np.random.default_rng(3)
    changes = frame_changes([sampled([1, 1, 1, 1], rng)], [sampled([3, 1, 1, 1], rng)])
    assert all(c.ci_low is None and not c.significant for c in changes)


def test_the_cli_writes_a_differential_flame_graph(tmp_path, capsys):
    rng = np.random.default_rng(7)
    for side, weights in (("base", [10, 40, 40, 10]), ("new", [40, 25, 25, 10])):
        for i in range(4):
            (tmp_path / side).mkdir(exist_ok=True)
            write_collapsed(sampled(weights, rng), tmp_path / side / f"t{i}.collapsed")
    assert read_collapsed(tmp_path / "base" / "t0.collapsed").total == 3000
    out = tmp_path / "out"
    args = ["profile", "-o", str(out), "diff", str(tmp_path / "base"), str(tmp_path / "new")]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "RSA.sign" in text and "frames changed significantly" in text
    assert (out / "diff.html").stat().st_size > 1000


def test_diff_mistakes_are_one_line(tmp_path, capsys):
    assert main(["profile", "-o", str(tmp_path / "o"), "diff", str(tmp_path / "missing"), "x"]) == 2
    err = capsys.readouterr().err
    assert "no such file or folder" in err and len(err.strip().splitlines()) == 1
