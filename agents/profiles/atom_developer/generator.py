"""The offline model's atom writer: Architecture 10.2 atoms from a log-parsing intent.

"Extract the IP and status code from nginx access logs" names fields (``ip``, ``status``) and
a format (an access log); the generator picks named-group regexes for those fields, writes
``extract_context(text, source_file)`` (Atom A, values cast to ``str``, the standard item
keys), ``validate_logic`` (Atom B, alternatives > regex > wildcard > default) and
``check_existence`` (Atom C), plus the YAML spec that drives them, its pattern of the kind the
intent asks for. No I/O, no ``os``/``sys``: the code is meant to pass the compliance sandbox.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SYSLOG_HEAD = r"^(?:[A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2}|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?) +"
"""The start of a syslog line (``Jan  1 12:00:01`` or RFC 3339), before host and program."""
SYSLOG_FIELDS = frozenset({"host", "program", "pid"})
_LEVEL_WORDS = r"CRITICAL|FATAL|ERROR|WARN(?:ING)?|INFO|DEBUG|TRACE"
_LEVEL = f"(?:{_LEVEL_WORDS})"
_AFTER_LEVEL = rf"^(?:.*?\b{_LEVEL}\b[\s:\]-]*"
"""A line up to its level word and the separators after it (the start of a message)."""
_TAG_END = r"(?:\]\s*|\]?:(?!//)\s*)"
"""How a component tag ends: ``[db] `` or ``db: `` (not ``http://``)."""
_HOST, _PROGRAM = r"[A-Za-z0-9][\w.-]*", r"[\w./-]+?"
# field → (aliases in the user's words, named-group regex, full-value regex for the spec)
FIELDS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "ip": (("ip address", "client ip", "ip", "ips"), r"(?P<ip>\b\d{1,3}(?:\.\d{1,3}){3}\b)", r"^\d{1,3}(?:\.\d{1,3}){3}$"),
    "status": (("status code", "http status", "response code", "status"), r"\s(?P<status>[1-5]\d{2})\b", r"^[1-5]\d{2}$"),
    "timestamp": (("timestamp", "datetime", "date", "time"), r"(?P<timestamp>\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?|\d{2}/\w{3}/\d{4}:\d{2}:\d{2}:\d{2}(?: [+-]\d{4})?|\b[A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2})", r".+"),
    "method": (("http method", "method", "verb"), r"\b(?P<method>GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)\b", r"^[A-Z]+$"),
    "path": (("request path", "endpoint", "route", "path", "url", "uri"), r"\s(?P<path>/[^\s\"?]*)", r"^/"),
    "level": (("log level", "severity", "level"), rf"\b(?P<level>{_LEVEL_WORDS})\b", r"^[A-Z]+$"),
    "error_code": (("error code", "errno", "exit code", "code"), r"(?:[Ee]rror|ERR|[Cc]ode)[\s:=#]*(?P<error_code>\d+)", r"^\d+$"),
    "bytes": (("bytes", "response size", "body size", "size"), r"\s(?P<bytes>\d+)\s*(?:bytes|B)\b", r"^\d+$"),
    "duration": (("response time", "duration", "latency", "elapsed"), r"(?P<duration>\d+(?:\.\d+)?)\s?ms\b", r"^\d+(?:\.\d+)?$"),
    "user": (("username", "user"), r"\buser[=: ](?P<user>[\w.@-]+)", r"^\S+$"),
    "email": (("email", "e-mail"), r"(?P<email>[\w.+-]+@[\w-]+\.[\w.-]+)", r"@"),
    "port": (("port",), r"\bport[=: ](?P<port>\d+)", r"^\d+$"),
    "component": (("component", "module", "logger", "subsystem"), rf"\b{_LEVEL}\b[\s:\]-]*\[?(?P<component>[A-Za-z_][\w.-]*){_TAG_END}", r"^[\w.-]+$"),
    "host": (("hostname", "host name", "host", "machine"), SYSLOG_HEAD + rf"(?P<host>{_HOST}) +{_PROGRAM}(?:\[\d+\])?: ", r"^[\w.-]+$"),
    "program": (("program", "process name", "daemon"), SYSLOG_HEAD + rf"{_HOST} +(?P<program>{_PROGRAM})(?:\[\d+\])?: ", r"^[\w./-]+$"),
    "pid": (("pid", "process id"), SYSLOG_HEAD + rf"{_HOST} +{_PROGRAM}\[(?P<pid>\d+)\]: ", r"^\d+$"),
    "message": (("message", "msg", "text"), _AFTER_LEVEL + r")?(?P<message>\S.*)$", r".+"),
}  # fmt: skip
MESSAGE_AFTER_COMPONENT = _AFTER_LEVEL + rf"(?:\[?[A-Za-z_][\w.-]*{_TAG_END})?)?(?P<message>\S.*)$"
"""The message when the component is a field too: what follows ``LEVEL component:``."""
MESSAGE_AFTER_SYSLOG_HEAD = SYSLOG_HEAD + rf"{_HOST} +{_PROGRAM}(?:\[\d+\])?: (?P<message>\S.*)$"
"""The message of a syslog line when its host, program or pid is a field too."""
ACCESS_LOG = (
    r'^(?P<ip>\S+) \S+ (?P<user>\S+) \[(?P<timestamp>[^\]]+)\] "(?P<method>[A-Z]+) (?P<path>\S+)'
    r' (?P<protocol>[^"]+)" (?P<status>\d{3}) (?P<bytes>\d+|-)'
    r'(?: "(?P<referer>[^"]*)" "(?P<user_agent>[^"]*)")?'
)
_ACCESS_WORDS = re.compile(r"\b(?:nginx|apache|access[ _-]?logs?|combined log|httpd)\b", re.I)
_STARTS = re.compile(
    r"\b(?:start(?:s|ing)?|begin(?:s|ning)?) with\s+[\"'`]?(?P<prefix>[\w./:-]+)", re.I
)
_QUOTED_WILDCARD = re.compile(r"[\"'`](?P<glob>[^\"'`\s]*\*[^\"'`\s]*)[\"'`]")
_EXPLICIT_REGEX = re.compile(r"(?:\bregex\b|\bmatching\b)\s*[:=]?\s*/(?P<expr>[^/]+)/", re.I)


