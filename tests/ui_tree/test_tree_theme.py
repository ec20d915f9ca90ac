"""Role marks take their colours from the theme ($user, $assistant, ...), with fallbacks."""

from __future__ import annotations

from rich.color_triplet import ColorTriplet
from rich.style import Style
from textual.color import Color
from textual.theme import Theme

from storage.models import MessageRecord
from tests.ui_tree.conftest import TREE_SIZE, TreeHost
from tests.ui_tree.records import RecordFactory
from weaver_tui.widgets.conversation_tree import ConversationTree
from weaver_tui.widgets.conversation_tree.labels import LabelStyles

MARKED = Theme(
    name="marked",
    primary="#00aa00",
    secondary="#0000aa",
    variables={"user": "#ff0000", "assistant": "#ffff00", "tool": "#00ffff"},
)


def rgb(style: Style) -> ColorTriplet:
    assert style.color is not None
    return style.color.get_truecolor()


def test_theme_variables_win_over_the_fallbacks() -> None:
    styles = LabelStyles.from_variables({"user": "#ff0000", "primary": "#00ff00"})
    assert rgb(styles.roles["user"]) == ColorTriplet(255, 0, 0)


def test_without_weaver_variables_the_marks_use_textual_colours() -> None:
    styles = LabelStyles.from_variables(
        {"primary": "#00ff00", "secondary": "#0000ff", "warning": "#ffa500"}
    )
    assert rgb(styles.roles["user"]) == ColorTriplet(0, 255, 0)
    assert rgb(styles.roles["assistant"]) == ColorTriplet(0, 0, 255)
    assert rgb(styles.roles["tool"]) == ColorTriplet(255, 165, 0)


def mark_colour(tree: ConversationTree, message_id: str, mark: str) -> ColorTriplet:
    nodes = (tree.get_node_at_line(y) for y in range(tree.last_line + 1))
    node = next(n for n in nodes if n is not None and n.data == message_id)
    segment = next(s for s in tree.render_line(node.line - tree.scroll_offset.y) if mark in s.text)
    assert segment.style is not None
    return rgb(segment.style)


async def test_the_tree_recolours_when_the_theme_changes(
    branched: tuple[RecordFactory, dict[str, MessageRecord]],
) -> None:
    factory, r = branched
    app = TreeHost(factory.records, r["u2"].id)
    app.register_theme(MARKED)
    async with app.run_test(size=TREE_SIZE) as pilot:
        app.theme = "marked"
        await pilot.pause()
        # (the cursor is on u2, whose line takes the cursor's colours)
        assert mark_colour(app.conversation_tree, r["u1"].id, "●") == ColorTriplet(255, 0, 0)
        assert mark_colour(app.conversation_tree, r["a1"].id, "◆") == ColorTriplet(255, 255, 0)
        app.theme = "textual-light"
        await pilot.pause()
        light = app.get_theme("textual-light")
        assert light is not None
        expected = Color.parse(light.primary).rich_color.get_truecolor()
        assert mark_colour(app.conversation_tree, r["u1"].id, "●") == expected  # no $user: primary
