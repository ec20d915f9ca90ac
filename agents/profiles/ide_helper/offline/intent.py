"""What a user asks of the code tools, read from their words.

File paths (a token with ``/`` or a known extension), globs (``*.py``), line ranges, search
terms (quoted, backticked or code-like names), and edit requests ("rename X to Y in FILE",
"add a docstring to f"). Pure parsing: the rules in ``code_tools`` decide what to call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agents.offline.text import identifiers, keywords, quoted_terms

_EXTENSION_LIST = "py pyi md rst txt toml cfg ini json jsonl yaml yml js jsx ts tsx css tcss html sh bash rs go java kt c h cpp hpp rb php sql csv xml lock env log conf properties scss vue svelte swift cs lua tf proto graphql dart scala ex exs zig"
EXTENSIONS = frozenset(_EXTENSION_LIST.split())
_KNOWN_NAMES = {"makefile", "dockerfile", "readme", "license", ".gitignore", "justfile"}
_NOT_PATHS = {"and/or", "i/o", "n/a", "w/o", "either/or", "true/false", "yes/no"}
_LANGUAGE_GLOBS = {
    "python": "*.py",
    "markdown": "*.md",
    "javascript": "*.js",
    "typescript": "*.ts",
    "yaml": "*.yaml",
    "json": "*.json",
    "toml": "*.toml",
    "test": "test_*.py",
    "css": "*.tcss",
}
_CODE_KINDS = (
    r"(?:function|func|fn|method|def|class|struct|type|variable|var|constant|const|field|"
    r"attribute|property|parameter|param|argument|arg|module)"
)
"""Words naming what kind of thing a rename is about ("rename the function X to Y")."""
_EDIT = re.compile(
    r"\b(?:rename|replace|change)\s+(?:(?:the|a|an)\s+)?(?:" + _CODE_KINDS + r"\s+)?"
    r"(?P<old>`[^`]+`|\"[^\"]+\"|'[^']+'|\S+)\s+"
    r"(?:with|to|into|by)\s+(?P<new>`[^`]+`|\"[^\"]+\"|'[^']+'|\S+)",
    re.IGNORECASE,
)
_CODE_PHRASE = re.compile(
    r"(?:search(?: the code)?(?: for)?|find|grep(?: for)?|look(?:ing)? for|where(?:'s| is| are))"
    r"\s+(?:the\s+|a\s+)?(?P<phrase>(?:async\s+def|def|class|import|fn|func|struct|interface|"
    r"impl)\s+(?!(?:that|which|who|where|with|is|are|was|used|defined|called|in|of|for|the|"
    r"a|an|to)\b)[A-Za-z_][\w.]*)",
    re.IGNORECASE,
)
"""A search for a piece of code ("search for def main", "find class Greeter", "grep for import
json"): searched as written, keyword and all."""
_DOCSTRING = re.compile(
    r"\badd\s+(?:a\s+|some\s+)?docstrings?(?:\s+(?:to|for)\s+(?:the\s+)?"
    r"(?:function\s+|method\s+|class\s+)?(?P<target>`?[A-Za-z_][\w.]*(?:\(\))?`?))?",
    re.IGNORECASE,
)
_FIRST_LINES = re.compile(r"\bfirst\s+(\d+)\s+lines?\b", re.IGNORECASE)
_KIND_AFTER = re.compile(
    r"\b(?:the\s+)?`?(?P<name>[A-Za-z_]\w*)`?(?:\(\))?\s+(?:function|class|method)\b",
    re.IGNORECASE,
)
_KIND_BEFORE = re.compile(
    r"\b(?:function|class|method)\s+`?(?P<name>[A-Za-z_]\w*)`?", re.IGNORECASE
)
_EXPLAIN = re.compile(
    r"\b(?:explain|describe|what does|what do|what is|what's|how does|how do|tell me about|"
    r"show me|walk me through)\b",
    re.IGNORECASE,
)
_NOT_SYMBOLS = frozenset({
    "the", "this", "that", "which", "each", "every", "a", "an", "what", "its", "my", "your",
    "new", "old", "is", "does", "do", "of", "to", "in", "for", "and", "or", "any", "some", "one",
})  # fmt: skip
"""Words that stand before "function" or "class" without naming one."""
_RANGE = re.compile(r"\blines?\s+(\d+)\s*(?:-|–|to|through|until)\s*(\d+)", re.IGNORECASE)
_ONE_LINE = re.compile(r"\bline\s+(\d+)\b", re.IGNORECASE)
_NOT_AFTER_A_DETERMINER = "".join(
    rf"(?<!\b{word}\s)" for word in ("a", "an", "the", "my", "this", "your", "our", "that")
)
_LIST = re.compile(
    rf"{_NOT_AFTER_A_DETERMINER}\blist\b|"  # a verb: "list the files", not "reverse a list"
    r"\b(?:files|tree|ls|directory|directories|folders?|structure|layout)\b|"
    r"what(?:'s| is) in\b|contents of\b",
    re.IGNORECASE,
)
_LIST_VERB = re.compile(
    r"\b(?:list|ls|show)\s+(?:me\s+)?(?:all\s+)?(?:of\s+)?(?:the\s+)?"
    r"(?:files|folders?|director(?:y|ies)|contents|tree)\b",
    re.IGNORECASE,
)
"""An explicit request for a listing ("list the files", "show me the folders"), which holds
even when the same message also names a file to read."""
_SEARCH = re.compile(
    r"\b(?:search|find|grep|look(?:ing)? for|usages?|occurrences?|references?|defined|"
    r"who calls|callers? of|mentions?)\b|where(?:'s| is| are| do)\b",
    re.IGNORECASE,
)
_OVERVIEW = re.compile(
    r"\b(?:project|repo|repository|codebase|code base|this code)\b", re.IGNORECASE
)
_SEARCH_OBJECT = re.compile(
    r"(?:search(?: the code)?(?: for)?|find|grep(?: for)?|look(?:ing)? for|usages? of|"
    r"occurrences? of|references? to|callers? of|who calls|where(?:'s| is| are))\s+"
    r"(?:all\s+(?:the\s+)?|every\s+)?(?:the\s+|a\s+|an\s+)?"
    r"(?:function\s+|class\s+|method\s+|word\s+|string\s+)?"
    r"(?P<term>[^\s?,;!]+)",
    re.IGNORECASE,
)


_FILES_THAT = re.compile(
    r"\b(?:which|what|the)\s+(?:\w+\s+)?(?:files?|modules?)\s+(?:that\s+)?"
    r"(?:imports?|uses?|calls?|mentions?|contains?|references?|defines?)\s+"
    r"(?:the\s+)?(?P<term>[`\"']?[A-Za-z_][\w.]*[`\"']?)",
    re.IGNORECASE,
)
"""A search phrased as a question about files ("which files import textual?")."""
_NAMED_FILES = {"readme": "README.md", "pyproject": "pyproject.toml"}
"""Files people name without their extension."""


@dataclass(frozen=True, slots=True)
class CodeIntent:
    """The parts of a request the code tools can act on."""

    files: tuple[str, ...] = ()
    directories: tuple[str, ...] = ()
    pattern: str | None = None
    line_range: tuple[int, int] | None = None
    search_term: str | None = None
    wants_list: bool = False
    lists_explicitly: bool = False
    wants_search: bool = False
    wants_overview: bool = False
    symbol: str | None = None
    """A function, class or method the user asks about ("what does the main function do?")."""
    rename: tuple[str, str] | None = None
    docstring: bool = False
    docstring_target: str | None = None
    terms: tuple[str, ...] = field(default_factory=tuple)

    @property
    def wants_edit(self) -> bool:
        return self.rename is not None or self.docstring


def _unquote(text: str) -> str:
    return text.strip().strip("`\"'").rstrip(".,;:!?)").strip("`\"'")


def _is_file_token(token: str) -> bool:
    lower = token.lower()
    if lower in _NOT_PATHS or "://" in token or "*" in token or token.startswith("@"):
        return False
    name = lower.rsplit("/", 1)[-1]
    if name in _KNOWN_NAMES or name.split(".")[0] in _KNOWN_NAMES:
        return True
    return "." in name and name.rsplit(".", 1)[-1] in EXTENSIONS and len(name) > 2


def _is_dir_token(token: str) -> bool:
    if token.lower() in _NOT_PATHS or "://" in token or "*" in token:
        return False
    return (
        "/" in token and not _is_file_token(token) and re.fullmatch(r"[\w./-]+", token) is not None
    )


def parse_code_intent(text: str) -> CodeIntent:
    """Read ``text`` for files, folders, globs, line ranges, search terms and edits."""
    files: list[str] = []
    directories: list[str] = []
    for raw in text.split():
        token = _unquote(raw)
        token = _NAMED_FILES.get(token.lower(), token)
        if _is_file_token(token) and token not in files:
            files.append(token.removeprefix("./"))
        elif _is_dir_token(token) and token not in directories:
            directories.append(token.rstrip("/") or ".")

    pattern = next(
        (
            t
            for t in re.findall(r"[\w/.*-]*\*[\w/.*-]*", text)
            if re.search(r"[\w.]", t) and not re.fullmatch(r"\*\*[^*]+\*\*", t)
        ),
        None,
    )
    lower = text.lower()
    wants_list = bool(_LIST.search(text))
    if pattern is None and wants_list:
        pattern = next(
            (glob for word, glob in _LANGUAGE_GLOBS.items() if re.search(rf"\b{word}\b", lower)),
            None,
        )
    if wants_list and not directories:
        match = re.search(
            r"\b(?:in|under|inside|of)\s+(?:the\s+)?`?([\w.-]+)`?\s*(?:folder|directory|dir)?", text
        )
        name = match.group(1) if match else ""
        generic = {"this", "the", "project", "repo", "it", *_LANGUAGE_GLOBS}
        if name and name.lower() not in generic and not _is_file_token(name):
            directories.append(name)

    line_range = None
    if match := _RANGE.search(text):
        line_range = (int(match.group(1)), int(match.group(2)))
    elif match := _FIRST_LINES.search(text):
        line_range = (1, max(1, int(match.group(1))))
    elif match := _ONE_LINE.search(text):
        line_range = (int(match.group(1)), int(match.group(1)))

    rename = None
    if match := _EDIT.search(text):
        old, new = _unquote(match.group("old")), _unquote(match.group("new"))
        if old and new and old != new and not _is_file_token(new):
            rename = (old, new)
    docstring = _DOCSTRING.search(text)
    target = (
        _unquote(docstring.group("target")) if docstring and docstring.group("target") else None
    )
    if target and _is_file_token(target):
        target = None

    quoted = [q for q in quoted_terms(text) if not _is_file_token(q)]
    path_parts = {part for path in [*files, *directories] for part in re.split(r"[/.]", path)}
    names = [
        n
        for n in identifiers(text)
        if not _is_file_token(n)
        and "/" not in n
        and not (pattern and n in pattern)
        and n not in path_parts  # "weaver_tui" of weaver_tui/cli/__init__.py names no term
    ]
    search_term = None
    wants_search = bool(_SEARCH.search(text)) or bool(quoted)
    phrase = _CODE_PHRASE.search(text)
    files_that = _FILES_THAT.search(text)
    if quoted:
        search_term = quoted[0]
    elif files_that:
        search_term = _unquote(files_that.group("term"))
        wants_search, wants_list = True, False
    elif phrase:
        search_term = phrase.group("phrase")
    elif names:
        search_term = names[0]
    elif match := _SEARCH_OBJECT.search(text):
        candidate = _unquote(match.group("term"))
        if (
            candidate
            and "*" not in candidate
            and candidate.lower() not in {"files", "file", "all", "it", "me"}
        ):
            # "TODOs", "FIXMEs": the marker as it is written in code
            search_term = re.sub(r"^([A-Z]{3,})s$", r"\1", candidate)

    asks_about_paths = bool(files or directories or wants_list)
    symbol = _symbol(text, names) if not (asks_about_paths or rename or docstring) else None
    return CodeIntent(
        files=tuple(files),
        directories=tuple(directories),
        pattern=pattern,
        line_range=line_range,
        search_term=search_term,
        wants_list=wants_list,
        lists_explicitly=bool(_LIST_VERB.search(text)),
        wants_search=wants_search and search_term is not None,
        wants_overview=bool(_OVERVIEW.search(text)),
        symbol=symbol,
        rename=rename,
        docstring=docstring is not None,
        docstring_target=target,
        terms=tuple(keywords(text)),
    )


def _symbol(text: str, names: list[str]) -> str | None:
    """The function or class ``text`` asks about: named with its kind ("the main function",
    "class Greeter"), or a code-like name after "explain" / "what does"."""
    for pattern in (_KIND_BEFORE, _KIND_AFTER):
        for match in pattern.finditer(text):
            name = match.group("name")
            if name.lower() not in _NOT_SYMBOLS:
                return name
    plain = [name for name in names if re.fullmatch(r"[A-Za-z_]\w*", name)]
    if plain and _EXPLAIN.search(text):
        return plain[0]
    return None
