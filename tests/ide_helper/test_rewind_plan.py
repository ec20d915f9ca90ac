"""A checkout brings the files to the point checked out, on generated trees of accepted
patches (any statuses, any moves): afterwards every patch of the new path up to that point is
applied and every other patch of either path is not; a patch is only reverted when applied and
only re-applied when reverted; nothing is planned twice."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.patch_review.file_edit import text_edit
from agents.patch_review.rewind import APPLIED, REVERTED, accepted_on, patches_to_rewind
from storage.sqlite_store import SqliteConversationStore

# Each step adds a record below an earlier one (by index): a user message, a reply, or a
# patch record with a status.
steps = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=40),
        st.sampled_from(["user", "assistant", APPLIED, REVERTED]),
    ),
    min_size=1,
    max_size=14,
)


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(shape=steps, picks=st.tuples(*(st.integers(min_value=0, max_value=99) for _ in range(3))))
def test_a_checkout_brings_the_files_to_the_point_checked_out(
    tmp_path_factory: object, shape: list[tuple[int, str]], picks: tuple[int, int, int]
) -> None:
    folder = Path(str(tmp_path_factory.mktemp("plan")))  # type: ignore[attr-defined]
    with SqliteConversationStore(folder / "weaver.db") as store:
        cid = store.create_conversation("ide-helper").id
        records = [store.add_message(cid, "user", "start", None)]
        edit = text_edit("a", "b")
        for number, (below, kind) in enumerate(shape):
            parent = records[below % len(records)].id
            if kind in ("user", "assistant"):
                records.append(store.add_message(cid, kind, kind, parent))  # type: ignore[arg-type]
                continue
            pid = f"p-{number}"
            meta = {"patch_id": pid, "patch_path": "f", "patch_status": kind, "patch_edit": edit}
            record = store.add_message(cid, "tool", pid, parent, meta=meta)
            store.accept_patch(record.id, pid, "f", edit["base_sha256"], edit["new_sha256"])
            records.append(record)
        children = {r.parent_id for r in records}
        leaves = [r for r in records if r.id not in children]
        old_leaf, new_leaf = leaves[picks[0] % len(leaves)], leaves[picks[1] % len(leaves)]
        old_path, new_path = store.path_to_root(old_leaf.id), store.path_to_root(new_leaf.id)
        target = new_path[picks[2] % len(new_path)]
        accepted = accepted_on(store, old_path, new_path)
        revert, redo = patches_to_rewind(old_path, new_path, target.id, accepted)

    assert all(p.status == APPLIED for p in revert)
    assert all(p.status == REVERTED for p in redo)
    planned = [p.record_id for p in [*revert, *redo]]
    assert len(planned) == len(set(planned))
    status = {r.id: r.meta["patch_status"] for r in [*old_path, *new_path] if r.role == "tool"}
    status |= {p.record_id: REVERTED for p in revert} | {p.record_id: APPLIED for p in redo}
    old_ids = {r.id for r in old_path}
    point = target if target.id in old_ids else new_path[-1]
    wanted = {r.id for r in new_path[: [r.id for r in new_path].index(point.id) + 1]}
    for record_id, now in status.items():
        assert (now == APPLIED) == (record_id in wanted), (record_id, now)
