"""Merging consecutive streamed chat-completion chunks (the server's JSON) into one chunk.

A fast server's events pile up while the app handles the previous ones; handing each over on
its own makes every layer above (langchain's message chunk, the callbacks, LangGraph's stream,
the runtime, the recorder) pay per token. :class:`ChunkMerger` folds a run of plain deltas into
one chunk that says what the run said: content, ``reasoning_content`` and ``reasoning`` joined,
tool-call deltas merged by index (names and arguments joined, ids as langchain merges them).

Only plain deltas are merged: one choice, no finish reason, no usage, no log-probabilities, and
no field it does not know. Tool calls without ``index`` (Gemini) are not plain: they go on as
they came, in order, for :mod:`agents.providers.wire_normalizer` to place. Anything else (the finish chunk, a usage chunk, an error) ends the
run and goes on as it came, so usage, finish reasons and errors keep their place. A run also
ends where reasoning follows content, so their order survives (a merged chunk is read reasoning
first).

Calls are told apart by index, and by id under one index (servers that number every call 0):
a fragment with another id than its index's call starts a run of its own.

A tool name repeated in every chunk of a call (seen through NVIDIA NIM) is dropped while
merging, as :mod:`agents.providers.stream_repair` drops it between chunks: joined, the copies
would read ``read_fileread_file``.
"""

from __future__ import annotations

from typing import Any

_TEXT_FIELDS = frozenset({"content", "reasoning_content", "reasoning"})
_CHOICE_FIELDS = frozenset({"index", "delta"})
_CALL_FIELDS = frozenset({"index", "id", "type", "function"})
_FUNCTION_FIELDS = frozenset({"name", "arguments"})


