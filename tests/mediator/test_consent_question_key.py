"""A consent answer answers exactly the question it was given to.

The class: a provider's tool call id is not unique (some number every reply's calls from 0),
so the key a consent question is kept under joins the turn, the call and the words; any two
questions that differ in one of them never share an answer, and one question (asked again when
its paused tool runs again on resume) always finds its own. Generated cases: any turns, call
ids and words, colliding or not.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.shared_space.consent import question_key

part = st.sampled_from(["", "c", "call_0", "call_1", "c:1", "a:b"]) | st.text(max_size=10)
question = st.tuples(part, part, part)


@settings(max_examples=200, deadline=None)
@given(question, question)
def test_two_questions_share_a_key_only_when_they_are_the_same_question(
    first: tuple[str, str, str], second: tuple[str, str, str]
) -> None:
    same_key = question_key(*first) == question_key(*second)
    # turn ids are record ids (no ":"), so the turn and call parts read back unambiguously
    if ":" not in first[0] and ":" not in second[0]:
        assert same_key == (first == second)
    assert question_key(*first) == question_key(*first)
