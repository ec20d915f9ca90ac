"""Conversational answers when no tool family has anything to do.

Greetings, thanks, "which model is this / how do I set a key", a recap of earlier questions,
an outline of pasted code, a JSON object when one is asked for, and otherwise a reply that
restates the question, its key terms and the related earlier turn. Markdown throughout, so
the app's rendering shows lists and code blocks even offline.
"""

from __future__ import annotations

import dataclasses
import json
import re

from agents.offline.conversation import Conversation
from agents.offline.reply import Reply
from agents.offline.rules import structured, unknown_tools
from agents.offline.text import keywords, overlap, plural, shorten, strip_filler, words

_GREETING = re.compile(
    r"^\s*(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening))\b", re.I
)
_THANKS = re.compile(r"\b(?:thanks|thank you|thx|cheers)\b", re.I)
_MODEL = re.compile(
    r"\b(?:(?:which|what|this|your|the) model\b|api[ _-]?keys?|providers?|offline|openai|gpt|kimi|"
    r"moonshot|deepseek|qwen|dashscope|ollama|configur\w*|who are you|what are you)\b",
    re.I,
)
_RECALL = re.compile(
    r"\b(?:earlier|previous(?:ly)?|so far|recap|what did i (?:ask|say)|"
    r"summari[sz]e (?:our|the|this) (?:conversation|chat))\b",
    re.I,
)
_CODE = re.compile(r"```|^\s*(?:def|class|import|from \S+ import|function|const|let)\s", re.M)
_JSON_REQUEST = re.compile(
    r"\b(?:as|in|return|respond with|reply with|output|give me)\b[^.?!]*\bjson\b|\bjson\b[^.?!]*\b(?:object|format|only)\b",
    re.I,
)
_TITLE = re.compile(r"\b(?:give|suggest|write|make|generate|create)\b[^.?!]*\btitle\b", re.I)
_PLAN = re.compile(
    r"\b(?:make|write|give|create|draft|outline) (?:me )?(?:a )?(?:short )?plan\b|"
    r"\bbreak (?:it|this|that|the)(?: question| task| problem)? (?:down|into)(?: steps)?|\bstep[- ]by[- ]step\b",
    re.I,
)
_DEFINITION = re.compile(r"^\s*(?:async\s+)?(def|class|function)\s+([A-Za-z_]\w*)\s*(\([^)]*\))?")
_IMPORT = re.compile(r"^\s*(?:import\s+([\w.]+)|from\s+([\w.]+)\s+import)")


def decide(conv: Conversation) -> Reply:
    if conv.results:
        return Reply(text=unknown_tools.summarise(list(conv.results)))
    text = conv.user_text.strip()
    if not text:
        return Reply(
            text="I'm listening. Ask a question, or press **F1** to see what the app can do."
        )
    if _JSON_REQUEST.search(text):
        return Reply(text=json_reply(conv))
    if _TITLE.search(text):
        return Reply(text=title_for(conv))
    if _PLAN.search(text):
        return Reply(text=_plan(conv))
    if _GREETING.match(text) and len(words(text)) <= 6:
        return Reply(text=_greeting(conv))
    if _MODEL.search(text):
        return Reply(text=_about_models(text))
    if _THANKS.search(text) and len(words(text)) <= 8:
        return Reply(text=_thanks(conv))
    if _RECALL.search(text) and conv.earlier_user_texts:
        return Reply(text=_recap(conv))
    if _CODE.search(text):
        return Reply(text=_outline_code(text))
    return Reply(text=_understanding(conv))


def json_reply(conv: Conversation) -> str:
    """A JSON object with the keys the request names, each filled from what it is about."""
    keys = structured.requested_keys(conv.user_text) or structured.requested_keys(conv.system)
    about = dataclasses.replace(conv, user_text=structured.json_subject(conv.user_text))
    out: dict[str, object] = {}
    for key in keys or ["request", "keywords", "answer"]:
        if key == "request":
            out[key] = strip_filler(about.user_text)
        elif key.endswith("s") and key.lower() not in ("status", "analysis", "address"):
            out[key] = structured.list_for(key, about)
        else:
            out[key] = structured.string_for(key, about)
    return json.dumps(out, indent=2)


