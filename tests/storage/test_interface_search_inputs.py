"""The contract of search for any text a user can type: on every backend, no input raises,
and a word written in a record is found by itself and by any prefix of it (generated cases)."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.store import ConversationStore

_SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@_SETTINGS
@given(query=st.text(max_size=40))
def test_any_typed_text_searches_without_raising(backend: ConversationStore, query: str) -> None:
    hits = backend.search(query)
    assert isinstance(hits, list)


@_SETTINGS
@given(
    word=st.from_regex(r"[a-z][a-z0-9]{2,11}", fullmatch=True),
    cut=st.integers(min_value=1, max_value=12),
    noise=st.sampled_from(["", "(", '"', "'", "*", ":", "&", "|", "!"]),
)
def test_a_written_word_is_found_whole_and_by_a_prefix(
    open_store: Callable[[], ConversationStore], word: str, cut: int, noise: str
) -> None:
    store = open_store()
    conversation = store.create_conversation("ide-helper", "search")
    record = store.add_message(conversation.id, "user", f"about {word} today", None)
    for query in (word, word[: max(1, min(cut, len(word)))], f"{noise}{word}{noise}"):
        assert record.id in [hit.message_id for hit in store.search(query)], query


def test_accents_do_not_part_a_word_from_its_search(backend: ConversationStore) -> None:
    conversation = backend.create_conversation("mediator", "accents")
    record = backend.add_message(conversation.id, "user", "L'école est naïve", None)
    for query in ("ecole", "école", "naive", "NAÏVE"):
        assert record.id in [hit.message_id for hit in backend.search(query)], query
