"""The offline demo's draft: a template atom from the intent and the sample, which the real
validator passes; its reflect stage hands the code back unchanged and says it cannot fix it."""

from __future__ import annotations

from agents.offline import OfflineTurn
from agents.profiles.atom_developer.offline import STEPS, choose_key, template
from agents.profiles.atom_developer.request import last_block
from agents.profiles.atom_developer.validation import avalidate
from tests.atom_developer.graph_support import ERROR_SAMPLE


def test_the_key_is_the_intents_word_the_sample_writes_as_a_key() -> None:
    assert choose_key("Extract the error code when it is 500", ERROR_SAMPLE) == "code"
    assert choose_key("Pull the user out", "login user=ana ok\nlogin user=bo ok") == "user"


async def test_the_template_passes_every_level_on_its_sample() -> None:
    code, spec = template("Extract the error code when it is 500 or 503", ERROR_SAMPLE)
    assert "def extract_context" in code
    assert "def validate_logic" in code
    assert "pattern: '500|503'" in spec
    assert "kind: alternatives" in spec
    report = await avalidate(code, spec, ERROR_SAMPLE)
    assert report.valid, report.errors


async def test_a_sample_without_the_intents_key_gives_a_template_that_fails() -> None:
    code, spec = template("Extract the error code", "10:00 INFO all good\n10:01 INFO fine")
    assert not (await avalidate(code, spec, "10:00 INFO all good\n10:01 INFO fine")).valid


def test_reflect_hands_the_code_back_unchanged_and_says_so() -> None:
    state = {"generated_code": "print(1)\n", "pseudo_contract": "pattern: x\n"}
    reply = STEPS["reflect"](OfflineTurn(node="reflect", state=state, messages=[]))
    assert reply is not None
    assert last_block(reply.text, frozenset({"python"})).strip() == "print(1)"
    assert "cannot fix code" in reply.text
