"""Stylesheets parsed once per test process, not once per app.

Textual keeps the rules it parsed in a cache of each app's stylesheet, so every new ``App``
parses every stylesheet again (the app's file and each widget's ``DEFAULT_CSS``): about a tenth
of the CPU of starting the chat screen. The app starts once in a real process; a test process
starts hundreds, with the same stylesheets and the same few themes. :func:`install` keeps the
parsed rules for the whole process, keyed as Textual keys its own cache plus the stylesheet's
variables (the theme), so an app gets exactly the rules its own parse would give. Parsed rules
are not changed once built (the stylesheet only reads them), so apps can share them.
"""

from __future__ import annotations

from typing import Any

from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.css.types import CSSLocation

_parsed: dict[tuple[Any, ...], list[RuleSet]] = {}
_own_parse = Stylesheet._parse_rules


def _variables_key(stylesheet: Stylesheet) -> tuple[tuple[str, str], ...]:
    """The stylesheet's variables as a key, worked out once per set of variables."""
    variables = stylesheet._variables
    known: tuple[dict[str, str], tuple[tuple[str, str], ...]] | None = getattr(
        stylesheet, "_shared_variables_key", None
    )
    if known is not None and known[0] is variables:
        return known[1]
    key = tuple(sorted(variables.items()))
    stylesheet._shared_variables_key = (variables, key)  # type: ignore[attr-defined]
    return key


def _parse_rules(
    self: Stylesheet,
    css: str,
    read_from: CSSLocation,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> list[RuleSet]:
    key = (css, read_from, is_default_rules, tie_breaker, scope, _variables_key(self))
    rules = _parsed.get(key)
    if rules is None:
        rules = _own_parse(self, css, read_from, is_default_rules, tie_breaker, scope)
        _parsed[key] = rules
    return rules


def install() -> None:
    """Share parsed stylesheets between the apps of this process."""
    Stylesheet._parse_rules = _parse_rules  # type: ignore[method-assign]
