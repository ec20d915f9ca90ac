"""Level 1: the syntax tree check passes the good atoms and names each broken rule."""

from __future__ import annotations

import textwrap

import pytest

from agents.profiles.atom_developer.validation import validate
from agents.profiles.atom_developer.validation.static_check import (
    FORBIDDEN_BUILTINS,
    check_static,
)


def atom(body: str, header: str = "") -> str:
    """``check_existence`` whose body holds ``body``, after module lines ``header``."""
    inner = textwrap.indent(textwrap.dedent(body).strip(), "    ")
    return f"{header}\ndef check_existence(items):\n{inner}\n    return {{}}\n"


def errors_of(code: str) -> str:
    return "\n".join(check_static(code).errors)


def test_the_good_atoms_pass_level_1(good_atoms: str) -> None:
    result = check_static(good_atoms)
    assert result.errors == []
    assert result.atoms == ("extract_context", "validate_logic", "check_existence")


@pytest.mark.parametrize("name", sorted(FORBIDDEN_BUILTINS))
def test_every_forbidden_builtin_is_refused_when_named(name: str) -> None:
    expected = DUNDER if "__" in name else f"forbidden builtin '{name}'"
    assert expected in errors_of(atom(f"f = {name}"))


OUTSIDE = ["os", "sys", "subprocess", "socket", "shutil", "pathlib", "importlib", "ctypes"]
OUTSIDE += ["functools", "enum", "operator", "string", "collections", "dataclasses", "itertools"]


@pytest.mark.parametrize("module", OUTSIDE)
def test_an_import_outside_the_allowlist_is_refused(module: str) -> None:
    found = errors_of(atom("pass", f"import {module}"))
    assert f"forbidden import '{module}' (atoms do no I/O; allowed: datetime, fnmatch" in found
    assert f"forbidden import '{module}'" in errors_of(atom(f"from {module} import x"))


def test_only_the_listed_names_of_an_allowed_module_may_be_used() -> None:
    assert errors_of(atom("x = re.search('a', 'b')", "import re\nfrom typing import Any")) == ""
    assert "forbidden import 'decoder' from 'json'" in errors_of(
        atom("pass", "from json import decoder")
    )
    assert "'re.strip' is not a name an atom may use" in errors_of(
        atom("x = re.strip", "import re")
    )
    assert NOT_READABLE in errors_of(atom("x = re.enum", "import re"))
    assert "forbidden import 'json.decoder'" in errors_of(atom("pass", "import json.decoder"))


def test_a_module_that_is_an_attribute_of_an_allowed_one_is_refused() -> None:
    assert "forbidden import 'sys' from 'typing'" in errors_of(
        atom("pass", "from typing import sys")
    )


DUNDER = "holds '__'"
NOT_READABLE = "is not one an atom may read"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("x = typing.sys.modules", NOT_READABLE),
        ("x = re.__builtins__", DUNDER),
        ("x = ().__class__.__base__.__subclasses__()", DUNDER),
        ("x = f.__globals__", DUNDER),
        ("g = (i for i in ())\nx = g.gi_frame.f_back.f_globals", "attribute '.gi_frame' walks"),
        ("x = g.f_back", "attribute '.f_back' walks"),
        ("x = __builtins__", DUNDER),
        ("x = items.__dict__", DUNDER),
        ('x = "{0.__class__}".format(items)', "attribute '.format' reads attributes named in a string"),
        ('x = "{x.y}".format(x=items)', "attribute '.format' reads attributes named in a string"),
        ('x = "{0}".format_map(items)', "attribute '.format_map' reads attributes named in a string"),
        ("t = '{}'\nx = t.format(items)", "attribute '.format' reads attributes named in a string"),
        ("x = items.update_wrapper", NOT_READABLE),
        ("x = items.attrgetter", NOT_READABLE),
        ("x = items.Formatter", NOT_READABLE),
        ("global x", "'global' keeps state"),
        ("def inner():\n    nonlocal items", "'nonlocal' keeps state"),
        ("class A:\n    pass", "class 'A': atoms are plain functions"),
        ("x = '__globals__'", DUNDER),
        ("x = '_' '_globals__'", DUNDER),
        ("x = b'__code__'", DUNDER),
        ("x = f'{items}__globals__'", DUNDER),
        ("x = f'{items:__>4}'", DUNDER),
        ("x = dict(__class__=1)", DUNDER),
        ("def inner(__x):\n    pass", DUNDER),
        ("match items:\n    case int(x):\n        pass", "a class pattern in match reads attributes by name"),
        ("match items:\n    case object(a=b):\n        pass", "a class pattern in match reads attributes by name"),
        ("@len\ndef inner():\n    pass", "decorator on 'inner'"),
    ],
)  # fmt: skip
def test_sandbox_escapes_and_state_are_refused(body: str, message: str) -> None:
    assert message in errors_of(atom(body, "import re\nimport typing"))


