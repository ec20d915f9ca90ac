"""The pytest plugins the suite switches off (``addopts`` in pyproject.toml) are off.

``-p no:NAME`` takes the plugin's entry-point name, and a wrong name is silently accepted: the
plugin then loads in every pytest process (each xdist worker) and runs its hooks per test.
"""

from __future__ import annotations

import sys
from importlib.metadata import entry_points

import pytest

SWITCHED_OFF = ("anyio", "langsmith_plugin", "platformdirs")


@pytest.mark.parametrize("name", SWITCHED_OFF)
def test_a_plugin_switched_off_is_installed_but_not_loaded(
    name: str, pytestconfig: pytest.Config
) -> None:
    [entry] = [ep for ep in entry_points(group="pytest11") if ep.name == name]
    assert not pytestconfig.pluginmanager.has_plugin(name)
    assert entry.value not in sys.modules
