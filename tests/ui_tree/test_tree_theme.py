"""Role marks take their colours from the theme ($user, $assistant, ...), with fallbacks."""

from __future__ import annotations

from rich.color import ColorTriplet
from textual.color import Color
from textual.theme import Theme

from tests.ui_tree.conftest import TREE_SIZE, TreeHost
from weaver_tui.widgets.conversation_tree import ConversationTree
from weaver_tui.widgets.conversation_tree.labels import LabelStyles

MARKED = Theme(
    name="marked",
    primary="#00aa00",
    secondary="#0000aa",
    variables={"user": "#ff0000", "assistant": "#ffff00", "tool": "#00ffff"},
)


def rgb(style) -> ColorTriplet:  # type: ignore[no-untyped-def]
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
    node = next(
        tree.get_node_at_line(y)
        for y in range(tree.last_line + 1)
        if tree.get_node_at_line(y).data == message_id
    )
    segment = next(s for s in tree.render_line(node.line - tree.scroll_offset.y) if mark in s.text)
    return segment.style.color.get_truecolor()


async def test_the_tree_recolours_when_the_theme_changes(branched) -> None:
    factory, r = branched
    app = TreeHost(factory.records, r["u2"].id)
    app.register_theme(MARKED)
    async with app.run_test(size=TREE_SIZE) as pilot:
        app.theme = "marked"
        await pilot.pause()
        # (the cursor is on u2, whose line takes the cursor's colours)
        assert mark_colour(app.tree, r["u1"].id, "●") == ColorTriplet(255, 0, 0)
        assert mark_colour(app.tree, r["a1"].id, "◆") == ColorTriplet(255, 255, 0)
        app.theme = "textual-light"
        await pilot.pause()
        light = app.get_theme("textual-light")
        assert light is not None
        expected = Color.parse(light.primary).rich_color.get_truecolor()
        assert mark_colour(app.tree, r["u1"].id, "●") == expected  # no $user: primary
