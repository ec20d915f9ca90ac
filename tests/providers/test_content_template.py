"""The usual text chunk read from its bytes gives what reading it whole gives, for every event.

The class: every event's bytes, read by a :class:`ContentTemplate` learnt from any usual chunk
(any field order, spacing, escaping of non-ASCII text, extra top-level fields) and by the long
way (``parse_json`` then ``content_only``), agree: the template says ``None`` or the very text
of a usual, non-error chunk. Over whole streams (every framing the generated replies use, with
usual chunks, near misses and broken middles put in, under any grouping of reads), the rules
with templates give the same chunks, in the same places, as the rules that read every event
whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.providers import stream_rules
from agents.providers.chunk_merge import ChunkMerger, content_only
from agents.providers.content_template import ContentTemplate
from agents.providers.openai_answers import MalformedAnswer
from agents.providers.sse_events import SseEventParser
from agents.providers.stream_rules import StreamRules, parse_json
from tests.support.wire_streams import replies

_TEXTS = st.one_of(
    st.text(max_size=12),
    st.text(alphabet='ab "\\/\n\t\u2028\u00e9\U0001f600\x00\x1f', max_size=12),
)


def _escaped_text(chunk: dict[str, Any]) -> bytes:
    """``json``'s writing with the text as ``\\u`` escapes only (valid JSON, and the text as
    orjson writes it may then stand elsewhere: in the model's name, say)."""
    text = chunk["choices"][0]["delta"]["content"]
    units = text.encode("utf-16-be", "surrogatepass")
    escaped = "".join(f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2))
    placed = {**chunk, "choices": [{**chunk["choices"][0], "delta": {"content": "\u0000slot"}}]}
    return json.dumps(placed).replace(json.dumps("\u0000slot"), f'"{escaped}"').encode()


_WRITERS: dict[str, Callable[[dict[str, Any]], bytes]] = {
    "escaped text": _escaped_text,
    "orjson": orjson.dumps,
    "json": lambda chunk: json.dumps(chunk).encode(),
    "json compact": lambda chunk: json.dumps(chunk, separators=(",", ":")).encode(),
    "json utf-8": lambda chunk: json.dumps(chunk, ensure_ascii=False).encode(),
    "json spaced": lambda chunk: json.dumps(chunk, indent=1).encode(),
}
_MIDDLES = st.one_of(
    st.binary(max_size=16),
    st.sampled_from(
        [
            b'"a","x":1',
            b'"a"}',
            b'"a" ',
            b' "a"',
            b'"\\ud800"',
            b'"\\u00e9"',
            b"null",
            b"7",
            b'["a"]',
            b'"a\\"',
            b'"',
            b'""',
            b'"a" "b"',
            b'"\xff"',
            b'"a\nb"',
            b'"\\/"',
        ]
    ),
)


@st.composite
def usual_chunks(draw: st.DrawFn) -> dict[str, Any]:
    """A chunk of the usual shape, its fields in a drawn order, with drawn extra fields."""
    text = draw(_TEXTS)
    choice_fields = [("index", 0), ("delta", {"content": text}), ("finish_reason", None)]
    if draw(st.booleans()):
        choice_fields.append(("logprobs", None))
    fields: list[tuple[str, Any]] = [
        ("id", draw(st.sampled_from(["chatcmpl-1", "", "a"]))),
        ("object", "chat.completion.chunk"),
        ("created", draw(st.integers(0, 2**40))),
        # the text again in another field (where it may be the only copy written as orjson
        # writes it), or a model name
        ("model", draw(st.one_of(st.just(text), st.sampled_from(["", "a", " "]), st.text()))),
        ("choices", [dict(draw(st.permutations(choice_fields)))]),
    ]
    fields += draw(
        st.lists(
            st.sampled_from([("usage", None), ("system_fingerprint", "fp"), ("obfuscation", "x")]),
            unique=True,
        )
    )
    return dict(draw(st.permutations(fields)))


def _long_way(data: bytes) -> str | None:
    try:
        chunk = parse_json(data)
    except ValueError:
        return None
    content = content_only(chunk)
    return content if content is not None and chunk.get("object") != "error" else None


@settings(max_examples=200, deadline=None)
@given(chunk=usual_chunks(), writer=st.sampled_from(sorted(_WRITERS)), data=st.data())
def test_a_template_reads_every_event_as_the_long_way_does(
    chunk: dict[str, Any], writer: str, data: st.DataObject
) -> None:
    write = _WRITERS[writer]
    template = ContentTemplate.learn(write(chunk), chunk["choices"][0]["delta"]["content"])
    if template is None:
        return
    prefix, suffix = template._prefix, template._suffix
    for _ in range(4):
        middle = data.draw(st.one_of(_MIDDLES, _TEXTS.map(orjson.dumps)), label="middle")
        event = prefix + middle + suffix
        read = template.content_of(event)
        assert read is None or read == _long_way(event)
    other = data.draw(usual_chunks(), label="another chunk")
    event = data.draw(st.sampled_from(sorted(_WRITERS)).map(lambda w: _WRITERS[w](other)))
    read = template.content_of(event)
    assert read is None or read == _long_way(event)


