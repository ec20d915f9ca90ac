"""The queue of messages written during a reply: whatever the order of holds, turn ends,
takes and resumes, in whichever conversations, every held message leaves exactly once, in
order, at most one per ended turn and only by a turn of its own conversation, and none after a
stopped turn there until the user sends there again."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from weaver_tui.core.prompt_queue import PAUSED_SENTENCE, PromptQueue

CONVERSATIONS = ["a", "b", None]
Step = tuple[str, int, str | None]
steps = st.lists(
    st.tuples(
        st.sampled_from(["hold", "complete", "stopped", "take", "resume"]),
        st.integers(0, 5),
        st.sampled_from(CONVERSATIONS),
    ),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(steps)
def test_every_held_message_leaves_once_in_order_in_its_own_conversation(
    plan: list[Step],
) -> None:
    queue = PromptQueue()
    written_in: dict[int, str | None] = {}
    held: list[int] = []
    sent: list[tuple[int, str | None]] = []
    taken: list[int] = []
    paused: set[str | None] = set()
    for action, number, conversation in plan:
        if action == "hold":
            key = queue.hold(f"message {len(held)}", conversation=conversation).key
            held.append(key)
            written_in[key] = conversation
        elif action in ("complete", "stopped"):
            bind(queue, written_in, conversation)
            waiting = [p.key for p in queue.held if written_in[p.key] == conversation]
            prompt = queue.turn_ended(conversation, complete=action == "complete")
            if action == "stopped":
                assert prompt is None
                if waiting:
                    paused.add(conversation)
            elif conversation in paused or not waiting:
                assert prompt is None
            else:
                assert prompt is not None
                assert prompt.key == waiting[0]  # the oldest of this conversation
                sent.append((prompt.key, conversation))
        elif action == "take":
            keys = [p.key for p in queue.held]
            if keys:
                prompt = queue.take(keys[number % len(keys)])
                assert prompt is not None
                taken.append(prompt.key)
            assert queue.take(10_000 + number) is None  # a key never held takes nothing
        else:
            queue.resume(conversation)
            paused.discard(conversation)
        for where in CONVERSATIONS:
            assert queue.paused(where) == (where in paused)
    check_each_left_once(queue, held, sent, taken, written_in)


def bind(queue: PromptQueue, written_in: dict[int, str | None], ending: str | None) -> None:
    """The messages still held with no conversation belong to the one whose turn ends."""
    for prompt in queue.held:
        if written_in[prompt.key] is None:
            written_in[prompt.key] = ending


def check_each_left_once(
    queue: PromptQueue,
    held: list[int],
    sent: list[tuple[int, str | None]],
    taken: list[int],
    written_in: dict[int, str | None],
) -> None:
    left = [p.key for p in queue.held]
    sent_keys = [key for key, _ in sent]
    # exactly once: sent, taken back or still waiting, never two of these
    assert sorted(sent_keys + taken + left) == sorted(held)
    assert len(set(sent_keys + taken + left)) == len(held)
    for key, where in sent:
        assert written_in[key] == where  # only in the conversation it was written in
    for where in CONVERSATIONS:
        mine = [key for key, there in sent if there == where]
        assert mine == sorted(mine)  # in the order held


def test_a_stop_pauses_and_says_so_until_the_user_goes_on() -> None:
    queue = PromptQueue()
    queue.hold("later", conversation="a")
    assert queue.turn_ended("a", complete=False) is None
    assert queue.sentence("a") == PAUSED_SENTENCE
    assert queue.turn_ended("a", complete=True) is None  # another turn ending does not resume it
    queue.resume("b")
    assert queue.turn_ended("a", complete=True) is None  # going on elsewhere does not either
    queue.resume("a")
    prompt = queue.turn_ended("a", complete=True)
    assert prompt is not None
    assert prompt.text == "later"


def test_a_message_written_in_one_conversation_is_not_sent_in_another() -> None:
    queue = PromptQueue()
    queue.hold("for a", conversation="a")
    assert queue.turn_ended("b", complete=True) is None
    assert [p.text for p in queue.held_in("b")] == []
    assert [p.text for p in queue.held_in("a")] == ["for a"]


def test_a_message_held_first_goes_before_the_others() -> None:
    queue = PromptQueue()
    queue.hold("queued", conversation="a")
    queue.hold("steer not read", conversation="a", first=True)
    assert [p.text for p in queue.held] == ["steer not read", "queued"]