def title_for(conv: Conversation) -> str:
    """A short title: the main terms of what the request quotes, else of the earlier turns."""
    generic = {"title", "short", "conversation", "chat", "give", "suggest", "write", "make"}

    def terms_of(text: str) -> list[str]:
        return [t for t in keywords(text) if t not in generic]

    source = structured.json_subject(conv.user_text)
    terms = terms_of(source)
    if not terms and conv.earlier_user_texts:
        source = " ".join(conv.earlier_user_texts)
        terms = terms_of(source)
    spelled = {w.lower(): w for w in re.findall(r"[A-Za-z][\w+#-]*", source)}
    shown = [spelled.get(t, t) for t in terms[:5]]
    return " ".join(w if not w.islower() else w.capitalize() for w in shown) or "New conversation"


def _plan(conv: Conversation) -> str:
    """A numbered plan: one step per part of the task, then one to put the results together."""
    task = structured.json_subject(conv.user_text)
    task = _PLAN.sub("", task).strip(" :,.?") or task
    split_at = r"\?|;|,|\bthen\b|\band (?=(?:how|why|what|which|when|where|who)\b)"
    pieces = (p.strip(" ,.") for p in re.split(split_at, task))
    parts = [re.sub(r"^and\s+", "", p) for p in pieces if p and p.lower() != "and"]
    steps = [_step(p) for p in parts[:5]] or [_step(task)]
    steps.append("Put the findings together and check them against the question.")
    numbered = "\n".join(f"{i}. {step}" for i, step in enumerate(steps, start=1))
    return f"A plan for **{shorten(task, 100)}**:\n\n{numbered}"


def _step(part: str) -> str:
    """A plan step from a part of the task: a question to find out, or an instruction as is."""
    first = part.split(" ", 1)[0].lower()
    if first in {
        "how",
        "why",
        "what",
        "which",
        "when",
        "who",
        "where",
        "whether",
        "does",
        "is",
        "are",
    }:
        return f"Find out {part[0].lower() + part[1:]}."
    return f"{part[0].upper() + part[1:]}."


def _greeting(conv: Conversation) -> str:
    name = f", {conv.sender}" if conv.sender else ""
    examples = _examples(conv)
    lines = "\n".join(f"- {e}" for e in examples)
    return (
        f"Hello{name}! I'm **weaver-offline**, the model built into weaver-tui. I run without a "
        f"network or an API key, and I answer from this conversation and the profile's tools.\n\n"
        f"Things to try:\n\n{lines}"
    )


def _examples(conv: Conversation) -> list[str]:
    if conv.has_tool("read_file") or conv.has_tool("list_files"):
        return ["`What files are in this project?`", "`Read README.md`", "`Where is main defined?`",
                "`Rename old_name to new_name in path/to/file.py`"]  # fmt: skip
    if conv.has_tool("reply_privately"):
        return ["Say what is on your mind: I answer you privately.",
                "Mention a plan or a budget you share: I also post a neutral summary for both of you."]  # fmt: skip
    if any(t for t in conv.tools if "search" in t or "knowledge" in t):
        return ["Ask about a paper or a method: I search the knowledge base and cite what I find."]
    return ["`Which model is this, and how do I use my own API key?`", "Paste some code for an outline.",
            "Ask me to recap what you asked so far."]  # fmt: skip


def _about_models(text: str) -> str:
    intro = (
        "You're talking to **weaver-offline**, the model built into weaver-tui. It needs no network "
        "and no key: it reads this conversation and the current profile's tools and replies "
        "deterministically, so the same input always gets the same answer."
    )
    setup = (
        "To use a provider's model, set it in the environment (or the same keys in the config file):\n\n"
        "```bash\n"
        "export WEAVER_PROVIDER=openai      # moonshot, deepseek, dashscope, ollama, openai-compatible\n"
        "export WEAVER_API_KEY=sk-...       # not needed for ollama\n"
        "export WEAVER_MODEL=gpt-4o-mini    # optional: each preset has a default\n"
        "export WEAVER_BASE_URL=http://127.0.0.1:8000/v1   # for openai-compatible servers\n"
        "```"
    )
    notes = (
        "- Without a key, weaver-tui falls back to this offline model.\n"
        "- The model picker switches models between turns; each reply records its provider and model.\n"
        "- Keys are never logged, shown or exported."
    )
    keys_first = re.search(r"\b(?:key|configure|set up|setup|use my)\b", text, re.I)
    return "\n\n".join([setup, intro, notes] if keys_first else [intro, setup, notes])


def _thanks(conv: Conversation) -> str:
    if conv.earlier_user_texts:
        last = shorten(strip_filler(conv.earlier_user_texts[-1]), 80)
        return f"You're welcome! Anything else about *{last}*, or something new?"
    return "You're welcome! What would you like to look at next?"


