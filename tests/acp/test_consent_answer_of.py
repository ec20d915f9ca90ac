"""Any response to a consent form maps to exactly one answer: allow or edit (with its words)
only from a form accepted with that valid choice, a refusal from anything else.

Generated cases: every response shape the client could send (accept with any content,
decline, cancel, an unknown action, junk), read as the agent reads it: through the SDK's own
validation of ``elicitation/create``'s result, a response that fails it being the error the
agent receives instead.
"""

from __future__ import annotations

from typing import Any

from acp.schema import (
    AcceptElicitationResponse,
    CancelElicitationResponse,
    ClientCapabilities,
    CreateElicitationResponse,
    DeclineElicitationResponse,
    ElicitationCapabilities,
    ElicitationFormCapabilities,
    ElicitationUrlCapabilities,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from weaver_tui.core.acp_agent.consent_elicitation import (
    ConsentAnswer,
    answer_of,
    consent_schema,
    elicits_forms,
)

RESPONSES: TypeAdapter[Any] = TypeAdapter(CreateElicitationResponse)

json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=12)
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)  # fmt: skip
choice = st.sampled_from(["allow", "edit", "refuse", "Allow", "", "yes", "accept"]) | json_leaf
content = st.one_of(
    json_value,
    st.fixed_dictionaries(
        {"decision": choice}, optional={"words": st.text(max_size=12) | json_leaf}
    ),
)
raw_response = st.one_of(
    st.fixed_dictionaries({"action": st.just("accept")}, optional={"content": content}),
    st.fixed_dictionaries({"action": st.sampled_from(["decline", "cancel", "_other", "ok"])}),
    json_value,
)


def as_received(raw: Any) -> Any:
    """What the agent's connection hands over: the validated response, or the error."""
    try:
        return RESPONSES.validate_python(raw)
    except ValidationError as exc:
        return exc


def expected(received: Any) -> ConsentAnswer | None:
    """The allowed answer the response gives, or ``None`` for a refusal."""
    if not isinstance(received, AcceptElicitationResponse):
        return None
    given_content = received.content if isinstance(received.content, dict) else {}
    decision = given_content.get("decision")
    if decision == "allow":
        return ConsentAnswer("allow")
    words = given_content.get("words")
    if decision == "edit" and isinstance(words, str) and words.strip():
        return ConsentAnswer("edit", words.strip())
    return None


@settings(max_examples=200, deadline=None)
@given(raw_response)
def test_any_response_is_exactly_an_accepted_valid_choice_or_a_refusal(raw: Any) -> None:
    received = as_received(raw)
    answer = answer_of(received)
    allowed = expected(received)
    if allowed is None:
        assert answer.decision == "refuse"
        assert answer.words == ""
    else:
        assert (answer.decision, answer.words) == (allowed.decision, allowed.words)
    if answer.why:  # a refusal the agent made of an answer it could not use says so once
        assert answer.decision == "refuse"
        assert answer.why.endswith(".")
        assert "\n" not in answer.why


def test_decline_and_cancel_are_refusals() -> None:
    for response in (
        DeclineElicitationResponse(action="decline"),
        CancelElicitationResponse(action="cancel"),
    ):
        answer = answer_of(response)
        assert answer.decision == "refuse"
        assert answer.why


def test_only_a_client_that_advertises_forms_gets_one() -> None:
    assert not elicits_forms(None)
    assert not elicits_forms(ClientCapabilities())
    assert not elicits_forms(
        ClientCapabilities(elicitation=ElicitationCapabilities(url=ElicitationUrlCapabilities()))
    )
    assert elicits_forms(
        ClientCapabilities(elicitation=ElicitationCapabilities(form=ElicitationFormCapabilities()))
    )


def test_the_form_requires_a_choice_of_exactly_allow_edit_or_refuse() -> None:
    schema = consent_schema()
    assert schema.required == ["decision"]
    decision = (schema.properties or {})["decision"]
    options = getattr(decision, "one_of", None) or []
    assert sorted(o.const for o in options) == ["allow", "edit", "refuse"]
