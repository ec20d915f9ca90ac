"""The ide-helper's rules for the offline model: plan code-tool calls from the request and the
results so far, then answer citing ``file:line`` (:mod:`.rules`, :mod:`.intent`,
:mod:`.answers`, :mod:`.edits`). The offline engine asks :data:`RULES` before its generic
rules on the ide-helper's turns (``Profile.offline_rules``)."""

from __future__ import annotations

from agents.offline.family import RuleFamily
from agents.profiles.ide_helper.offline.rules import FAMILY, decide

RULES = RuleFamily(frozenset(FAMILY), decide)

__all__ = ["RULES"]