@settings(max_examples=150, deadline=None)
@given(chunk=usual_chunks(), writer=st.sampled_from(sorted(_WRITERS)), data=st.data())
def test_a_sweep_over_events_reads_each_as_one_event_is_read(
    chunk: dict[str, Any], writer: str, data: st.DataObject
) -> None:
    """:meth:`ContentTemplate.texts_of` gives, for any events from any place, the texts
    :meth:`ContentTemplate.content_of` gives one by one, up to the first event that does not
    fit (or has a name)."""
    template = ContentTemplate.learn(
        _WRITERS[writer](chunk), chunk["choices"][0]["delta"]["content"]
    )
    if template is None:
        return
    prefix, suffix = template._prefix, template._suffix
    middles = st.one_of(_MIDDLES, _TEXTS.map(orjson.dumps), _TEXTS.map(orjson.dumps))
    events = data.draw(
        st.lists(
            st.tuples(
                st.sampled_from([None, None, None, "error", "message"]),
                middles.map(lambda middle: prefix + middle + suffix),
            ),
            max_size=12,
        )
    )
    start = data.draw(st.integers(0, len(events)))
    expected: list[str] = []
    end = start
    for name, event in events[start:]:
        text = template.content_of(event)
        if name is not None or text is None:
            break
        end += 1
        expected += [text] if text else []

    assert template.texts_of(events, start) == (expected, end)


@settings(max_examples=100, deadline=None)
@given(chunk=usual_chunks(), text=_TEXTS)
def test_a_template_learnt_from_a_compact_writer_reads_every_text(
    chunk: dict[str, Any], text: str
) -> None:
    """Where the short way is meant to be taken it is: a server that writes its chunks as
    orjson or compact ``json`` does (no field naming the text again) has every text read."""
    chunk["id"] = chunk["model"] = "m-\u0000"  # no other field holds the text as written
    for writer in ("orjson", "json compact"):
        event = _WRITERS[writer](chunk)
        template = ContentTemplate.learn(event, chunk["choices"][0]["delta"]["content"])
        assert template is not None
        changed = {**chunk, "choices": [{**chunk["choices"][0], "delta": {"content": text}}]}
        assert template.content_of(_WRITERS[writer](changed)) == text


class _Rules(StreamRules):
    response = None


class _WholeRules(_Rules):
    """The long way: no template is ever learnt."""

    def _start(self) -> None:
        super()._start()
        self._tries = 0


def _run(rules: StreamRules, reads: list[bytes]) -> list[Any]:
    rules._start()
    parser, merger = SseEventParser(), ChunkMerger()
    out: list[Any] = []
    for read in reads:
        try:
            for chunk in rules._chunks(parser.feed(read), merger):
                if chunk is None:  # [DONE]
                    return out
                out.append(chunk)
        except (ValueError, MalformedAnswer) as broken:  # unreadable, or not a chunk's shape
            return [*out, ("broken", type(broken).__name__)]
        out += merger.take()
    return out


@st.composite
def streams(draw: st.DrawFn) -> bytes:
    """A generated reply's events, with usual chunks (of one template or another), near misses
    and events whose text slot holds drawn bytes put in at drawn places."""
    _sent, chunks = draw(replies())
    usual = draw(usual_chunks())
    writer = _WRITERS[draw(st.sampled_from(sorted(_WRITERS)))]

    def like_usual(text: str) -> bytes:
        return writer({**usual, "choices": [{**usual["choices"][0], "delta": {"content": text}}]})

    events = [orjson.dumps(chunk) for chunk in chunks]
    extra = draw(
        st.lists(
            st.tuples(
                st.integers(0, len(events)),
                st.one_of(
                    _TEXTS.map(like_usual),
                    _TEXTS.map(like_usual),
                    _MIDDLES.map(lambda m: like_usual("\u0007").replace(b'"\\u0007"', m)),
                    usual_chunks().map(orjson.dumps),
                ),
            ),
            max_size=30,
        )
    )
    for place, event in sorted(extra, key=lambda item: item[0], reverse=True):
        events.insert(place, event)
    body = b"".join(b"data: " + event.replace(b"\n", b" ") + b"\n\n" for event in events)
    return body + b"data: [DONE]\n\n"


@settings(max_examples=150, deadline=None)
@given(body=streams(), data=st.data())
def test_the_rules_with_templates_give_every_stream_the_chunks_of_the_long_way(
    body: bytes, data: st.DataObject
) -> None:
    cuts = sorted(data.draw(st.sets(st.integers(1, max(1, len(body) - 1)), max_size=12)))
    reads = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]

    assert _run(_Rules(), reads) == _run(_WholeRules(), reads)


def test_the_benchmark_servers_chunks_take_the_short_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake server's writer (the benchmarks' stream) has all but a run's first chunk read
    from its bytes (else the tests above prove little)."""
    from tests.support.openai_script import ChunkWriter

    writer = ChunkWriter("fake-model")
    body = b"".join(writer.content_event(f'tok{n} "é" \\') for n in range(50))
    parsed: list[bytes] = []
    real = stream_rules.parse_json

    def counted(data: bytes) -> Any:
        parsed.append(data)
        return real(data)

    monkeypatch.setattr(stream_rules, "parse_json", counted)
    chunks = _run(_Rules(), [body + b"data: [DONE]\n\n"])

    assert len(parsed) == 1
    assert [chunk["choices"][0]["delta"]["content"] for chunk in chunks] == [
        "".join(f'tok{n} "é" \\' for n in range(50))
    ]
