"""A family of offline-model rules for the tools it names, as a profile brings it.

A family is asked like any rule (a conversation in, a reply or ``None`` out). Its tool names
tell the generic rule for unknown tools to leave those tools alone: when the family has nothing
to say about a turn, its tools are still not called or summarised as if nobody knew them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from agents.offline.conversation import Conversation
from agents.offline.reply import Reply

Rule = Callable[[Conversation], Reply | None]
"""A conversation in, a reply or ``None`` (not this rule's business) out."""


@dataclass(frozen=True, slots=True)
class RuleFamily:
    """``decide`` for the tools named in ``tools``."""

    tools: frozenset[str]
    decide: Rule

    def __call__(self, conv: Conversation) -> Reply | None:
        return self.decide(conv)


def claimed_tools(rules: Iterable[object]) -> frozenset[str]:
    """The tool names the rule families among ``rules`` answer for (plain rules claim none)."""
    return frozenset(name for rule in rules if isinstance(rule, RuleFamily) for name in rule.tools)
