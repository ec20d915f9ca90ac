"""The mediator's rules for the offline model, for its tools: ``reply_privately(recipient, content)`` and ``post_to_shared``.

The person who spoke (the message's ``name``) is answered privately, in words that refer to what
they said. When the message was said in the shared space and is about something the pair
shares (a plan, a budget, "we", or any money topic said to everyone) or asks everyone, a
neutral summary also goes to the shared
space: built from topics only, it never quotes the message or repeats an amount. A message
said privately to the mediator (the system prompt's "Now speaking: ..., privately to you"
line) or marked private in its words is only answered privately: even a summary of topics
would tell the other person what was said in confidence.
"""

from __future__ import annotations

import re

from agents.offline.conversation import Conversation
from agents.offline.family import RuleFamily
from agents.offline.reply import PlannedCall, Reply
from agents.offline.text import STOPWORDS, human_list, shorten

PRIVATE, SHARED = "reply_privately", "post_to_shared"

_PRIVATE_MARKERS = re.compile(
    r"just between us|between you and me|privately|in private|in confidence|confidential|"
    r"don'?t tell|do not tell|don'?t share|do not share|keep (?:this|it) (?:to yourself|secret)|"
    r"secret|without (?:telling|him|her|them) knowing",
    re.IGNORECASE,
)
_SHARED_MARKERS = re.compile(
    r"\b(?:we|us|our|ours|both|agree[ds]?|agreement|plan|plans|budget|together|jointly|shared|"
    r"everyone|all of you|compromise)\b",
    re.IGNORECASE,
)
_AGREEMENT = re.compile(
    r"\b(?:i|we)\s+(?:(?:do|fully|totally|both)\s+)?(?:agree|accept)\b|\bsounds?\s+"
    r"(?:fine|good|great|fair|reasonable|right)\b|\bworks for (?:me|us)\b|\bfair enough\b|"
    r"\bit'?s a deal\b|\bi'?m (?:fine|ok|okay|happy) with\b",
    re.IGNORECASE,
)
"""Words that agree with what was proposed ("I agree", "300 sounds fine", "works for me")."""
_DISAGREEMENT = re.compile(
    r"\b(?:don'?t|do not|can'?t|cannot|never|not|disagree)\b|\bbut\b", re.IGNORECASE
)
"""Words that take the agreement back ("I don't agree", "sounds fine but ...")."""
_GREETING = re.compile(
    r"(?:hi|hello|hey|good (?:morning|afternoon|evening))(?: there| everyone| all)?[!.,]*", re.I
)
_AMOUNT = re.compile(
    r"(?:[$€£¥]\s?\d[\d,]*(?:\.\d+)?\s?[kK]?|\d[\d,]*(?:\.\d+)?\s?(?:dollars|euros|pounds|yuan|"
    r"rmb|usd|eur|k)\b)(?:\s+(?:a|per|each|every)\s+(?:month|week|year))?",
    re.IGNORECASE,
)
_FEELINGS = {  # word stem → how to name the feeling
    "worr": "worried", "anxi": "anxious", "stress": "stressed", "frustrat": "frustrated",
    "upset": "upset", "angr": "angry", "scare": "scared", "afraid": "afraid",
    "overwhelm": "overwhelmed", "hurt": "hurt", "tired": "tired", "nervous": "nervous",
    "happy": "happy", "reliev": "relieved", "hope": "hopeful",
}  # fmt: skip
_TOPICS = {  # whole words (with the forms listed) → the topic's neutral name
    r"budget(?:s|ing)?": "the household budget",
    r"spend(?:s|ing)?|spent": "spending",
    r"sav(?:e|es|ed|ing|ings)": "savings",
    r"debts?": "debt",
    r"loans?": "a loan",
    r"credit cards?": "credit card balances",
    r"rent|mortgages?|house|housing": "housing costs",
    r"cars?": "a car purchase",
    r"vacations?|holidays?|trips?|travel(?:ling|ing)?": "holiday plans",
    r"salar(?:y|ies)|income": "income",
    r"invest(?:s|ed|ing|ment|ments)?": "investing",
    r"retire(?:d|ment)?|retiring|pensions?": "retirement",
    r"kids|children|childcare": "the children's costs",
    r"weddings?": "the wedding",
    r"gifts?|presents": "gifts",
    r"parents": "support for family",
    r"groceries|grocery|food|eating out|restaurants?|dining out|take-?aways?|take-?out": "food costs",
}
_NEXT_STEPS = {
    "the household budget": "list the fixed monthly costs together and agree on a spending limit",
    "spending": "each write down the three expenses that matter most to you, then compare",
    "savings": "pick a monthly savings amount you are both comfortable with",
    "debt": "list each debt with its rate and agree which one to pay down first",
    "holiday plans": "agree on a ceiling for the trip before choosing where to go",
    "food costs": "agree on a weekly food amount you can both live with",
}
_SWAPS = {
    "i": "you", "i'm": "you're", "im": "you're", "i've": "you've", "i'd": "you'd",
    "i'll": "you'll", "me": "you", "my": "your", "mine": "yours", "myself": "yourself",
    "we": "you", "we're": "you're", "we've": "you've", "we'd": "you'd", "we'll": "you'll",
    "our": "your", "ours": "yours", "ourselves": "yourselves", "us": "the two of you",
}  # fmt: skip
_FILLER = re.compile(
    r"(?:thank(?:s| you)(?: (?:so|very) much)?(?: for (?:telling|sharing|listening|helping|"
    r"that|this|everything)(?: (?:me|us|with me|with us))?)?|(?:hi|hello|hey|good (?:morning|"
    r"afternoon|evening))(?: there| everyone| all| both| again)?|ok(?:ay)?|sure)[\s,.!]*",
    re.IGNORECASE,
)
"""A short sentence that says nothing to reflect back ("Thank you for telling me.", "Hi!")."""
_LEAD_IN = re.compile(
    r"^(?:(?:hi|hello|hey|so|well|ok(?:ay)?)\b[\s,!.]*|(?:thanks|thank you)\s*[,!.]\s*)+",
    re.IGNORECASE,
)
"""Words before what a sentence says ("Hi, ...", "Thanks, ...", "So ...")."""