def _recap(conv: Conversation) -> str:
    asked = "\n".join(
        f"{i}. {shorten(t, 100)}" for i, t in enumerate(conv.earlier_user_texts, start=1)
    )
    topics = keywords(" ".join(conv.earlier_user_texts))[:6]
    tags = ", ".join(f"`{t}`" for t in topics)
    return f"So far you've asked:\n\n{asked}\n\nThe recurring terms: {tags}."


def _outline_code(text: str) -> str:
    fence = re.search(r"```(\w*)\n(.*?)```", text, re.S)
    language = (fence.group(1) if fence else "") or "python"
    code = fence.group(2) if fence else text
    lines = code.splitlines()
    defs = [
        (m.group(1), m.group(2), m.group(3) or "", n)
        for n, line in enumerate(lines, 1)
        if (m := _DEFINITION.match(line))
    ]
    imports = list(
        dict.fromkeys(m.group(1) or m.group(2) for line in lines if (m := _IMPORT.match(line)))
    )
    parts = [
        f"You shared {plural(len(lines), 'line')} of {language.capitalize()}. Here is its outline:"
    ]
    rows = []
    functions = [f"`{name}{args}` (line {n})" for kind, name, args, n in defs if kind != "class"]
    classes = [f"`{name}` (line {n})" for kind, name, _, n in defs if kind == "class"]
    if functions:
        rows.append(f"- **functions:** {', '.join(functions[:8])}")
    if classes:
        rows.append(f"- **classes:** {', '.join(classes[:8])}")
    if imports:
        rows.append(f"- **imports:** {', '.join(f'`{i}`' for i in imports[:8])}")
    todo = [n for n, line in enumerate(lines, 1) if re.search(r"\b(?:TODO|FIXME|XXX)\b", line)]
    if todo:
        rows.append(f"- **open notes** (TODO/FIXME) on line {', '.join(map(str, todo[:6]))}")
    parts.append(
        "\n".join(rows) or "- no functions, classes or imports: it is a snippet of statements"
    )
    signatures = [lines[n - 1].rstrip() for _, _, _, n in defs]
    if signatures:
        parts.append(f"```{language}\n" + "\n".join(signatures) + "\n```")
    return "\n\n".join(parts)


def _understanding(conv: Conversation) -> str:
    question = strip_filler(conv.user_text)
    terms = keywords(question)[:5]
    asking = conv.user_text.rstrip().endswith("?")
    lead = (
        f"You asked: **{shorten(question, 140)}**"
        if asking
        else f"Noted: **{shorten(question, 140)}**"
    )
    rows = []
    if terms:
        rows.append("- **Key terms:** " + ", ".join(f"`{t}`" for t in terms))
    related = _related_earlier(conv, terms)
    if related:
        rows.append(f'- **Earlier you asked:** "{shorten(related, 100)}"')
    rows.append(f"- **Turn:** {len(conv.earlier_user_texts) + 1} of this conversation")
    return (
        f"{lead}\n\n" + "\n".join(rows) + "\n\nI'm the offline model, so I answer from this "
        "conversation and this profile's tools rather than from general knowledge. For a full answer, "
        "switch to a provider model: ask me *how do I set an API key?*"
    )


def _related_earlier(conv: Conversation, terms: list[str]) -> str | None:
    if not conv.earlier_user_texts:
        return None
    scored = [(overlap(terms, keywords(t)), i, t) for i, t in enumerate(conv.earlier_user_texts)]
    best = max(scored)
    return best[2] if best[0] > 0 else conv.earlier_user_texts[-1]


def continue_reply(conv: Conversation) -> Reply:
    """Go on from the last reply: finish its sentence if it stops mid-way, then close on the
    question it answers (the offline model writes no new facts)."""
    prefix = conv.last_reply.rstrip()
    question = conv.earlier_user_texts[-1] if conv.earlier_user_texts else ""
    topic = shorten(strip_filler(question), 80) if question.strip() else "your question"
    ending = "" if prefix.endswith((".", "!", "?", ":", "`")) or not prefix else "."
    return Reply(text=f"{ending} That is what I can say here about {topic}.")


def summarise_transcript(conv: Conversation) -> Reply:
    """A summary made of the transcript's own lines: who said what, each cut to its first
    sentence, the latest ten kept (the offline model invents nothing)."""
    lines = []
    for line in conv.user_text.splitlines():
        who, sep, said = line.partition(": ")
        if not sep or not said.strip():
            continue
        first = re.split(r"(?<=[.!?])\s", said.strip(), maxsplit=1)[0]
        lines.append(f"- {who}: {shorten(first, 120)}")
    return Reply(text="\n".join(lines[-10:]) or "- (nothing to summarise)")
