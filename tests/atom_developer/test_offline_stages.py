"""The offline demo's draft: a template atom from the intent and the sample, which the real
validator passes; its reflect stage hands the code back unchanged and says it cannot fix it.
Whatever the intent and the sample, the template passes level 1 and its spec reads."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.offline import OfflineTurn
from agents.profiles.atom_developer.offline import STEPS, choose_key, template
from agents.profiles.atom_developer.request import last_block
from agents.profiles.atom_developer.validation import avalidate
from agents.profiles.atom_developer.validation.spec import read_spec
from agents.profiles.atom_developer.validation.static_check import check_static
from tests.atom_developer.graph_support import ERROR_SAMPLE


def test_the_key_is_the_intents_word_the_sample_writes_as_a_key() -> None:
    assert choose_key("Extract the error code when it is 500", ERROR_SAMPLE) == "code"
    assert choose_key("Pull the user out", "login user=ana ok\nlogin user=bo ok") == "user"


async def test_the_template_passes_every_level_on_its_sample() -> None:
    code, spec = template("Extract the error code when it is 500 or 503", ERROR_SAMPLE, "code")
    assert "def extract_context" in code
    assert "def validate_logic" in code
    assert "pattern: '500|503'" in spec
    assert "kind: alternatives" in spec
    report = await avalidate(code, spec, ERROR_SAMPLE)
    assert report.valid, report.errors


async def test_a_sample_without_the_intents_key_gives_a_template_that_fails() -> None:
    sample = "10:00 INFO all good\n10:01 INFO fine"
    code, spec = template("Extract the error code", sample, "code")
    assert not (await avalidate(code, spec, sample)).valid


def test_an_intent_naming_nothing_the_sample_holds_drafts_nothing_and_says_what_it_needs() -> None:
    """Python source pasted with "what does this do?" is no log sample for any key."""
    state = {"user_intent": "what does this do?", "log_snippet": "import os\nprint('hi')\n"}
    assert choose_key(state["user_intent"], state["log_snippet"]) is None
    reply = STEPS["draft"](OfflineTurn(node="draft", state=state, messages=[]))
    assert reply is not None
    assert last_block(reply.text, frozenset({"python"})) == ""
    assert "sample" in reply.text


def test_reflect_hands_the_code_back_unchanged_and_says_so() -> None:
    state = {"generated_code": "print(1)\n", "pseudo_contract": "pattern: x\n"}
    reply = STEPS["reflect"](OfflineTurn(node="reflect", state=state, messages=[]))
    assert reply is not None
    assert last_block(reply.text, frozenset({"python"})).strip() == "print(1)"
    assert "cannot fix code" in reply.text


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=60) | st.just("extract __init__ calls, code=5\x00"), st.text(max_size=60))
def test_the_template_passes_level_1_and_its_spec_reads_whatever_the_intent(
    intent: str, sample: str
) -> None:
    code, spec = template(intent, sample, choose_key(intent, sample) or "value")
    assert check_static(code).errors == []
    assert read_spec(spec)[1] == []


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=60), st.text(max_size=120))
def test_the_demo_drafts_only_on_a_key_the_intent_names_and_the_sample_holds(
    intent: str, sample: str
) -> None:
    reply = STEPS["draft"](
        OfflineTurn(node="draft", state={"user_intent": intent, "log_snippet": sample}, messages=[])
    )
    assert reply is not None
    drafted = bool(last_block(reply.text, frozenset({"python"})).strip())
    key = choose_key(intent, sample) if sample.strip() else None
    assert drafted == (key is not None)
    if key is not None:
        assert key in intent.lower()
        assert key in sample.lower()
