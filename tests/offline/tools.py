"""Small real tools with the profiles' names and signatures, for driving the offline model.

They do real work on a temporary folder (read, list, grep, diff) or record deliveries, so a
test sees the offline model react to genuine tool output rather than canned strings.
"""

from __future__ import annotations

import difflib
import fnmatch
import json
import re
from pathlib import Path

from langchain_core.tools import BaseTool, tool

from agents.offline import OfflineChatModel
from agents.profiles.ide_helper.offline import STEPS as IDE_HELPER_STEPS
from agents.profiles.mediator.offline import STEPS as MEDIATOR_STEPS


def ide_helper_model() -> OfflineChatModel:
    """The offline model as the runtime gives it to the ide-helper: with its steps."""
    return OfflineChatModel().with_steps(IDE_HELPER_STEPS)


def mediator_model() -> OfflineChatModel:
    """The offline model as the runtime gives it to the mediator: with its steps."""
    return OfflineChatModel().with_steps(MEDIATOR_STEPS)


def code_tools(root: Path) -> list[BaseTool]:
    """``read_file``, ``list_files``, ``search_code``, ``propose_edit`` confined to ``root``."""

    def resolve(path: str) -> Path:
        target = (root / path).resolve()
        if not target.is_relative_to(root.resolve()):
            raise ValueError(f"{path} is outside the project")
        return target

    @tool
    def read_file(path: str, start_line: int | None = None, end_line: int | None = None) -> str:
        """Read a text file of the project, with line numbers."""
        target = resolve(path)
        if not target.is_file():
            return f"Error: {path} does not exist."
        lines = target.read_text(encoding="utf-8").splitlines()
        start = start_line or 1
        end = min(end_line or len(lines), len(lines))
        body = "\n".join(f"{n:>4} | {lines[n - 1]}" for n in range(start, end + 1))
        return f"{path} (lines {start}-{end} of {len(lines)})\n{body}"

    @tool
    def list_files(directory: str = ".", pattern: str | None = None) -> str:
        """List the files under a directory of the project, optionally matching a glob pattern."""
        base = resolve(directory)
        found = sorted(
            p.relative_to(root).as_posix()
            for p in base.rglob("*")
            if p.is_file() and (pattern is None or fnmatch.fnmatch(p.name, pattern))
        )
        what = f" matching '{pattern}'" if pattern else ""
        return (
            "\n".join([f"{len(found)} files{what} in {directory}:", *found])
            if found
            else "No files."
        )

    @tool
    def search_code(query: str, max_results: int = 50, regex: bool = False) -> str:
        """Search the project's files for a string; returns file:line: text lines."""
        hits = _matching_lines(root, re.compile(query if regex else re.escape(query)))
        if not hits:
            return f"No matches for {query!r}."
        return "\n".join([*hits[:max_results], "", f"{len(hits)} matching lines."])

    @tool
    def propose_edit(path: str, start_line: int, end_line: int, new_content: str) -> str:
        """Propose replacing lines start_line..end_line of a file with new_content; returns a unified diff and never writes."""
        target = resolve(path)
        old = target.read_text(encoding="utf-8").splitlines(keepends=True)
        new = (
            old[: start_line - 1]
            + [line + "\n" for line in new_content.split("\n")]
            + old[end_line:]
        )
        diff = "".join(difflib.unified_diff(old, new, f"a/{path}", f"b/{path}"))
        return f"Proposed patch for {path}; it is waiting for review.\n```diff\n{diff}```"

    return [read_file, list_files, search_code, propose_edit]


def _matching_lines(root: Path, matcher: re.Pattern[str]) -> list[str]:
    """``file:line: text`` for every line under ``root`` that ``matcher`` finds."""
    hits = []
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if matcher.search(line):
                hits.append(f"{path.relative_to(root).as_posix()}:{n}: {line.strip()}")
    return hits


def mediator_tools(
    participants: tuple[str, ...], deliveries: list[dict[str, str]]
) -> list[BaseTool]:
    """``reply_privately`` and ``post_to_shared`` that record what they deliver."""

    @tool
    def reply_privately(recipient: str, content: str) -> str:
        """Send a message that only the named participant can see."""
        if recipient not in participants:
            return (
                f"Error: unknown recipient {recipient}; participants are {', '.join(participants)}."
            )
        deliveries.append({"to": recipient, "content": content})
        return f"Private message delivered to {recipient}."

    @tool
    def post_to_shared(content: str) -> str:
        """Post a message to the shared space that every participant sees."""
        deliveries.append({"to": "shared", "content": content})
        return "Posted to the shared space."

    return [reply_privately, post_to_shared]


PAPERS = [
    {
        "title": "LoRA: Low-Rank Adaptation of Large Language Models",
        "source": "papers/lora.pdf",
        "text": "LoRA freezes the pretrained weights. It injects trainable low-rank matrices into each "
        "Transformer layer. This reduces the number of trainable parameters by 10,000 times for GPT-3. "
        "LoRA adds no inference latency because the matrices can be merged.",
    },
    {
        "title": "Attention Is All You Need",
        "source": "papers/transformer.pdf",
        "text": "The Transformer relies entirely on attention mechanisms. It dispenses with recurrence "
        "and convolutions. Multi-head attention lets the model attend to different positions.",
    },
    {
        "title": "QLoRA: Efficient Finetuning of Quantized LLMs",
        "source": "papers/qlora.pdf",
        "text": "QLoRA backpropagates through a frozen 4-bit quantized model into LoRA adapters. "
        "It finetunes a 65B parameter model on a single 48GB GPU.",
    },
]


def knowledge_tools(queries: list[str], as_json: bool = False) -> list[BaseTool]:
    """``query_knowledge_hub`` over three paper abstracts, ranked by shared words."""

    @tool
    def query_knowledge_hub(query: str, top_k: int = 2) -> str:
        """Search the research knowledge base (hybrid retrieval) and return the best chunks with their sources."""
        queries.append(query)
        terms = set(re.findall(r"\w+", query.lower()))
        ranked = sorted(
            PAPERS,
            key=lambda p: (
                -len(terms & set(re.findall(r"\w+", (p["title"] + " " + p["text"]).lower())))
            ),
        )[:top_k]
        if as_json:
            return json.dumps({"results": ranked})
        return "\n".join(
            f"[{i}] {p['title']}\nSource: {p['source']}\n{p['text']}"
            for i, p in enumerate(ranked, 1)
        )

    return [query_knowledge_hub]