class ChunkMerger:
    """One per streamed reply: ``add`` each chunk in order, ``take`` the merged run."""

    __slots__ = ("_calls", "_first", "_ids", "_names", "_role", "_size", "_texts")

    def __init__(self) -> None:
        self._names: dict[Any, str] = {}
        """Each tool call's name so far, by its index, over the whole reply."""
        self._ids: dict[Any, str] = {}
        """The id of the call each index means now (a server that numbers every call 0 tells
        them apart by id: a new id is a new call, with a name of its own)."""
        self._reset()

    def _reset(self) -> None:
        self._first: dict[str, Any] | None = None
        self._size = 0
        self._role: Any = None
        self._texts: dict[str, list[str]] = {}
        self._calls: dict[Any, dict[str, Any]] = {}

    def add(self, chunk: Any) -> tuple[dict[str, Any], ...]:
        """Take ``chunk`` in; the chunks complete before it (a run it cannot join, then
        ``chunk`` itself when it joins none), in order.

        A chunk of the usual shape (see :func:`content_only`) takes a short way: such a delta
        joins every run (no role, no reasoning, no tool call), so only its text is kept. The
        guarantee, tested over generated streams: for every stream of chunks and every
        grouping of reads, ``add`` gives what :meth:`add_in_full` (every chunk the long way)
        gives, chunk for chunk."""
        content = content_only(chunk)
        if content is None:
            return self.add_in_full(chunk)
        return self.add_content(chunk, content)

    def add_content(self, chunk: dict[str, Any], content: str) -> tuple[dict[str, Any], ...]:
        """:meth:`add` of a chunk of the usual shape, whose text :func:`content_only` gave:
        it joins the run, so nothing is complete (nothing returned)."""
        if self._first is None:
            self._first = chunk
        self._size += 1
        if content:
            run = self._texts.get("content")
            if run is None:
                self._texts["content"] = [content]
            else:
                run.append(content)
        return ()

    @property
    def running(self) -> bool:
        """Whether a run has begun (a chunk is held, to go on merged or as it came)."""
        return self._first is not None

    def extend_run(self, texts: list[str], count: int) -> bool:
        """:meth:`add_content` of ``count`` chunks of the usual shape, none the first of its
        run (whose own fields the merged chunk never reads), whose non-empty texts are
        ``texts``: only their texts are kept. ``False``, and nothing done, when no run has
        begun (the first chunk must then be added whole)."""
        if self._first is None:
            return False
        self._size += count
        if texts:
            run = self._texts.get("content")
            if run is None:
                self._texts["content"] = list(texts)
            else:
                run.extend(texts)
        return True

    def add_in_full(self, chunk: Any) -> tuple[dict[str, Any], ...]:
        """:meth:`add`, every chunk read field by field (the way any chunk may take)."""
        delta = _plain_delta(chunk)
        if delta is None:
            if type(chunk) is dict:
                self._note_names(chunk)
            return (*self.take(), chunk)
        out: tuple[dict[str, Any], ...] = ()
        if self._first is None:
            self._first = chunk
        elif not self._joins(delta):
            out = self.take()
            self._first = chunk
        self._size += 1
        texts = self._texts
        for field, value in delta.items():
            if not value:
                continue
            if field == "tool_calls":
                for call in value:
                    self._join_call(call)
            elif field == "role":
                self._role = self._role or value
            elif (run := texts.get(field)) is None:
                texts[field] = [value]
            else:
                run.append(value)
        return out

    def take(self) -> tuple[dict[str, Any], ...]:
        """The run merged so far, as one chunk (none when the run is empty)."""
        first = self._first
        if first is None:
            return ()
        merged = first if self._size == 1 else self._merged(first)
        self._reset()
        return (merged,)

    def _joins(self, delta: dict[str, Any]) -> bool:
        """Whether ``delta`` may join the run: the same speaker, and no reasoning after the
        run's content (a merged chunk is read reasoning first, then content)."""
        role = delta.get("role")
        if role is not None and self._role is not None and role != self._role:
            return False
        thinks = delta.get("reasoning_content") or delta.get("reasoning")
        if thinks and "content" in self._texts:
            return False
        for call in delta.get("tool_calls") or ():
            merged = self._calls.get(call["index"])
            call_id = call.get("id")
            if merged is None or not call_id:
                continue
            # The call the run holds under this index is the one its id names, or (a run of
            # id-less fragments) the one the index meant before the run began.
            means = merged.get("id") or self._ids.get(call["index"])
            if means and means != call_id:
                return False  # another call under the same index: never glued to this one
        return True

    def _new_call(self, index: Any, call_id: Any) -> None:
        """Forget the name of the call ``index`` meant, when ``call_id`` is another call's."""
        if isinstance(call_id, str) and call_id and self._ids.get(index) != call_id:
            if index in self._ids:
                self._names.pop(index, None)
            self._ids[index] = call_id

    def _join_call(self, call: dict[str, Any]) -> None:
        index = call["index"]
        self._new_call(index, call.get("id"))
        function = call.get("function") or {}
        name = function.get("name")
        if name:
            if self._names.get(index) == name:
                name = None
            else:
                self._names[index] = self._names.get(index, "") + name
        merged = self._calls.get(index)
        if merged is None:
            merged = {**call, "function": {**function, "name": name}}
            self._calls[index] = merged
            return
        _join_id(merged, call.get("id"))
        if merged.get("type") is None:
            merged["type"] = call.get("type")
        merged_function = merged["function"]
        for field, value in (("name", name), ("arguments", function.get("arguments"))):
            if value:
                merged_function[field] = (merged_function.get(field) or "") + value

    def _note_names(self, chunk: dict[str, Any]) -> None:
        """Keep the tool names of a chunk that goes on as it came (repeated or not: the
        stream repair above mends that one) so that later runs judge repeats as it does."""
        for choice in chunk.get("choices") or ():
            delta = choice.get("delta") if isinstance(choice, dict) else None
            for call in (delta.get("tool_calls") if isinstance(delta, dict) else None) or ():
                if not isinstance(call, dict):
                    continue
                self._new_call(call.get("index"), call.get("id"))
                function = call.get("function")
                name = function.get("name") if isinstance(function, dict) else None
                if isinstance(name, str) and name and self._names.get(call.get("index")) != name:
                    index = call.get("index")
                    self._names[index] = self._names.get(index, "") + name

    def _merged(self, first: dict[str, Any]) -> dict[str, Any]:
        delta: dict[str, Any] = {"role": self._role} if self._role is not None else {}
        for field, texts in self._texts.items():
            delta[field] = "".join(texts)
        if "content" not in delta:
            delta["content"] = None
        if self._calls:
            delta["tool_calls"] = list(self._calls.values())
        choice = {**first["choices"][0], "delta": delta}
        return {**first, "choices": [choice]}


