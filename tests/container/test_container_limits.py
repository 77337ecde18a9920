"""Container limits as users write them (Docker and Kubernetes sizes), and one-line errors for the rest."""

from __future__ import annotations

import pytest

from jvmlab.container.limits import Limits, cpu_list, memory_text, parse_memory
from jvmlab.errors import UsageError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("512m", 512 * 2**20),
        ("512M", 512 * 2**20),
        ("2g", 2 * 2**30),
        ("1.5Gi", 3 * 2**29),
        ("1536MiB", 1536 * 2**20),
        ("1073741824", 2**30),
        (2**30, 2**30),
    ],
)
def test_sizes_read_as_docker_reads_them(text, expected):
    assert parse_memory(text) == expected


@pytest.mark.parametrize(
    ("text", "said"), [("lots", "not a size"), ("16m", "no JVM starts"), ("-1g", "not a size")]
)
def test_sizes_that_cannot_be_used_say_why(text, said):
    with pytest.raises(UsageError, match=said):
        parse_memory(text)


def test_limits_are_shown_and_kept_as_given():
    small = Limits.of(cpus=0.5, memory="512m")
    assert small.text() == "0.5 CPU, 512 MiB" and small.quota_us == 50_000 and not small.unlimited
    medium = Limits.of(cpus=2, memory="2g", cpuset=[1, 0])
    assert medium.text() == "2 CPUs, CPUs 0-1, 2 GiB" and medium.cpuset == (0, 1)
    assert Limits.of(memory="1g", swap="512m").text() == "1 GiB + 512 MiB swap"
    assert Limits().unlimited and Limits().text() == "no limits"
    assert Limits.of(cpus=0.5, memory="512m").to_json() == {
        "cpus": 0.5,
        "memory_bytes": 512 * 2**20,
        "cpuset": None,
        "swap_bytes": 0,
    }


def test_limits_outside_what_a_kernel_takes_are_refused():
    with pytest.raises(UsageError, match="cpus 0.001"):
        Limits.of(cpus=0.001)
    with pytest.raises(UsageError, match="cpuset"):
        Limits.of(cpuset=[])


def test_cpu_lists_and_sizes_in_the_kernels_and_a_readers_form():
    assert cpu_list([0, 1, 2, 3, 6]) == "0-3,6" and cpu_list([5]) == "5"
    assert memory_text(512 * 2**20) == "512 MiB" and memory_text(3 * 2**29) == "1.5 GiB"
