"""The contract of the viewer filter, part two: a record a participant may read reaches them
with its words and only the meta keys of :data:`storage.audience.READER_META`.

Whatever else the agent's side stored on a readable record (the summary of older turns, which
covers everyone's messages; the model's reasoning beside a reply to one person; any key added
later), no viewer's read returns it: not a path, the tree's rows (which the tree index is
built from), nor an export for that viewer. The facilitator (no viewer) reads every key. Generated cases put
arbitrary keys with secret values on a shared record and on one private to the viewer; runs
once per backend in ``STORE_FACTORIES``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.audience import READER_META
from storage.store import ConversationStore

SECRET = "casino-savings-secret"
keys = st.one_of(
    st.sampled_from(sorted(READER_META)),
    st.sampled_from(["summary", "reasoning", "reasoning_details", "thread_id", "steered"]),
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), min_size=1, max_size=12),
)
metas = st.lists(keys.filter(lambda k: k != "status"), min_size=1, max_size=6).map(
    # a listed key holds nothing to find; every other key holds the secret
    lambda names: {k: None if k in READER_META else SECRET for k in names}
)


def _reads(store: ConversationStore, conversation_id: str, leaf: str, tmp: Path) -> list[str]:
    """Every text the viewer Alex's reads hold, meta included."""
    texts = [json.dumps(r.meta) for r in store.path_to_root(leaf, "Alex")]
    texts += [row.meta for row in store.message_rows(conversation_id, "Alex")]
    texts.append(store.export_markdown(conversation_id, leaf, "Alex"))
    folder = store.export_jsonl(conversation_id, tmp, "Alex")
    texts.append((folder / "messages.jsonl").read_text(encoding="utf-8"))
    return texts


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(shared_meta=metas, private_meta=metas)
def test_a_viewer_reads_only_the_listed_meta_keys_of_a_record(
    backend: ConversationStore,
    tmp_path_factory: Any,
    shared_meta: dict[str, str | None],
    private_meta: dict[str, str | None],
) -> None:
    space = backend.create_conversation("mediator", "t", meta={"participants": ["Alex", "Sam"]})
    shared = {**shared_meta, "visibility": "shared"}
    to_alex = {**private_meta, "visibility": "Alex"}
    first = backend.add_message(space.id, "assistant", "For everyone.", None, shared)
    leaf = backend.add_message(space.id, "assistant", "For Alex.", first.id, to_alex)

    unlisted = {k for k in [*shared_meta, *private_meta] if k not in READER_META}
    for record in backend.path_to_root(leaf.id, "Alex"):
        assert set(record.meta) <= READER_META | {"status"}
    if unlisted:
        texts = _reads(backend, space.id, leaf.id, tmp_path_factory.mktemp("export"))
        assert all(SECRET not in text for text in texts)
    facilitator = backend.path_to_root(leaf.id)
    assert {k: facilitator[0].meta[k] for k in shared_meta} == {k: shared[k] for k in shared_meta}
