"""A page's terminal size is bounded (:func:`weaver_tui.core.served_app.terminal_size`): any
value a page can send, in the websocket's query or a ``resize`` message, gives a size within
1 to the maximum, so no page makes an app draw a huge screen or fail on a size that is not a
number. The served process's own size is tested in ``test_guarded_server``."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from weaver_tui.core.served_app import MAX_COLUMNS, MAX_ROWS, ScopedAppService, terminal_size

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(JSON, JSON)
def test_any_value_a_page_sends_gives_a_bounded_size(width: object, height: object) -> None:
    columns, rows = terminal_size(width, height)
    assert type(columns) is int
    assert type(rows) is int
    assert 1 <= columns <= MAX_COLUMNS
    assert 1 <= rows <= MAX_ROWS


@settings(max_examples=100, deadline=None)
@given(st.integers(1, MAX_COLUMNS), st.integers(1, MAX_ROWS))
def test_a_size_within_the_bounds_is_kept(width: int, height: int) -> None:
    assert terminal_size(width, height) == (width, height)


async def test_a_resize_message_is_bounded_before_it_reaches_the_app() -> None:
    sent: list[dict[str, object]] = []

    class Recording(ScopedAppService):
        async def send_meta(self, data: dict[str, str | int | bool | None]) -> bool:
            sent.append(dict(data))
            return True

    async def ignore(_data: object) -> None:
        return None

    async def close() -> None:
        return None

    service = Recording(
        "true", write_bytes=ignore, write_str=ignore, close=close,
        download_manager=None,  # type: ignore[arg-type]
    )  # fmt: skip
    await service.set_terminal_size(10**12, "tall")  # type: ignore[arg-type]
    assert sent == [{"type": "resize", "width": MAX_COLUMNS, "height": 24}]