def test_the_reported_attribute_by_string_routes_fail_level_1() -> None:
    wrapper = atom(
        'm = functools.update_wrapper(lambda: 0, check_existence, assigned=("__globals__",))',
        "import functools",
    )
    members = atom(
        "match E.A:\n    case E(g):\n        return g",
        'import enum\nE = enum.Enum("X", [("A", 1), ("__match_args__", ("__globals__",))])',
    )
    for code in (wrapper, members):
        report = validate(code)
        assert [level.status for level in report.levels] == ["failed", "skipped", "skipped"]


@pytest.mark.parametrize("name", ["getattr", "setattr", "vars", "type", "object", "eval", "exec", "dir", "super", "globals", "locals", "open", "memoryview", "input", "breakpoint", "compile", "format", "hasattr", "id", "print", "property"])  # fmt: skip
def test_builtins_outside_the_allowlist_are_refused_in_any_role(name: str) -> None:
    for body in (f"x = {name}", f"{name} = 1", f"def inner({name}):\n    pass", f"x = [{name} for {name} in items]"):  # fmt: skip
        assert f"forbidden builtin '{name}'" in errors_of(atom(body))


def test_a_name_the_module_itself_binds_may_shadow_a_builtin() -> None:
    assert errors_of(atom("x = compile('a')", "from re import compile")) == ""
    assert "forbidden builtin 'compile'" in errors_of(atom("from re import compile\nx = compile"))


def test_module_level_state_and_async_functions_are_refused() -> None:
    found = errors_of(atom("pass", "counter = len([])\nasync def later():\n    pass"))
    assert "module level holds only imports, constants and functions" in found
    assert "async function 'later'" in found


def test_constants_and_compiled_patterns_are_allowed_at_module_level() -> None:
    header = '"""Doc."""\nimport re\nLIMIT = 3\nNAMES = ("a", "b")\nCODE = re.compile(r"\\d+")'
    assert errors_of(atom("pass", header)) == ""


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("def extract_context(text, path):\n    return str(text)", "extract_context must have the signature (text, source_file)"),
        (
            "import re\ndef validate_logic(text, pattern, parsed_fields=None, default_match='exact', regex_mode='search'):\n    return re.match(pattern, text) or re.search(pattern, text)",
            "validate_logic must have the signature (text, pattern, parsed_fields=None, default_match='contains', regex_mode='search')",
        ),
        ("def check_existence(items, more):\n    return {}", "check_existence must have the signature (items)"),
    ],
)  # fmt: skip
def test_the_known_atoms_keep_their_signatures(code: str, message: str) -> None:
    assert message in errors_of(code)


def test_extract_context_must_cast_with_str() -> None:
    code = "def extract_context(text, source_file):\n    return [text]"
    assert "extract_context must cast every value with str(...)" in errors_of(code)


def test_validate_logic_must_use_re_match_and_re_search() -> None:
    code = (
        "import re\ndef validate_logic(text, pattern, parsed_fields=None,"
        " default_match='contains', regex_mode='search'):\n    return re.search(pattern, text)"
    )
    assert "(missing: re.match)" in errors_of(code)


def test_a_syntax_error_names_its_line_and_column() -> None:
    assert errors_of("x = 1\n\ndef f(:\n") == "syntax error at line 3, column 7: invalid syntax"


def test_a_file_without_any_atom_is_refused() -> None:
    found = errors_of("def helper(x: str) -> str:\n    return str(x)\n")
    assert found == "no atom found: define extract_context, validate_logic or check_existence"


