"""The fake OpenAI server itself: the wire format other areas' tests and benchmarks rely on."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx

from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall, markdown_tokens

ROOT = Path(__file__).parents[2]


def sse_events(client: httpx.Client, url: str, body: dict[str, Any]) -> list[str]:
    with client.stream("POST", url, json=body) as response:
        assert response.headers["content-type"] == "text/event-stream"
        return [line[6:] for line in response.iter_lines() if line.startswith("data: ")]


def test_stream_follows_the_chat_completions_chunk_format(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(
        Reply("Hi there", tool_calls=[ToolCall("list_files", {"pattern": "*.py"}, id="call_1")])
    )
    body = {
        "model": "m1",
        "stream": True,
        "stream_options": {"include_usage": True},
        "messages": [],
    }

    with httpx.Client(trust_env=False) as client:
        events = sse_events(client, f"{fake_openai.base_url}/chat/completions", body)

    assert events[-1] == "[DONE]"
    chunks = [json.loads(event) for event in events[:-1]]
    assert {chunk["object"] for chunk in chunks} == {"chat.completion.chunk"}
    assert {chunk["model"] for chunk in chunks} == {"m1"}
    assert len({chunk["id"] for chunk in chunks}) == 1
    deltas = [c["choices"][0]["delta"] for c in chunks if c["choices"]]
    assert deltas[0] == {"role": "assistant", "content": ""}
    assert "".join(d.get("content", "") for d in deltas) == "Hi there"
    calls = [d["tool_calls"][0] for d in deltas if "tool_calls" in d]
    assert calls[0]["id"] == "call_1"
    assert calls[0]["function"]["name"] == "list_files"
    args = "".join(call["function"]["arguments"] for call in calls)
    assert json.loads(args) == {"pattern": "*.py"}
    assert [c["choices"][0]["finish_reason"] for c in chunks if c["choices"]][-1] == "tool_calls"
    assert chunks[-1]["choices"] == []
    assert chunks[-1]["usage"]["completion_tokens"] > 0


def test_no_usage_chunk_unless_asked(fake_openai: FakeOpenAI) -> None:
    with httpx.Client(trust_env=False) as client:
        events = sse_events(
            client, f"{fake_openai.base_url}/chat/completions", {"stream": True, "messages": []}
        )

    assert all("usage" not in json.loads(event) for event in events[:-1])


def test_non_streaming_reply_is_a_chat_completion(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply("Whole answer.", usage=(5, 2)))

    response = httpx.post(
        f"{fake_openai.base_url}/chat/completions",
        json={"model": "m2", "messages": [{"role": "user", "content": "hi"}]},
        trust_env=False,
    )

    data = response.json()
    assert data["object"] == "chat.completion"
    assert data["choices"][0]["message"] == {"role": "assistant", "content": "Whole answer."}
    assert data["choices"][0]["finish_reason"] == "stop"
    assert data["usage"] == {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}


def test_models_are_listed_and_every_request_recorded(fake_openai: FakeOpenAI) -> None:
    models = httpx.get(f"{fake_openai.base_url}/models", trust_env=False).json()
    httpx.post(f"{fake_openai.base_url}/chat/completions", json={"messages": []}, trust_env=False)

    assert [m["id"] for m in models["data"]] == fake_openai.models
    assert [(r.method, r.path) for r in fake_openai.requests] == [
        ("GET", "/v1/models"),
        ("POST", "/v1/chat/completions"),
    ]
    assert fake_openai.last_body == {"messages": []}


def test_replies_are_used_in_order_and_may_depend_on_the_request(fake_openai: FakeOpenAI) -> None:
    fake_openai.script("first", lambda body: Reply(f"saw {len(body['messages'])} messages"))
    url = f"{fake_openai.base_url}/chat/completions"

    answers = [
        httpx.post(
            url, json={"messages": [{"role": "user", "content": "x"}] * n}, trust_env=False
        ).json()["choices"][0]["message"]["content"]
        for n in (1, 3)
    ]

    assert answers == ["first", "saw 3 messages"]
    assert fake_openai.pending == 0


def test_reset_forgets_the_queue_and_the_requests_of_a_shared_server(
    fake_openai: FakeOpenAI,
) -> None:
    url = f"{fake_openai.base_url}/chat/completions"
    fake_openai.script("used", "left over")
    httpx.post(url, json={"messages": []}, trust_env=False)

    fake_openai.reset()
    fake_openai.script("fresh")
    answer = httpx.post(url, json={"messages": [{"role": "user", "content": "y"}]}, trust_env=False)

    assert answer.json()["choices"][0]["message"]["content"] == "fresh"
    assert fake_openai.pending == 0
    assert fake_openai.chat_bodies == [{"messages": [{"role": "user", "content": "y"}]}]


def test_strict_server_refuses_unscripted_requests() -> None:
    with FakeOpenAI(default=None) as server:
        response = httpx.post(
            f"{server.base_url}/chat/completions", json={"messages": []}, trust_env=False
        )

    assert response.status_code == 500
    assert "no scripted reply" in response.json()["error"]["message"]


def test_http_error_replies_carry_their_headers(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply.rate_limited(retry_after=11))

    response = httpx.post(
        f"{fake_openai.base_url}/chat/completions", json={"stream": True}, trust_env=False
    )

    assert response.status_code == 429
    assert response.headers["retry-after"] == "11"
    assert response.json()["error"]["type"] == "rate_limit_exceeded"


def test_token_delay_paces_the_stream(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply(deltas=["a", "b", "c"], token_delay=0.05))
    arrivals: list[str] = []

    with (
        httpx.Client(trust_env=False) as client,
        client.stream(
            "POST", f"{fake_openai.base_url}/chat/completions", json={"stream": True}
        ) as response,
    ):
        for piece in response.iter_raw():
            arrivals.append(piece.decode())

    # Paced: each event is flushed on its own, so the body arrives in several reads.
    assert len([piece for piece in arrivals if '"content"' in piece]) >= 3


def test_a_held_reply_sends_what_comes_before_the_hold_and_the_rest_once_released(
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.script(Reply(deltas=["first", "second"], holds=(1,)))
    arrivals: list[str] = []
    first_arrived = threading.Event()

    def read() -> None:
        with (
            httpx.Client(trust_env=False, timeout=30) as client,
            client.stream(
                "POST", f"{fake_openai.base_url}/chat/completions", json={"stream": True}
            ) as response,
        ):
            for piece in response.iter_raw():
                arrivals.append(piece.decode())
                if "first" in "".join(arrivals):
                    first_arrived.set()

    reader = threading.Thread(target=read)
    reader.start()
    assert first_arrived.wait(timeout=30)
    assert "second" not in "".join(arrivals)  # unpaced, it would have come in the same write

    fake_openai.release()
    reader.join(timeout=30)
    assert not reader.is_alive()
    assert "second" in "".join(arrivals)
    assert "[DONE]" in "".join(arrivals)


def test_after_a_reset_a_release_reaches_the_new_held_reply_not_one_left_held_before(
    fake_openai: FakeOpenAI,
) -> None:
    """A shared server: the earlier test's held reply (its client gone) keeps waiting."""
    url = f"{fake_openai.base_url}/chat/completions"
    fake_openai.script(Reply(deltas=["left", "behind"], holds=(1,)))
    with (
        httpx.Client(trust_env=False, timeout=30) as client,
        client.stream("POST", url, json={"stream": True}) as abandoned,
    ):
        next(piece for piece in abandoned.iter_text() if "left" in piece)

    fake_openai.reset()
    fake_openai.script(Reply(deltas=["new", "answer"], holds=(1,)))
    fake_openai.release()  # before the new request: only its own hold may take it
    with httpx.Client(trust_env=False, timeout=20) as client:
        events = sse_events(client, url, {"stream": True})

    assert events[-1] == "[DONE]"
    assert "answer" in "".join(events)