def decide(conv: Conversation) -> Reply | None:
    """Reply to the speaker privately, post a shared summary when fitting, then close."""
    if not (conv.has_tool(PRIVATE) or conv.has_tool(SHARED)) and not conv.results_of(
        PRIVATE, SHARED
    ):
        return None
    if conv.results_of(PRIVATE, SHARED):
        return Reply(text=_closing(conv))
    if not conv.may_call_tools:
        return None
    text = conv.user_text
    sender = conv.sender or (conv.participants[0] if conv.participants else None)
    others = [p for p in conv.participants if p != sender]
    private = conv.channel == "private" or bool(_PRIVATE_MARKERS.search(text))
    about_both = (
        bool(_SHARED_MARKERS.search(_PRIVATE_MARKERS.sub("", text)))
        or (text.rstrip().endswith("?") and len(conv.participants) > 1)
        # said to everyone about the household's money: everyone's business
        or (conv.channel == "shared" and bool(topics_of(text)))
        or (_AGREEMENT.search(text) is not None and len(conv.participants) > 1)
    )
    shared = not private and about_both
    calls: list[PlannedCall] = []
    if sender and conv.has_tool(PRIVATE):
        content = _private_reply(text, sender, others, private)
        if private and about_both and others:
            content += (
                f" When you are ready, you could raise this with {human_list(others)} in the "
                "shared space, and I will help you both talk it through."
            )
        calls.append(PlannedCall(PRIVATE, {"recipient": sender, "content": content}))
    if (shared or not calls) and not private and conv.has_tool(SHARED):
        calls.append(PlannedCall(SHARED, {"content": _shared_summary(text, sender, others)}))
    return Reply(text="", calls=tuple(calls)) if calls else None


def _agrees(text: str) -> bool:
    """Whether ``text`` agrees with what was proposed and takes nothing back."""
    return _AGREEMENT.search(text) is not None and _DISAGREEMENT.search(text) is None


def topics_of(text: str) -> list[str]:
    """The money topics a message touches, in a fixed order (never its wording)."""
    lower = text.lower()
    found: list[str] = []
    for words, topic in _TOPICS.items():
        if topic not in found and re.search(rf"\b(?:{words})\b", lower):
            found.append(topic)
    return found


def second_person(clause: str) -> str:
    """Turn the speaker's first-person words toward them: "I'm worried" → "you're worried"."""

    def swap(match: re.Match[str]) -> str:
        word = match.group(0)
        return _SWAPS.get(word.lower(), word)

    clause = re.sub(r"\bI am\b", "you are", clause, flags=re.I)
    clause = re.sub(r"\bI was\b", "you were", clause, flags=re.I)
    return re.sub(r"\b[A-Za-z']+\b", swap, clause)


