"""The citation audit decides "supported" by a check it runs itself: generated answers over
generated sources never pass on a citation that shares nothing with its sentence, on no
citation at all, on a number or a name the source does not hold, or with a thing the question
named left uncited; a sentence quoted from the source it cites always passes."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profiles.paper_pilot.answer_check import audit_of
from agents.profiles.paper_pilot.citation_audit import (
    audit_answer,
    marked_answer,
    normalize_citations,
    split_sentences,
    stems,
)

LORA = {"doc_id": "ml/lora", "title": "LoRA: low-rank adaptation", "section": "Efficiency",
        "text": "With a rank of 8 or 16, LoRA trains well under one percent of the parameters "
                "of the model. The optimizer state shrinks with them."}  # fmt: skip
DPO = {"doc_id": "ml/dpo", "title": "DPO: direct preference optimization", "section": "Idea",
       "text": "DPO aligns a language model with human preferences without training a "
               "separate reward model."}  # fmt: skip

# Words from two disjoint vocabularies: a sentence of one never shares a key term with a
# source of the other (their first five letters differ too).
SOURCE_WORDS = ["granite", "harbour", "lantern", "meadow", "orchard", "pebble", "quiver",
                "saddle", "thimble", "velvet", "walnut", "zephyr"]  # fmt: skip
CLAIM_WORDS = ["bicycle", "cactus", "dolphin", "engine", "falcon", "glacier", "igloo",
               "jungle", "kettle", "nectar", "oyster", "rocket"]  # fmt: skip


def chunk(words: list[str]) -> dict[str, Any]:
    return {"doc_id": "notes/x", "title": "", "section": "", "text": " ".join(words) + "."}


words_of = st.lists(st.sampled_from(SOURCE_WORDS), min_size=3, max_size=10, unique=True)
claims_of = st.lists(st.sampled_from(CLAIM_WORDS), min_size=2, max_size=8, unique=True)


def test_the_reported_cases() -> None:
    nothing_cited = "LoRA trains under one percent of the parameters. DPO skips the reward model."
    audit = audit_answer(nothing_cited, [LORA, DPO], ["LoRA"])
    assert not audit.passed
    assert {s.status for s in audit.sentences} == {"uncited"}

    one_side = "LoRA trains under one percent of the parameters [1]."
    audit = audit_answer(one_side, [LORA, DPO], ["LoRA", "DPO"])
    assert not audit.passed
    assert audit.uncovered == ("DPO",)

    both = one_side + " DPO trains no separate reward model [2]."
    assert audit_answer(both, [LORA, DPO], ["LoRA", "DPO"]).passed

    wrong_number = "LoRA trains a rank of 64 [1]."
    assert audit_answer(wrong_number, [LORA], ["LoRA"]).sentences[0].status == "unsupported"
    no_such_source = "LoRA trains under one percent of the parameters [3]."
    assert audit_answer(no_such_source, [LORA], []).sentences[0].status == "unsupported"


def test_headings_questions_and_transitions_need_no_citation() -> None:
    answer = "## LoRA\nIn short:\nWhat does it cost?\nLoRA trains under one percent [1]."
    audit = audit_answer(answer, [LORA], ["LoRA"])
    assert [s.status for s in audit.sentences] == ["not a claim"] * 3 + ["supported"]
    assert audit.passed


def test_a_sentence_the_user_learned_before_needs_no_citation() -> None:
    fact = "QLoRA quantizes the frozen base model to four bits."
    audit = audit_answer(f"LoRA trains under one percent [1]. {fact}", [LORA], [], [fact])
    assert [s.status for s in audit.sentences] == ["supported", "prior"]


def test_citations_after_the_full_stop_and_et_al_stay_in_their_sentence() -> None:
    answer = "LoRA (Hu et al., 2021) trains adapters. [1] Then it merges them [1]."
    assert split_sentences(answer) == [
        "LoRA (Hu et al., 2021) trains adapters. [1]",
        "Then it merges them [1].",
    ]


def test_failing_sentences_are_marked_where_they_stand() -> None:
    answer = "LoRA trains under one percent [1]. DPO is free of any reward model."
    marked = marked_answer(answer, audit_answer(answer, [LORA, DPO], []))
    assert marked.index("*(no source cited)*") > marked.index("DPO is free")
    assert marked.count("*(") == 1


@settings(max_examples=150, deadline=None)
@given(source=words_of, claim=claims_of, n_sources=st.integers(1, 4), cite=st.integers(1, 4))
def test_a_citation_to_a_source_that_shares_no_key_term_is_never_supported(
    source: list[str], claim: list[str], n_sources: int, cite: int
) -> None:
    chunks = [chunk(source) for _ in range(n_sources)]
    sentence = " ".join(claim).capitalize() + f" [{cite}]."
    assert not stems(sentence) & stems(chunks[0]["text"])
    audit = audit_answer(sentence, chunks)
    assert audit.sentences[0].status == "unsupported"
    assert not audit.passed


@settings(max_examples=150, deadline=None)
@given(
    source=words_of,
    sentences=st.lists(st.lists(st.sampled_from(SOURCE_WORDS + CLAIM_WORDS), min_size=2,
                                max_size=8), min_size=1, max_size=5),
    verdict=st.sampled_from(["", " The critic passed this answer with a score of 1.0.",
                             " Every claim above is supported."]),
)  # fmt: skip
def test_an_answer_that_cites_nothing_never_passes(
    source: list[str], sentences: list[list[str]], verdict: str
) -> None:
    answer = " ".join(" ".join(s).capitalize() + "." for s in sentences) + verdict
    assert not audit_answer(answer, [chunk(source)]).passed


@settings(max_examples=150, deadline=None)
@given(
    first=words_of,
    second=st.lists(st.sampled_from(CLAIM_WORDS), min_size=3, max_size=10, unique=True),
    names=st.sampled_from([("LoRA", "DPO"), ("ReWOO", "ReAct"), ("GPT-4", "Llama-3")]),
    second_cited=st.booleans(),
)
def test_a_comparison_with_one_named_thing_uncited_never_passes(
    first: list[str], second: list[str], names: tuple[str, str], second_cited: bool
) -> None:
    a, b = names
    chunks = [chunk([a, *first]), chunk([b, *second])]
    answer = f"{a} " + " ".join(first) + " [1]."
    if second_cited:  # the second thing cited, but to the first thing's source
        answer += f" {b} " + " ".join(second) + " [1]."
    audit = audit_answer(answer, chunks, [a, b])
    assert not audit.passed
    assert b in audit.uncovered


@settings(max_examples=150, deadline=None)
@given(
    source=words_of,
    take=st.integers(2, 10),
    number=st.integers(2, 999),
    other=st.integers(2, 999),
)
def test_a_sentence_quoted_from_its_source_passes_and_a_changed_number_does_not(
    source: list[str], take: int, number: int, other: int
) -> None:
    quoted = source[: max(2, min(take, len(source)))]
    chunks = [chunk([*source, str(number)])]
    answer = " ".join(quoted).capitalize() + f" {number} [1]."
    assert audit_answer(answer, chunks).passed
    if other != number:
        changed = " ".join(quoted).capitalize() + f" {other} [1]."
        assert not audit_answer(changed, chunks).passed


@settings(max_examples=100, deadline=None)
@given(
    source=words_of,
    plan=st.lists(st.sampled_from(["quoted", "uncited", "unrelated"]), min_size=1, max_size=6),
)
def test_every_failing_sentence_is_marked_once_and_no_supported_one_is(
    source: list[str], plan: list[str]
) -> None:
    quoted = " ".join(source[:3]).capitalize()
    written = {
        "quoted": f"{quoted} [1].",
        "uncited": f"{quoted} again.",  # the same words, repeated, with no citation
        "unrelated": "Bicycle cactus dolphin [1].",
    }
    answer = " ".join(written[kind] for kind in plan)
    audit = audit_answer(answer, [chunk(source)])
    marked = marked_answer(answer, audit)
    assert marked.count("*(no source cited)*") == plan.count("uncited")
    assert marked.count("*(not supported by its source)*") == plan.count("unrelated")
    assert (
        marked.replace(" *(no source cited)*", "").replace(" *(not supported by its source)*", "")
        == answer
    )


@settings(max_examples=100, deadline=None)
@given(
    source=words_of,
    numbers=st.lists(st.integers(1, 3), min_size=2, max_size=3, unique=True),
    separator=st.sampled_from([", ", ",", "; ", " , "]),
)
def test_grouped_citations_are_read_as_the_citations_they_group(
    source: list[str], numbers: list[int], separator: str
) -> None:
    chunks = [chunk(source)] * 3
    sentence = " ".join(source[:3]).capitalize()
    grouped = normalize_citations(f"{sentence} [{separator.join(map(str, numbers))}].")
    apart = f"{sentence} " + "".join(f"[{n}]" for n in numbers) + "."
    assert grouped == apart
    assert audit_answer(grouped, chunks).sentences == audit_answer(apart, chunks).sentences


@settings(max_examples=150, deadline=None)
@given(
    fact=st.lists(st.sampled_from(SOURCE_WORDS), min_size=6, max_size=10, unique=True),
    at=st.integers(0, 9),
    change=st.sampled_from(["word", "number", "name"]),
    number=st.integers(2, 99),
)
def test_a_learned_fact_changed_in_one_term_is_a_new_claim_that_must_cite(
    fact: list[str], at: int, change: str, number: int
) -> None:
    said = " ".join(fact).capitalize() + f" {number}."
    assert audit_answer(said, [], prior=[said]).sentences[0].status == "prior"
    words = list(fact)
    i = at % len(words)
    if change == "word":
        words[i] = CLAIM_WORDS[i]
        changed = " ".join(words).capitalize() + f" {number}."
    elif change == "number":
        changed = " ".join(words).capitalize() + f" {number + 1}."
    else:
        words[i] = "Quillfeather"
        changed = " ".join(words).capitalize() + f" {number}."
    assert audit_answer(changed, [], prior=[said]).sentences[0].status == "uncited"


@settings(max_examples=150, deadline=None)
@given(
    names=st.sampled_from([("LoRA", "DPO"), ("ReWOO", "ReAct"), ("GPT-4", "Llama-3")]),
    shape=st.sampled_from(["Compare {a} and {b}", "{a} vs {b}: which is cheaper?",
                           "How does {a} differ from {b}?"]),
    routed=st.sampled_from(["both", "first", "none"]),
    first=words_of,
)  # fmt: skip
def test_a_thing_the_user_named_is_checked_whatever_the_router_listed(
    names: tuple[str, str], shape: str, routed: str, first: list[str]
) -> None:
    a, b = names
    entities = {"both": [a, b], "first": [a], "none": []}[routed]
    state: Any = {
        "question": shape.format(a=a, b=b),
        "entities": entities,
        "chunks": [chunk([a, *first]), chunk([b, "bicycle", "cactus"])],
        "draft": f"{a} " + " ".join(first) + " [1].",
    }
    audit = audit_of(state)
    assert not audit.passed
    assert b in audit.uncovered
