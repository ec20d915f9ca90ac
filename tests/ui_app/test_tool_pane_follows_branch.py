"""The tool pane shows the tools of the turn on screen: checking out another version of a
reply (``[``/``]``) shows that version's tools, or none, instead of the last turn's."""

from __future__ import annotations

from storage.models import MessageRecord
from tests.ui_app.conftest import chat, new_app, settle
from tests.ui_app.test_branching import view_select
from weaver_tui.core.services import Services

PROFILE = "ide-helper"


def _tool_turn(
    services: Services, conversation_id: str, question: MessageRecord, tool: str, output: str
) -> MessageRecord:
    store = services.store
    calls = {"tool_calls": [{"id": f"call-{tool}", "name": tool, "args": {}}]}
    call = store.add_message(conversation_id, "assistant", "", question.id, meta=calls)
    result = store.add_message(
        conversation_id,
        "tool",
        output,
        call.id,
        meta={"tool_call_id": f"call-{tool}", "name": tool},
    )
    usage = {"input_tokens": 120, "output_tokens": 7, "total_tokens": 127, "cached_tokens": 100}
    return store.add_message(
        conversation_id, "assistant", f"Used {tool}.", result.id, meta={"turn_usage": usage}
    )


async def test_flipping_a_reply_version_shows_that_versions_tools(services: Services) -> None:
    store = services.store
    conversation = store.create_conversation(PROFILE, "Tools per branch")
    question = store.add_message(conversation.id, "user", "Look at the project", None)
    _tool_turn(services, conversation.id, question, "list_files", "app.py")
    _tool_turn(services, conversation.id, question, "search_code", "app.py:1: main")
    plain = store.add_message(conversation.id, "assistant", "No tools this time.", question.id)
    store.set_active_leaf(conversation.id, plain.id)
    async with new_app(services, profile=PROFILE, conversation_id=conversation.id).run_test(
        size=(160, 40)
    ) as pilot:
        screen = chat(pilot.app)
        await settle(pilot)

        def names() -> list[str]:
            return [row.tool_name for row in screen.tools.rows]

        assert names() == []  # the reply on screen ran no tool
        await view_select(pilot, plain.id)
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert names() == ["search_code"]
        usage = str(screen.tools.query_one("#tool-usage").render())
        assert "120 in (100 cached)" in usage  # that turn's usage, as its reply keeps it
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert names() == ["list_files"]
        assert screen.tools.rows[0].output == "app.py"
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert names() == ["search_code"]
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert names() == []
