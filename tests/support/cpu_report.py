"""``--cpu-report FILE``: the CPU each test costs, one JSON line per test appended to FILE.

The suite runs on few cores, so its CPU (not its wall time) sets how fast it can go. Each line
holds the test's id and the user + system seconds of its setup, call and teardown: ``self``
for the pytest process, ``children`` for the processes it spawned and waited for (Python
children, servers). With pytest-xdist every worker appends to the same file. Rank them with::

    python -m tests.support.cpu_report FILE [HOW_MANY]
"""

from __future__ import annotations

import json
import resource
import sys
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
        yield
        own_after, children_after = cpu_seconds()
        line = {"id": item.nodeid, "self": own_after - own, "children": children_after - children}
        with self.path.open("a", encoding="utf-8") as report:
            report.write(json.dumps(line) + "\n")


def add_option(parser: pytest.Parser) -> None:
    parser.addoption(OPTION, metavar="FILE", help="append each test's CPU seconds to FILE")


def register(config: pytest.Config) -> None:
    """Measure every test when ``--cpu-report`` names a file."""
    path = config.getoption(OPTION)
    if path:
        config.pluginmanager.register(CpuReport(Path(path).resolve()), "cpu-report")


def ranking(lines: list[str], how_many: int) -> list[str]:
    """The costliest tests and the folders of tests, most CPU first."""
    costs = {}
    for line in lines:
        entry = json.loads(line)
        costs[entry["id"]] = entry["self"] + entry["children"]
    folders: Counter[str] = Counter()
    for test, cost in costs.items():
        folders[test.split("::")[0].rsplit("/", 1)[0]] += cost
    out = [f"{sum(costs.values()):.1f} s CPU in {len(costs)} tests"]
    out += [f"{cost:8.2f} s  {folder}/" for folder, cost in folders.most_common()]
    top = sorted(costs.items(), key=lambda pair: -pair[1])[:how_many]
    out += [f"{cost:8.2f} s  {test}" for test, cost in top]
    return out


if __name__ == "__main__":
    text = Path(sys.argv[1]).read_text(encoding="utf-8").splitlines()
    print("\n".join(ranking(text, int(sys.argv[2]) if len(sys.argv) > 2 else 40)))
