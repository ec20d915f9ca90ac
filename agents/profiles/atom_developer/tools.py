"""atom-developer's tools (interim): the static contract check."""

from __future__ import annotations

from langchain_core.tools import BaseTool, tool

from agents.profiles.atom_developer.contract import check_atom


@tool
def validate_atom(code: str) -> str:
    """Check Python atom code against the Architecture 10.2 atom contract, without running it.

    Call it with the complete code of every atom you wrote, before you show it to the user,
    and fix every error it reports, then call it again. It checks: the code parses; it defines
    plain functions with type hints on every parameter and the return; no I/O calls (open,
    print, eval, exec ...); imports only from the allowlist (re, typing, collections, ...);
    nothing stateful at module level; the known atoms keep their signatures
    (extract_context(text, source_file), validate_logic(text, pattern, parsed_fields,
    default_match, regex_mode), check_existence(items)); extract_context casts values with
    str(); validate_logic uses re.match and re.search. Returns VALID or INVALID with findings.
    """
    return check_atom(code).render()


def make_tools() -> list[BaseTool]:
    return [validate_atom]