@dataclass(frozen=True, slots=True)
class Atom:
    """Generated artifacts plus what they were generated from."""

    name: str
    fields: tuple[str, ...]
    value_field: str
    values: tuple[str, ...]
    access_log: bool
    code: str
    spec: str
    pattern: str
    kind: str
    """The pattern kind the spec declares: alternatives, regex, wildcard or default."""


_KEYS_IN_SAMPLE = re.compile(r'(?<![\w.-])"?(?P<key>[A-Za-z_][\w.-]*)"?\s*[=:]\s*(?=["\w/.-])')
"""A ``key=value`` (logfmt) or ``"key": value`` (JSON) pair's key in a sample line."""


def _field_name(key: str) -> str:
    """A key as a field (and regex group) name: ``x-request-id`` → ``x_request_id``."""
    return re.sub(r"\W", "_", key).lower()


def key_value_regex(field: str) -> str:
    """The named-group regex for a field read as ``field=value`` or ``"field": value`` (an
    underscore in the name also matches ``-`` or ``.`` in the key)."""
    key = "[_.-]".join(re.escape(part) for part in field.split("_"))
    return rf'(?<![\w.-])"?{key}"?\s*[=:]\s*"?(?P<{field}>[^\s",;}}]+)'


def _key_spans(intent: str, sample: str) -> list[tuple[int, int, str]]:
    """Keys the sample carries (``user_id=42``) that the intent names ("the user id")."""
    lower = intent.lower()
    spans = []
    for key in dict.fromkeys(m.group("key") for m in _KEYS_IN_SAMPLE.finditer(sample)):
        field = _field_name(key)
        if field in FIELDS or not field.strip("_"):
            continue
        parts = re.split(r"[_.-]", key.lower())
        if parts[0] == "x" and len(parts) > 1:  # x-request-id: "the request id"
            parts = parts[1:]
        words = r"[ _.-]".join(re.escape(part) for part in parts)
        if found := re.search(rf"\b(?:x[_.-])?{words}\b", lower):
            spans.append((found.start(), found.end(), field))
    return spans


def fields_in(intent: str, sample: str = "") -> list[str]:
    """Fields the intent names, in the order it names them: the known fields by their aliases
    and the keys the sample carries as ``key=value``; where two overlap, the longer words win
    ("error code" over a ``code=`` key, a ``user_id=`` key's "user id" over "user")."""
    lower = intent.lower()
    aliases = sorted(
        ((a, f) for f, (names, _, _) in FIELDS.items() for a in names), key=lambda x: -len(x[0])
    )
    candidates = [
        (match.start(), match.end(), field)
        for alias, field in aliases
        for match in re.finditer(rf"\b{re.escape(alias)}\b", lower)
    ]
    candidates += _key_spans(intent, sample)
    spans: list[tuple[int, str]] = []
    taken: list[range] = []
    for start, end, field in sorted(candidates, key=lambda c: -(c[1] - c[0])):  # stable
        if any(start in r for r in taken):
            continue
        taken.append(range(start, end))
        if field not in (f for _, f in spans):
            spans.append((start, field))
    return [field for _, field in sorted(spans)]


