"""Rules for the atom-developer: write atom code that fits a log-parsing intent.

When the request (or the system prompt) is about atoms or parsing logs, the intent and any
log sample in the message go to :mod:`atom_code`. With a validator tool bound the draft is
sent to it first; the answer shows the code, the YAML spec, what the atom extracts from the
sample, and the validator's verdict. If the request asks for JSON, the reply is one JSON
object whose keys are the ones the request names (``code``/``yaml`` by default).
"""

from __future__ import annotations

import json
import re

from agents.offline.conversation import Conversation, ToolSpec
from agents.offline.reply import PlannedCall, Reply
from agents.offline.rules.atom_code import FIELDS, Atom, extract_sample, generate
from agents.offline.rules.structured import requested_keys
from agents.offline.text import human_list, shorten

_CONTEXT = re.compile(r"\b(?:atoms?|extract_context|10\.2|item_?spec|checker)\b", re.I)
_REQUEST = re.compile(
    r"\b(?:parse|parser|parsing|extract|extracts|extraction|regex|atoms?)\b", re.I
)
_LOGS = re.compile(r"\blogs?\b|\blog (?:file|line|snippet)", re.I)
_ERRORS = re.compile(
    r"validation[_ ]errors?|violation|critical:|syntax error|runtime crash|atom [abc] error|consistency error",
    re.I,
)
_JSON = re.compile(r"\bjson\b", re.I)
_VALIDATOR_HINTS = ("validat", "compliance", "sandbox")
_CODE_ARGS = ("code_str", "code", "source", "python_code", "generated_code")
_SPEC_ARGS = ("yaml_str", "yaml", "spec", "pseudo_contract", "contract", "yaml_spec")


def applies(conv: Conversation) -> bool:
    """Is this an atom request (by the user's words, or by the profile's prompt)?"""
    text = conv.user_text
    if _REQUEST.search(text) and (_LOGS.search(text) or _CONTEXT.search(text)):
        return True
    return bool(_CONTEXT.search(conv.system)) and bool(
        _REQUEST.search(text) or _LOGS.search(text) or _ERRORS.search(text)
    )


def decide(conv: Conversation) -> Reply | None:
    validator = validator_tool(conv)
    verdicts = [r for r in conv.results if any(h in r.name.lower() for h in _VALIDATOR_HINTS)]
    if not applies(conv) and not verdicts:
        return None
    intent, sample = split_intent(conv.user_text)
    atom = generate(intent, sample)
    if validator is not None and not verdicts and conv.may_call_tools:
        args = _validator_args(validator, atom)
        return Reply(
            text="Drafting the atom and running the compliance check.",
            calls=(PlannedCall(validator.name, args),),
        )
    if _JSON.search(conv.user_text) or re.search(
        r"\b(?:respond|reply|answer|return)\b[^.]*\bjson\b", conv.system, re.I
    ):
        return Reply(text=json_artifacts(atom, f"{conv.system}\n{conv.user_text}"))
    return Reply(
        text=_markdown(atom, intent, sample, [v.content for v in verdicts], conv.user_text)
    )


def split_intent(text: str) -> tuple[str, str]:
    """(intent, log sample): a fenced block, or the lines that look like log lines."""
    fence = re.search(r"```[\w-]*\n(.*?)```", text, re.S)
    if fence:
        return (text[: fence.start()] + text[fence.end() :]).strip(), fence.group(1).strip()
    lines = text.splitlines()
    loggy = [
        x
        for x in lines[1:]
        if any(re.search(FIELDS[f][1], x) for f in ("ip", "timestamp", "level"))
        and len(x.split()) > 2
    ]
    if loggy:
        rest = [x for x in lines if x not in loggy]
        return "\n".join(rest).strip(), "\n".join(loggy)
    return text.strip(), ""