def _join_id(merged: dict[str, Any], call_id: Any) -> None:
    """Ids as langchain merges tool-call chunks: a repeated id once, different ones joined."""
    if not call_id:
        return
    before = merged.get("id")
    if not before:
        merged["id"] = call_id
    elif before != call_id:
        merged["id"] = before + call_id


_USUAL_CHOICE_KEYS = frozenset({"index", "delta", "logprobs", "finish_reason"})
_USUAL_CHOICE_KEYS_NO_LOGPROBS = frozenset({"index", "delta", "finish_reason"})


def content_only(chunk: Any) -> str | None:
    """The text of a chunk of the usual shape, else ``None``: one choice (index 0, no finish
    reason, no log-probabilities or none given, no other field), whose delta is
    ``{"content": str}`` alone, and no usage or error. Every chunk so shaped is one
    :func:`_plain_delta` takes."""
    if type(chunk) is not dict:
        return None
    choices = chunk.get("choices")
    if type(choices) is not list or len(choices) != 1:
        return None
    choice = choices[0]
    if type(choice) is not dict:
        return None
    delta = choice.get("delta")
    if type(delta) is not dict or len(delta) != 1:
        return None
    content = delta.get("content")
    keys = choice.keys()
    if (
        type(content) is not str
        or (keys != _USUAL_CHOICE_KEYS and keys != _USUAL_CHOICE_KEYS_NO_LOGPROBS)
        or choice["finish_reason"] is not None
        or choice.get("logprobs") is not None
        or choice["index"] != 0
        or chunk.get("usage") is not None
        or chunk.get("error")
    ):
        return None
    return content


def _plain_delta(chunk: Any) -> dict[str, Any] | None:
    """The delta of a chunk that may join a run, else ``None`` (see the module)."""
    if type(chunk) is not dict or chunk.get("usage") is not None or chunk.get("error"):
        return None
    choices = chunk.get("choices")
    if type(choices) is not list or len(choices) != 1:
        return None
    choice = choices[0]
    if type(choice) is not dict or choice.get("index", 0) != 0:
        return None
    for field, value in choice.items():
        if value is not None and field not in _CHOICE_FIELDS:
            return None
    delta = choice.get("delta")
    if type(delta) is not dict or not _plain_fields(delta):
        return None
    return delta


def _plain_fields(delta: dict[str, Any]) -> bool:
    """Whether every field of ``delta`` is one a run joins: texts, the role, tool calls."""
    for field, value in delta.items():
        if value is None:
            continue
        if field in _TEXT_FIELDS:
            if type(value) is not str:
                return False
        elif field == "tool_calls":
            if not _plain_calls(value):
                return False
        elif field != "role":
            return False
    return True


def _plain_calls(calls: Any) -> bool:
    if type(calls) is not list:
        return False
    seen: set[Any] = set()
    for call in calls:
        if type(call) is not dict or call.get("index") is None or not call.keys() <= _CALL_FIELDS:
            return False
        if call["index"] in seen:
            # two fragments under one index in one chunk (the end of one call and the start
            # of the next, by servers that number every call 0): left as they came, for the
            # normalizer to tell apart, never glued in a run
            return False
        seen.add(call["index"])
        function = call.get("function")
        if function is not None and (
            type(function) is not dict or not function.keys() <= _FUNCTION_FIELDS
        ):
            return False
    return True
