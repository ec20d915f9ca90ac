"""paper-pilot's memory on either backend the storage settings choose (``open_memory``): the
data folder's file, or the ``facts`` table of a real PostgreSQL server named by
``WEAVER_STORAGE__URL``; the same rules hold on both."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agents.profiles.paper_pilot.memory import Memory, memory_path, open_memory
from agents.profiles.paper_pilot.pg_memory import PgMemory
from storage.backend import STORAGE_URL_VARIABLE


@pytest.fixture(params=["sqlite", "postgresql"])
def memory_dir(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """The data folder; for PostgreSQL, ``WEAVER_STORAGE__URL`` names an empty schema."""
    monkeypatch.delenv(STORAGE_URL_VARIABLE, raising=False)
    if request.param == "postgresql":
        monkeypatch.setenv(STORAGE_URL_VARIABLE, request.getfixturevalue("postgres_url"))
    return tmp_path / "data"


def test_facts_are_kept_recalled_and_forgotten_by_the_same_rules(memory_dir: Path) -> None:
    with open_memory(memory_dir) as memory:
        kept = memory.save("LoRA trains low-rank adapter matrices.", "c1", "m1")
        assert kept is not None
        assert memory.save("LoRA trains  low-rank adapter matrices.", "c2", "m2") is None
        other = memory.save("Reciprocal rank fusion merges rankings.", "c1", "m3")
        assert other is not None
        assert [f.text for f in memory.recall("which matrices does LoRA train?")] == [kept.text]
        assert memory.recall("fusion cooking") == []  # one shared word is chance
        assert [f.id for f in memory.all()] == [kept.id, other.id]
        assert memory.forget(kept.id)
        assert not memory.forget(kept.id)
    with open_memory(memory_dir) as again:
        assert [f.text for f in again.all()] == [other.text]


def test_past_the_limit_the_oldest_facts_are_forgotten(memory_dir: Path) -> None:
    url = os.environ.get(STORAGE_URL_VARIABLE)
    small = (
        Memory(facts=PgMemory(url, 2), max_facts=2)
        if url
        else Memory(memory_path(memory_dir), max_facts=2)
    )
    with small:
        for n, topic in enumerate(["alpha beta", "gamma delta", "epsilon zeta"]):
            small.save(f"Fact about {topic} number {n}.", "c", f"m{n}")
        assert [f.message_id for f in small.all()] == ["m1", "m2"]
