"""The tests that take minutes are collected first, the others in their own order: with
pytest-xdist's work stealing no worker is left alone with a long test at the end."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.conftest import pytest_collection_modifyitems


@dataclass
class Item:
    nodeid: str
    markers: list[str] = field(default_factory=list)

    def add_marker(self, marker: Any) -> None:
        self.markers.append(marker.name)


def test_the_benchmark_smoke_tests_come_first_and_the_rest_keep_their_order() -> None:
    ids = [
        "tests/acp/test_a.py::test_one",
        "tests/benchmarks_smoke/test_compare.py::test_compare",
        "tests/cli/test_verbs.py::test_version",
        "tests/benchmarks_smoke/test_app_benchmarks.py::test_script[keys]",
        "tests/ui_app/test_b.py::test_two",
    ]
    items: list[Any] = [Item(nodeid) for nodeid in ids]

    pytest_collection_modifyitems(items)

    assert [item.nodeid for item in items] == [
        "tests/benchmarks_smoke/test_compare.py::test_compare",
        "tests/benchmarks_smoke/test_app_benchmarks.py::test_script[keys]",
        "tests/acp/test_a.py::test_one",
        "tests/cli/test_verbs.py::test_version",
        "tests/ui_app/test_b.py::test_two",
    ]
    assert [item.markers for item in items] == [["bench"], ["bench"], [], [], []]