def test_missing_type_hints_are_warnings_not_errors() -> None:
    result = check_static(atom("pass"))
    assert result.errors == []
    assert "check_existence: parameter 'items' has no type hint" in result.warnings


def test_a_level_1_failure_skips_the_other_levels_and_runs_nothing() -> None:
    report = validate(atom("import os"))
    assert [level.status for level in report.levels] == ["failed", "skipped", "skipped"]
    assert report.levels[1].note == "level 1 failed: the code is never run"
    assert not report.valid


CLASS_PATTERN_EXPLOIT = """
import typing


def check_existence(items):
    match typing:
        case object(sys=s):
            modules = s.modules
    spawn = modules["_posixsubprocess"].fork_exec
    return {"is_match": True, "reason": str(spawn), "evidence": []}
"""


def test_the_class_pattern_exploit_fails_level_1_and_never_runs() -> None:
    report = validate(CLASS_PATTERN_EXPLOIT)
    assert [level.status for level in report.levels] == ["failed", "skipped", "skipped"]
    found = "\n".join(report.levels[0].errors)
    assert "a class pattern in match reads attributes by name" in found
    assert "the key '_posixsubprocess' is forbidden" in found


@pytest.mark.parametrize("name", ["sys", "posix", "_imp", "_frozen_importlib", "_posixsubprocess"])
def test_the_import_machinery_is_unreachable_by_any_name(name: str) -> None:
    assert f"the name '{name}' is forbidden" in errors_of(atom(f"{name} = items"))
    assert f"the name '{name}' is forbidden" in errors_of(atom(f"x = items.{name}"))


def test_helpers_that_evaluate_text_cannot_be_imported() -> None:
    assert "forbidden import 'get_type_hints' from 'typing'" in errors_of(
        atom("pass", "from typing import get_type_hints")
    )


def test_everyday_methods_of_plain_data_stay_allowed() -> None:
    body = "y = dict(a=1).copy()\nz = ' a '.strip().split()\nw = re.match('a', 'a').group(0)"
    assert errors_of(atom(body, "import re")) == ""


@pytest.mark.parametrize(
    "expression",
    [
        "+".join(["1"] * 60_000),
        "(" * 10_000 + "1" + ")" * 10_000,
        "not " * 100_000 + "1",
        "x" + ".a" * 900,
        "x" + "()" * 100_000,
    ],
    ids=["60k-terms", "10k-brackets", "100k-nots", "900-attributes", "100k-calls"],
)
def test_a_parser_limit_is_one_sentence_not_a_traceback(expression: str) -> None:
    result = check_static(f"def check_existence(items):\n    return {expression}\n")
    (error,) = result.errors
    assert "\n" not in error
    assert error.endswith(("functions", "parentheses"))


ATTRIBUTE_BY_STRING = [
    ('x = getattr(items, "real")', ""),
    ('x = hasattr(items, "real")', ""),
    ("x = vars(items)", ""),
    ("x = dir(items)", ""),
    ('x = items.__getattribute__("real")', ""),
    ('x = object.__getattribute__(items, "real")', ""),
    ("x = type(items)", ""),
    ("x = items.mro()", ""),
    ('x = "{0.real}".format(1)', ""),
    ('x = "{0.real}".format_map({})', ""),
    ('x = operator.attrgetter("real")(1)', "import operator"),
    ('x = attrgetter("real")', "from operator import attrgetter"),
    ('x = string.Formatter().get_field("0.real", [1], {})', "import string"),
    ("x = typing.get_type_hints(check_existence)", "import typing"),
    ('x = typing.NamedTuple("X", [("a", int)])', "import typing"),
    ('x = dataclasses.make_dataclass("X", ["a"])', "import dataclasses"),
    ('x = collections.namedtuple("X", "a")', "import collections"),
    ('x = inspect.getattr_static(items, "real")', "import inspect"),
    ("x = json.JSONDecoder(object_hook=len)", "import json"),
    ("x = re.Scanner([])", "import re"),
    ("x = functools.partial(len)", "import functools"),
]


@pytest.mark.parametrize(("body", "header"), ATTRIBUTE_BY_STRING)
def test_every_known_route_that_reads_an_attribute_by_string_fails_level_1(
    body: str, header: str
) -> None:
    assert check_static(atom(body, header)).errors