def values_in(intent: str) -> list[str]:
    """Concrete values to match: numbers like 500 and level words like ERROR."""
    found = re.findall(r"\b(\d{3,})\b|\b(CRITICAL|FATAL|ERROR|WARN(?:ING)?|DEBUG)\b", intent)
    return list(dict.fromkeys(a or b for a, b in found))


def fields_in_sample(sample: str) -> list[str]:
    """Fields a sample log line actually carries, when the intent names none."""
    line = next((x for x in sample.splitlines() if x.strip()), "")
    return [
        f
        for f in ("timestamp", "host", "program", "ip", "level", "error_code", "status", "message")
        if re.search(FIELDS[f][1], line)
    ]


def generate(intent: str, sample: str = "") -> Atom:
    """The atom for ``intent`` (and an optional log ``sample``)."""
    access = bool(_ACCESS_WORDS.search(intent)) or bool(
        sample and re.search(ACCESS_LOG, sample, re.M)
    )
    fields = (
        fields_in(intent, sample)
        or (fields_in_sample(sample) if sample else [])
        or ["timestamp", "level", "message"]
    )
    values = values_in(intent)
    value_field = _value_field(fields, values)
    name = "_".join(["access" if access else "log", *fields[:3]])
    code = _code(intent, fields, value_field, access)
    pattern = choose_pattern(intent, value_field, values)
    spec = _spec(name, intent, fields, value_field, pattern)
    return Atom(
        name, tuple(fields), value_field, tuple(values), access, code, spec, pattern,
        pattern_kind(pattern),
    )  # fmt: skip


def choose_pattern(intent: str, value_field: str, values: list[str]) -> str:
    """The spec's pattern, of the kind the intent asks for: a regex it spells out, a prefix
    ("starting with Disk") or a quoted glob as a wildcard, the values it names (one: contains;
    several: alternatives), else a regex for the value field's form."""
    if explicit := _EXPLICIT_REGEX.search(intent):
        return f"regex:{explicit.group('expr')}"
    if glob := _QUOTED_WILDCARD.search(intent):
        return glob.group("glob")
    if prefix := _STARTS.search(intent):
        return f"{prefix.group('prefix')}*"
    if values:
        return "|".join(values)
    return f"regex:{FIELDS[value_field][2]}" if value_field in FIELDS else "regex:.+"


def pattern_kind(pattern: str) -> str:
    """The kind of ``pattern`` by the precedence lock: ``|`` > ``regex:`` > ``*`` > default."""
    if "|" in pattern:
        return "alternatives"
    if pattern.startswith("regex:"):
        return "regex"
    return "wildcard" if "*" in pattern else "default"


def field_regex(field: str, fields: tuple[str, ...] | list[str]) -> str:
    """The named-group regex for ``field`` among ``fields`` (a message leaves out the component
    when that is extracted on its own)."""
    if field == "message" and SYSLOG_FIELDS & set(fields):
        return MESSAGE_AFTER_SYSLOG_HEAD
    if field == "message" and "component" in fields:
        return MESSAGE_AFTER_COMPONENT
    return FIELDS[field][1] if field in FIELDS else key_value_regex(field)


def extract_sample(atom: Atom, sample: str) -> list[dict[str, str]]:
    """Apply the atom's patterns to a sample (same regexes as the generated code)."""
    rows = []
    for line in sample.splitlines():
        parsed: dict[str, str] = {}
        if atom.access_log:
            match = re.search(ACCESS_LOG, line)
            if match:
                parsed = {
                    k: str(v)
                    for k, v in match.groupdict().items()
                    if v is not None and k in atom.fields
                }
        else:
            for field in atom.fields:
                if found := re.search(field_regex(field, atom.fields), line):
                    parsed[field] = str(found.group(field))
        if atom.value_field in parsed:
            rows.append(parsed)
    return rows


def _value_field(fields: list[str], values: list[str]) -> str:
    if values and any(v.isdigit() for v in values):
        numeric = [f for f in fields if f in ("error_code", "status")]
        if numeric:
            return numeric[0]
    for preferred in ("error_code", "status", "level"):
        if preferred in fields:
            return preferred
    return fields[0]