def _read_until_closed(client: httpx.Client, url: str) -> None:
    """A request whose client is closed under it as its test ends (so it ends in an error)."""
    with contextlib.suppress(httpx.HTTPError):
        sse_events(client, url, {"stream": True})


def test_a_request_from_before_a_reset_holds_on_its_own_signals_however_late_it_reaches_them(
    fake_openai: FakeOpenAI,
) -> None:
    """An earlier test's request that reaches its hold only after the reset (its handler was
    slow) still waits on that test's release, not on the new test's."""
    url = f"{fake_openai.base_url}/chat/completions"
    fake_openai.script(Reply(deltas=["left", "behind"], holds=(0,), first_byte_delay=0.5))
    with httpx.Client(trust_env=False, timeout=30) as client:
        early = threading.Thread(target=_read_until_closed, args=(client, url), daemon=True)
        early.start()
        while not fake_openai.chat_requests:
            early.join(0.01)

        fake_openai.reset()
        # The new reply reaches its hold after the early one reaches its own.
        fake_openai.script(Reply(deltas=["new", "answer"], holds=(1,), first_byte_delay=1.5))
        fake_openai.release()
        with httpx.Client(trust_env=False, timeout=20) as fresh:
            events = sse_events(fresh, url, {"stream": True})

    assert events[-1] == "[DONE]"
    assert "answer" in "".join(events)


def test_markdown_tokens_are_deterministic_and_exact() -> None:
    tokens = markdown_tokens(20_000)

    assert len(tokens) == 20_000
    assert tokens == markdown_tokens(20_000)
    assert all(tokens)
    text = "".join(tokens)
    assert text.count("```") >= 2
    assert "- first point" in text


def test_stop_cuts_open_connections_and_ends_its_threads() -> None:
    before = set(threading.enumerate())
    server = FakeOpenAI().start()
    server.script(Reply.slow_first_byte(60))
    client = httpx.Client(trust_env=False, timeout=30)
    outcome: list[BaseException] = []

    def wait_for_the_slow_reply() -> None:
        try:
            client.post(f"{server.base_url}/chat/completions", json={"stream": True})
        except httpx.HTTPError as exc:
            outcome.append(exc)

    assert client.get(f"{server.base_url}/models").status_code == 200  # a kept-alive connection
    worker = threading.Thread(target=wait_for_the_slow_reply)
    worker.start()
    for _ in range(500):  # the request is in flight within a few ms; bounded at 5 s
        if server.chat_requests:
            break
        worker.join(timeout=0.01)
    assert server.chat_requests
    assert worker.is_alive()

    server.stop()
    worker.join(timeout=5)

    assert not worker.is_alive()
    assert len(outcome) == 1
    for thread in set(threading.enumerate()) - before:
        thread.join(timeout=5)
        assert not thread.is_alive(), thread
    client.close()


def test_runs_alone_and_prints_its_base_url() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.fake_openai", "--tokens", "50"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        base_url = process.stdout.readline().strip()
        assert base_url.startswith("http://127.0.0.1:")
        assert base_url.endswith("/v1")
        with httpx.Client(trust_env=False, timeout=10) as client:
            events = sse_events(client, f"{base_url}/chat/completions", {"stream": True})
        assert len(events) == 50 + 3  # role chunk, 50 tokens, finish chunk, [DONE]
    finally:
        process.terminate()
        process.wait(timeout=10)
