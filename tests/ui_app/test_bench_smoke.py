"""The app benchmarks' data builders make what they claim (their figures are not checked here)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from storage.sqlite_store import SqliteConversationStore

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec
    assert spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_big_conversation_has_the_path_and_tree_it_claims(tmp_path: Path) -> None:
    bench = _load("bench_ui_open_conversation")
    bench.seed_big(tmp_path, path_length=40, total=200)
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        (conversation,) = store.list_conversations()
        assert len(store.list_messages(conversation.id)) == 200
        leaf = store.active_leaf(conversation.id)
        assert leaf is not None
        assert len(store.path_to_root(leaf.id)) == 40
        assert store.latest_leaf(store.path_to_root(leaf.id)[0].id).id == leaf.id


def test_launch_benchmark_seeds_a_conversation_to_reopen(tmp_path: Path) -> None:
    bench = _load("bench_ui_launch")
    bench.seed(tmp_path)
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        (conversation,) = store.list_conversations()
        leaf = store.active_leaf(conversation.id)
        assert leaf is not None
        assert len(store.path_to_root(leaf.id)) == 40
