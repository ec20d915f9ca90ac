"""The queue of messages written during a reply: whatever the order of holds, turn ends, takes
and drops, every held message leaves exactly once, in order, at most one per ended turn, and
none after a stopped turn until the user goes on."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from weaver_tui.core.prompt_queue import PAUSED_SENTENCE, PromptQueue

Step = tuple[str, int]
steps = st.lists(
    st.tuples(
        st.sampled_from(["hold", "complete", "stopped", "take", "resume"]), st.integers(0, 5)
    ),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(steps)
def test_every_held_message_leaves_once_in_order(plan: list[Step]) -> None:
    queue = PromptQueue()
    held: list[int] = []
    sent: list[int] = []
    taken: list[int] = []
    paused = False
    for action, number in plan:
        if action == "hold":
            held.append(queue.hold(f"message {len(held)}").key)
        elif action in ("complete", "stopped"):
            waiting = len(queue)
            prompt = queue.turn_ended(complete=action == "complete")
            if action == "stopped":
                assert prompt is None
                paused = waiting > 0
            elif paused or waiting == 0:
                assert prompt is None
            else:
                assert prompt is not None
                sent.append(prompt.key)
        elif action == "take":
            keys = [p.key for p in queue.held]
            if keys:
                prompt = queue.take(keys[number % len(keys)])
                assert prompt is not None
                taken.append(prompt.key)
            assert queue.take(10_000 + number) is None  # a key never held takes nothing
        else:
            queue.resume()
            paused = False
        assert queue.paused == paused
    left = [p.key for p in queue.held]
    # exactly once: sent, taken back or still waiting, never two of these
    assert sorted(sent + taken + left) == sorted(held)
    assert len(set(sent + taken + left)) == len(held)
    assert sent == sorted(sent)  # in the order held
    assert left == sorted(left)


def test_a_stop_pauses_and_says_so_until_the_user_goes_on() -> None:
    queue = PromptQueue()
    queue.hold("later")
    assert queue.turn_ended(complete=False) is None
    assert queue.sentence == PAUSED_SENTENCE
    assert queue.turn_ended(complete=True) is None  # another turn ending does not resume it
    queue.resume()
    prompt = queue.turn_ended(complete=True)
    assert prompt is not None
    assert prompt.text == "later"


def test_a_message_held_first_goes_before_the_others() -> None:
    queue = PromptQueue()
    queue.hold("queued")
    queue.hold("steer not read", first=True)
    assert [p.text for p in queue.held] == ["steer not read", "queued"]