def json_artifacts(atom: Atom, request: str) -> str:
    """The atom as one JSON object, with the keys the request names."""
    keys = requested_keys(request) or ["code", "yaml"]
    out: dict[str, object] = {}
    for key in keys:
        lower = key.lower()
        if "code" in lower or "python" in lower:
            out[key] = atom.code
        elif any(w in lower for w in ("yaml", "spec", "contract")):
            out[key] = atom.spec
        elif "field" in lower:
            out[key] = list(atom.fields)
        elif "pattern" in lower:
            out[key] = next(
                (
                    x.split(":", 1)[1].strip().strip("'")
                    for x in atom.spec.splitlines()
                    if "pattern:" in x
                ),
                "",
            )
        else:
            out[key] = (
                f"Atom {atom.name}: extracts {', '.join(atom.fields)}; value field {atom.value_field}."
            )
    return json.dumps(out, indent=2)


def validator_tool(conv: Conversation) -> ToolSpec | None:
    for spec in conv.tools.values():
        if any(h in spec.name.lower() for h in _VALIDATOR_HINTS) and any(
            a in spec.properties for a in _CODE_ARGS
        ):
            return spec
    return None


def _validator_args(spec: ToolSpec, atom: Atom) -> dict[str, str]:
    args = {}
    code_arg = next(a for a in _CODE_ARGS if a in spec.properties)
    args[code_arg] = atom.code
    spec_arg = next((a for a in _SPEC_ARGS if a in spec.properties), None)
    if spec_arg:
        args[spec_arg] = atom.spec
    return args


def _markdown(atom: Atom, intent: str, sample: str, verdicts: list[str], request: str) -> str:
    fields = human_list([f"`{f}`" for f in atom.fields])
    how = "the access-log line format" if atom.access_log else "one named-group pattern per field"
    parts = []
    errors = [line.strip(" -*") for line in request.splitlines() if _ERRORS.search(line)]
    if errors:
        fixes = "\n".join(f"- {shorten(e, 140)}" for e in errors[:6])
        parts.append(
            "Addressing the reported problems:\n\n"
            + fixes
            + "\n\nThe regenerated atom casts every "
            "value to `str`, returns the standard item keys, and does no I/O."
        )
    parts.append(
        f"Here is an atom for **{shorten(intent, 90)}**. It extracts {fields} using {how}, "
        f"and uses `{atom.value_field}` as each item's value."
    )
    parts.append(f"```python\n{atom.code}```")
    parts.append(f"The spec that drives it:\n\n```yaml\n{atom.spec}```")
    if sample:
        rows = extract_sample(atom, sample)
        if rows:
            header = "| # | " + " | ".join(atom.fields) + " |\n|---|" + "---|" * len(atom.fields)
            body = "\n".join(
                f"| {i} | "
                + " | ".join(f"`{r.get(f, '')}`" if r.get(f) else "" for f in atom.fields)
                + " |"
                for i, r in enumerate(rows[:8], start=1)
            )
            parts.append(f"On your sample it finds {len(rows)} item(s):\n\n{header}\n{body}")
        else:
            parts.append(
                f"None of the sample lines carry `{atom.value_field}`; check the field names."
            )
    for verdict in verdicts:
        parts.append(_verdict(verdict))
    return "\n\n".join(parts)


def _verdict(text: str) -> str:
    """The validator's verdict, whether it answered JSON or ``VALID``/``INVALID`` text."""
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict) and "valid" in data:
        valid, errors = bool(data["valid"]), [str(e) for e in data.get("errors", [])]
    elif re.match(r"\s*(?:VALID|PASS|OK)\b", text):
        valid, errors = True, []
    elif re.match(r"\s*(?:INVALID|FAIL)", text):
        valid = False
        errors = [
            x.split(":", 1)[1].strip() for x in text.splitlines() if x.lower().startswith("error:")
        ]
    else:
        return f"**Compliance check:** {shorten(text, 300)}"
    if valid:
        return "**Compliance check: passed.**"
    listed = "\n".join(f"- {shorten(e, 140)}" for e in errors[:6]) or f"- {shorten(text, 200)}"
    return f"**Compliance check: failed.**\n\n{listed}"
