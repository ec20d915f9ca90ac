"""The mediator's consent question as an ACP form (``elicitation/create``).

When a post for everyone draws on what a participant told the mediator privately, the turn
pauses until that participant allows it (:mod:`agents.shared_space.consent`). A participant
with a seat is asked only at their seat. In an editor's session nobody has a seat: the one
person at the conversation speaks for each participant (as in the host app), so where the
client advertises form elicitation the question is put to them, one form per participant
asked, and their answer is written in the consent book for that tool call only. Where the
client does not advertise it, such a participant cannot be asked: nothing is posted, and the
mediator reads that it must ask them first.

The guarantee, for any response whatever: an answer is ``allow`` or ``edit`` (with words) only
when the client accepted the form with exactly that choice; a declined or cancelled form, an
accepted one without a valid choice, and anything the client sends that is not a response
(an error, a shape the protocol does not know) are a refusal, and nothing private is posted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from acp.schema import (
    AcceptElicitationResponse,
    ClientCapabilities,
    ElicitationSchema,
    ElicitationStringPropertySchema,
    EnumOption,
)

from storage.consents import ConsentRequest, Decision
from storage.printable import printable

DECISION_FIELD: Final = "decision"
WORDS_FIELD: Final = "words"
ALLOW: Final = "allow"
EDIT: Final = "edit"
REFUSE: Final = "refuse"


def elicits_forms(capabilities: ClientCapabilities | None) -> bool:
    """Whether the client said it shows form elicitations (``{"elicitation": {"form": {}}}``)."""
    elicitation = capabilities.elicitation if capabilities is not None else None
    return elicitation is not None and elicitation.form is not None


def consent_schema() -> ElicitationSchema:
    """The form: a choice of allow, edit or refuse, and the words to post instead (for edit)."""
    return ElicitationSchema(
        title="Consent to share",
        properties={
            DECISION_FIELD: ElicitationStringPropertySchema(
                type="string",
                title="Answer",
                one_of=[
                    EnumOption(const=ALLOW, title="Allow the post as written"),
                    EnumOption(const=EDIT, title="Post my words instead"),
                    EnumOption(const=REFUSE, title="Refuse: post nothing"),
                ],
            ),
            WORDS_FIELD: ElicitationStringPropertySchema(
                type="string",
                title="Words to post instead (for edit)",
            ),
        },
        required=[DECISION_FIELD],
    )


def consent_message(request: ConsentRequest) -> str:
    """What the form asks, naming the participant and the words (terminal controls removed)."""
    who = printable(request.participant)
    return printable(
        f"The mediator would post this to everyone, and it draws on what {who} told it "
        f"privately. Does {who} allow it?\n\n{request.text}"
    )


@dataclass(frozen=True, slots=True)
class ConsentAnswer:
    """What the user answered: the decision kept in the consent book, the words of an edit,
    and (for a refusal the agent made of an answer it could not use) one sentence why."""

    decision: Decision
    words: str = ""
    why: str = ""


def _refusal(why: str) -> ConsentAnswer:
    return ConsentAnswer(REFUSE, why=why)


def answer_of(response: Any) -> ConsentAnswer:
    """The consent a client's response gives: allow or edit only from an accepted form that
    chose it (an edit with words), a refusal from anything else."""
    if not isinstance(response, AcceptElicitationResponse):
        action = str(getattr(response, "action", ""))
        done = {"decline": "declined", "cancel": "cancelled"}.get(action)
        if done is not None:
            return _refusal(f"The form was {done}, so nothing was posted.")
        return _refusal("The editor sent no answer to the form, so nothing was posted.")
    content = response.content
    decision = content.get(DECISION_FIELD) if isinstance(content, dict) else None
    if decision in (ALLOW, REFUSE):
        return ConsentAnswer(decision)
    if decision == EDIT:
        words = content.get(WORDS_FIELD) if isinstance(content, dict) else None
        if isinstance(words, str) and words.strip():
            return ConsentAnswer(EDIT, words.strip())
        return _refusal("The answer chose edit without words to post, so nothing was posted.")
    return _refusal("The answer chose none of allow, edit or refuse, so nothing was posted.")