def _code(intent: str, fields: list[str], value_field: str, access: bool) -> str:
    summary = " ".join(intent.split())[:90].rstrip(".").replace('"', "'").replace("\\", "\\\\")
    if access:
        patterns = f"LINE_REGEX = re.compile(\n    r'{ACCESS_LOG}'\n)\nFIELDS = {tuple(fields)!r}\n"
        parse = (
            "        match = LINE_REGEX.search(line)\n"
            "        if match is None:\n"
            "            continue\n"
            "        parsed = {k: str(v) for k, v in match.groupdict().items() if k in FIELDS and v is not None}\n"
        )
    else:
        entries = "\n".join(
            f"    ({f!r}, re.compile(r'{field_regex(f, fields)}'))," for f in fields
        )
        patterns = f"FIELD_REGEX = (\n{entries}\n)\n"
        parse = (
            "        parsed = {}\n"
            "        for name, regex in FIELD_REGEX:\n"
            "            found = regex.search(line)\n"
            "            if found is not None:\n"
            "                parsed[name] = str(found.group(name))\n"
        )
    atom_a = (
        f'"""Atoms for: {summary}."""\n\nimport re\nfrom typing import Dict, List, Optional\n\n{patterns}\n\n'
        "def extract_context(text: str, source_file: str) -> List[Dict]:\n"
        f'    """Atom A: one item per line that carries `{value_field}` ({", ".join(fields)})."""\n'
        "    items: List[Dict] = []\n"
        "    for line_number, line in enumerate(str(text).splitlines(), start=1):\n"
        f"{parse}"
        f"        if {value_field!r} not in parsed:\n"
        "            continue\n"
        "        items.append(\n"
        "            {\n"
        f"                'value': str(parsed.get({value_field!r})),\n"
        "                'source_file': str(source_file),\n"
        "                'line_number': line_number,\n"
        "                'matched_content': line.strip(),\n"
        "                'parsed_fields': parsed,\n"
        "            }\n"
        "        )\n"
        "    return items\n"
    )
    atom_b = (
        "\n\ndef validate_logic(\n"
        "    text: str,\n"
        "    pattern: str,\n"
        "    parsed_fields: Optional[Dict] = None,\n"
        "    default_match: str = 'contains',\n"
        "    regex_mode: str = 'search',\n"
        ") -> Dict:\n"
        '    """Atom B: alternatives (|) > regex (regex:) > wildcard (*) > default."""\n'
        "    value = str(text)\n"
        "    if '|' in pattern:\n"
        "        options = [p.strip() for p in pattern.split('|') if p.strip()]\n"
        "        hit = next((p for p in options if validate_logic(value, p, None, default_match, regex_mode)['is_match']), None)\n"
        "        reason = f'alternative {hit!r} matched' if hit is not None else 'no alternative matched'\n"
        "        return {'is_match': hit is not None, 'reason': reason, 'kind': 'alternatives'}\n"
        "    if pattern.startswith('regex:'):\n"
        "        expression = pattern[len('regex:'):]\n"
        "        if regex_mode == 'match':\n"
        "            found = re.match(expression, value)\n"
        "        else:\n"
        "            found = re.search(expression, value)\n"
        "        return {'is_match': found is not None, 'reason': f'regex {expression!r} ({regex_mode})', 'kind': 'regex'}\n"
        "    if '*' in pattern:\n"
        "        wildcard = '.*'.join(re.escape(part) for part in pattern.split('*'))\n"
        "        matched = re.fullmatch(wildcard, value, re.S) is not None\n"
        "        return {'is_match': matched, 'reason': f'wildcard {pattern!r}', 'kind': 'wildcard'}\n"
        "    if default_match == 'exact':\n"
        "        return {'is_match': value == pattern, 'reason': f'exact {pattern!r}', 'kind': 'default'}\n"
        "    return {'is_match': pattern in value, 'reason': f'contains {pattern!r}', 'kind': 'default'}\n"
    )
    atom_c = (
        "\n\ndef check_existence(items: List[Dict]) -> Dict:\n"
        '    """Atom C: are there matching items? Passes the evidence through unchanged."""\n'
        "    return {'is_match': bool(items), 'reason': f'{len(items)} item(s) found', 'evidence': items}\n"
    )
    return atom_a + atom_b + atom_c


def _spec(name: str, intent: str, fields: list[str], value_field: str, pattern: str) -> str:
    quoted = pattern.replace("'", "''")
    description = " ".join(intent.split())[:100].replace("'", "''")
    return (
        "item_spec:\n"
        f"  name: {name}\n"
        f"  description: '{description}'\n"
        "  atom: extract_context\n"
        f"  value_field: {value_field}\n"
        f"  fields: [{', '.join(fields)}]\n"
        f"  pattern: '{quoted}'\n"
        f"  kind: {pattern_kind(pattern)}\n"
        "  default_match: contains\n"
        "  regex_mode: search\n"
    )
