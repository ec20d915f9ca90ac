"""The steer inbox alone: for any interleaving of puts, takes (a model call reading it) and
the turn's end, every accepted steer is read by exactly one take or handed back exactly once
at the end, in the order put; a put after the end is refused."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.graph.steering import Steer, SteerInbox

steps = st.lists(st.sampled_from(["put", "take", "close"]), max_size=30)


@settings(max_examples=200, deadline=None)
@given(steps)
def test_every_steer_is_read_once_or_handed_back_once(plan: list[str]) -> None:
    inbox = SteerInbox()
    accepted: list[Steer] = []
    read: list[Steer] = []
    handed_back: list[Steer] = []
    closed = False
    for number, action in enumerate(plan):
        if action == "put":
            steer = inbox.put(f"steer {number}")
            assert (steer is None) == closed
            if steer is not None:
                accepted.append(steer)
        elif action == "take":
            read.extend(inbox.take())
        else:
            handed_back.extend(inbox.close())
            closed = True
    handed_back.extend(inbox.close())  # the turn always ends
    ids = [id(s) for s in read + handed_back]
    assert sorted(ids) == sorted(id(s) for s in accepted)  # each exactly once
    assert all(s.state == "joined" for s in read)
    assert all(s.state == "returned" for s in handed_back)
    assert read == [s for s in accepted if s.state == "joined"]  # in the order put
