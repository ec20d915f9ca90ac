"""``--cpu-report FILE``: the CPU each test costs, one JSON line per test appended to FILE.

The suite runs on few cores, so its CPU (not its wall time) sets how fast it can go. Each line
holds the test's id and the user + system seconds of its setup, call and teardown: ``self``
for the pytest process, ``children`` for the processes it spawned and waited for (Python
children, servers), and ``wall``, the seconds it took. With pytest-xdist every worker appends
to the same file. Rank them with::

    python -m tests.support.cpu_report FILE [HOW_MANY] [--waits]

``--waits`` ranks by wall time not spent on CPU instead: the tests that sleep, poll or wait
on a timer, which leave a core idle unless another worker fills it.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

OPTION = "--cpu-report"


def cpu_seconds() -> tuple[float, float]:
    """User + system CPU seconds of this process and of its waited-for children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


class CpuReport:
    """The plugin: measures each test's run protocol and appends its line to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        own, children = cpu_seconds()
        start = time.monotonic()
        yield
        wall = time.monotonic() - start
        own_after, children_after = cpu_seconds()
        line = {
            "id": item.nodeid,
            "self": own_after - own,
            "children": children_after - children,
            "wall": wall,
        }
        with self.path.open("a", encoding="utf-8") as report:
            report.write(json.dumps(line) + "\n")


def add_option(parser: pytest.Parser) -> None:
    parser.addoption(OPTION, metavar="FILE", help="append each test's CPU seconds to FILE")


def register(config: pytest.Config) -> None:
    """Measure every test when ``--cpu-report`` names a file."""
    path = config.getoption(OPTION)
    if path:
        config.pluginmanager.register(CpuReport(Path(path).resolve()), "cpu-report")


def ranking(lines: list[str], how_many: int, *, waits: bool = False) -> list[str]:
    """The costliest tests and the folders of tests, most CPU (or most waiting) first."""
    costs = {}
    for line in lines:
        entry = json.loads(line)
        cpu = entry["self"] + entry["children"]
        costs[entry["id"]] = max(0.0, entry.get("wall", cpu) - cpu) if waits else cpu
    folders: Counter[str] = Counter()
    for test, cost in costs.items():
        folders[test.split("::")[0].rsplit("/", 1)[0]] += cost
    what = "waiting" if waits else "CPU"
    out = [f"{sum(costs.values()):.1f} s {what} in {len(costs)} tests"]
    out += [f"{cost:8.2f} s  {folder}/" for folder, cost in folders.most_common()]
    top = sorted(costs.items(), key=lambda pair: -pair[1])[:how_many]
    out += [f"{cost:8.2f} s  {test}" for test, cost in top]
    return out


if __name__ == "__main__":
    args = [arg for arg in sys.argv[1:] if arg != "--waits"]
    text = Path(args[0]).read_text(encoding="utf-8").splitlines()
    how_many = int(args[1]) if len(args) > 1 else 40
    print("\n".join(ranking(text, how_many, waits="--waits" in sys.argv)))