def _private_reply(text: str, sender: str, others: list[str], private: bool) -> str:
    if _GREETING.fullmatch(text.strip()):
        who = f" with {human_list(others)}" if others else ""
        return (
            f"Hello, {sender}! I'm here to help you{who} talk about money calmly and reach shared "
            "decisions. Anything you tell me privately stays between us. What is on your mind?"
        )
    first = _reflected_sentence(text, [sender, *others])
    if first.endswith("?"):  # quoted as asked
        opening = f"Thank you, {sender}. You asked: {shorten(first.rstrip('?'), 160)}?"
    else:
        clause = second_person(first).rstrip(".!?") if first else ""
        opening = (
            f"Thank you, {sender}. I hear that {shorten(clause or 'this matters to you', 160)}."
        )
    parts = [opening]
    feeling = next(
        (
            name
            for stem, name in _FEELINGS.items()
            if re.search(rf"\b{stem}\w*", text, re.IGNORECASE)
        ),
        None,
    )
    if feeling:
        parts.append(f"It makes sense to feel {feeling} about this.")
    amounts = _AMOUNT.findall(text)
    if amounts:
        parts.append(
            f"The figure you mentioned ({amounts[0].strip()}) gives us something concrete to work with."
        )
    if private:
        who = human_list(others) if others else "anyone else"
        parts.append(f"I will keep this between us and won't share it with {who}.")
    topics = topics_of(text)
    if _agrees(text):
        parts.append(
            "It is good to hear you have found common ground. Is there anything about it you "
            "would still like to settle?"
        )
    elif topics:
        parts.append(f"What would a good outcome on {topics[0]} look like for you?")
    else:
        parts.append("What would help you most right now?")
    return " ".join(parts)


def _reflected_sentence(text: str, names: list[str]) -> str:
    """The first sentence of ``text`` worth reflecting back, without privacy markers, a
    leading greeting or a name it is addressed to ("Alex, I have ..." → "I have ...");
    "let's ..." reads as what the speaker would like. Empty when there is none."""
    spoken = _PRIVATE_MARKERS.sub("", text).strip(" ,.;:-") or text.strip()
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", spoken) if s.strip()]
    addressed = re.compile(
        rf"^(?:{'|'.join(re.escape(n) for n in names if n)})\s*[,:]\s*", re.IGNORECASE
    )
    for sentence in sentences:
        if _FILLER.fullmatch(sentence):
            continue
        sentence = _LEAD_IN.sub("", sentence)
        if any(names):
            sentence = addressed.sub("", sentence)
        sentence = re.sub(r"^(?:let's|let us)\b", "you'd like to", sentence, flags=re.I)
        if not sentence.strip(" .!?"):
            continue
        opener = sentence.split(" ", 1)[0].lower().strip(",")
        if opener in STOPWORDS or opener in _SWAPS:
            sentence = sentence[:1].lower() + sentence[1:]
        return sentence
    return ""


def _shared_summary(text: str, sender: str | None, others: list[str]) -> str:
    topics = topics_of(text)
    who = sender or "One of you"
    if _agrees(text):
        about = f" on {human_list(topics)}" if topics else ""
        return (
            f"{who} agrees{about}: that is common ground. To make it stick, write down what you "
            f"have agreed, who does what, and when you will look at it again. "
            + (f"{human_list(others)}, is that how you see it too?" if others else "")
        ).strip()
    subject = human_list(topics) if topics else "how to move forward"
    step = (
        _NEXT_STEPS.get(topics[0], "agree on one small, concrete next step")
        if topics
        else ("agree on one small, concrete next step")
    )
    ask = (
        f"{human_list(others)}, how does that sound to you?"
        if others
        else "How does that sound to everyone?"
    )
    return (
        f"{who} has raised {subject} for both of you to decide together. "
        f"A good next step: {step}. {ask}"
    )


def _closing(conv: Conversation) -> str:
    done, failed = [], []
    for result in conv.results_of(PRIVATE, SHARED):
        if result.is_error:
            failed.append(f"`{result.name}` could not be delivered: {shorten(result.content, 160)}")
        elif result.name == PRIVATE:
            done.append(f"replied privately to **{result.args.get('recipient', 'the speaker')}**")
        else:
            done.append("posted a neutral summary to the **shared space**")
    text = f"I {human_list(list(dict.fromkeys(done)))}." if done else ""
    return "\n\n".join(x for x in [text, *failed] if x)


RULES = RuleFamily(frozenset({PRIVATE, SHARED}), decide)
"""The mediator's rules for the offline model, asked before the generic ones on its turns."""
