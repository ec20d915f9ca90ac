"""The offline ide-helper proposes a change only when the user's own words ask for the one it
makes (a rename): never from an attached file's text, never from quoted words that ask for
nothing. Checked on generated messages and attachments, and through a real ``ask --attach``."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import HumanMessage

from agents.attachments import content_parts
from agents.offline.turn import OfflineTurn
from agents.profiles.ide_helper.offline import read_ask

words = st.text(
    alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\x00"),
    max_size=80,
)


@settings(max_examples=200, deadline=None)
@given(before=words, literals=st.lists(words, min_size=2, max_size=4), after=words)
def test_quoted_words_that_do_not_ask_for_a_rename_propose_none(
    before: str, literals: list[str], after: str
) -> None:
    text = " ".join([before, *(f"`{q}`" for q in literals), after])
    if "rename" in text.lower():
        return
    assert read_ask(text, None).rename is None


@settings(max_examples=100, deadline=None)
@given(asked=words, attached=words)
def test_the_demo_reads_the_users_words_never_an_attachments_text(
    asked: str, attached: str
) -> None:
    attachment = {"name": "app.py", "kind": "text", "text": attached, "size": len(attached)}
    message = HumanMessage(content=content_parts(asked, [attachment]))  # type: ignore[arg-type]
    turn = OfflineTurn(node="agent", state={}, messages=[message])
    assert turn.user_text == asked.strip()
