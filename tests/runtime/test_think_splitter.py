"""``ThinkSplitter``: inline ``<think>`` reasoning apart from the answer, however it is chunked."""

from __future__ import annotations

import itertools

import pytest

from agents.providers.thinking import ThinkSplitter, split_thinking

REPLY = "<think>Let me think: 2 < 3.</think>\n\nThe answer is 42."


def stream(pieces: list[str]) -> tuple[str, str]:
    splitter = ThinkSplitter()
    reasoning, answer = [], []
    for piece in pieces:
        r, a = splitter.feed(piece)
        reasoning.append(r)
        answer.append(a)
    r, a = splitter.finish()
    return "".join(reasoning) + r, "".join(answer) + a


@pytest.mark.parametrize("cut", range(len(REPLY) + 1))
def test_a_reply_cut_in_two_anywhere_splits_the_same(cut: int) -> None:
    assert stream([REPLY[:cut], REPLY[cut:]]) == ("Let me think: 2 < 3.", "The answer is 42.")


def test_a_reply_cut_at_every_pair_of_positions_splits_the_same() -> None:
    text = " <think>a</think> b"
    for i, j in itertools.combinations(range(len(text) + 1), 2):
        assert stream([text[:i], text[i:j], text[j:]]) == ("a", "b"), (i, j)


def test_one_character_at_a_time() -> None:
    assert stream(list(REPLY)) == ("Let me think: 2 < 3.", "The answer is 42.")


def test_reasoning_is_handed_out_as_it_streams() -> None:
    splitter = ThinkSplitter()
    assert splitter.feed("<think>Step one, ") == ("Step one, ", "")
    assert splitter.thinking
    assert splitter.feed("step two</thi") == ("step two", "")
    assert splitter.feed("nk>Done") == ("", "Done")
    assert splitter.feed(" now.") == ("", " now.")
    assert not splitter.thinking


def test_a_reply_without_a_block_passes_through() -> None:
    splitter = ThinkSplitter()
    assert splitter.feed("Hello") == ("", "Hello")
    assert splitter.feed(" <think>x</think>") == ("", " <think>x</think>")
    assert splitter.finish() == ("", "")


def test_a_block_after_the_start_is_answer_text() -> None:
    assert split_thinking("Use <think>x</think> tags.") == ("", "Use <think>x</think> tags.")


def test_leading_whitespace_before_the_block_is_allowed() -> None:
    assert split_thinking("\n  <think>r</think>a") == ("r", "a")


def test_an_unclosed_block_stays_reasoning() -> None:
    assert stream(["<think>still thinking", " when it stopped</th"]) == (
        "still thinking when it stopped</th",
        "",
    )


def test_a_partial_opening_tag_at_the_end_is_answer() -> None:
    assert stream(["<thi"]) == ("", "<thi")
    assert stream(["  "]) == ("", "  ")


def test_whitespace_after_the_block_arriving_apart_is_dropped() -> None:
    assert stream(["<think>r</think>", "\n", "\n", "Answer"]) == ("r", "Answer")
    assert split_thinking("<think>r</think>") == ("r", "")
