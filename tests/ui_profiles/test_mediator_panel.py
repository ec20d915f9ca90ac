"""The speaker bar and the channel tabs: keys, clicks and the messages they post."""

from __future__ import annotations

from textual._compositor import LayoutUpdate
from textual.widget import Widget
from textual.widgets import Static

from storage.seats import Seat
from tests.ui_profiles.conftest import SIZE, PanelHost
from weaver_tui.widgets.channel_tabs import ChannelTabs
from weaver_tui.widgets.choice_bar import Choice
from weaver_tui.widgets.seat_presence import SeatPresence
from weaver_tui.widgets.space_panel import SpacePanel
from weaver_tui.widgets.speaker_bar import SpeakerBar


def labels(bar: Widget) -> list[str]:
    return [str(choice.render()) for choice in bar.query(Choice)]


def current(bar: SpeakerBar | ChannelTabs) -> list[str]:
    return [str(choice.render()) for choice in bar.query(Choice) if choice.has_class("-current")]


async def test_f2_cycles_the_speaker_and_posts_each_name() -> None:
    app = PanelHost(SpacePanel(("Alex", "Sam", "Kim")))
    async with app.run_test(size=SIZE) as pilot:
        panel = app.query_one(SpacePanel)
        bar = panel.speaker_bar
        assert str(bar.query_one(".choice-prefix", Static).render()) == "Speaking as:"
        assert labels(bar) == ["Alex", "Sam", "Kim"]
        assert (panel.speaker, current(bar)) == ("Alex", ["Alex"])
        assert app.focused is app.query_one("#composer")
        for _ in range(4):
            await pilot.press("f2")
        await pilot.pause()
        assert app.posted == [
            ("speaker", "Sam"),
            ("speaker", "Kim"),
            ("speaker", "Alex"),
            ("speaker", "Sam"),
        ]
        assert (panel.speaker, current(bar)) == ("Sam", ["Sam"])


async def test_clicking_a_name_makes_it_the_speaker() -> None:
    app = PanelHost(SpacePanel(("Alex", "Sam")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#speaker-bar #choice-1")
        await pilot.pause()
        assert app.posted == [("speaker", "Sam")]
        assert app.query_one(SpacePanel).speaker == "Sam"
        assert app.focused is app.query_one("#composer")  # the click kept the typing place
        await pilot.click("#speaker-bar .choice-prefix")  # not a name: nothing happens
        await pilot.pause()
        assert app.posted == [("speaker", "Sam")]


async def test_the_focused_bar_moves_with_its_own_keys() -> None:
    app = PanelHost(SpacePanel(("Alex", "Sam")))
    async with app.run_test(size=SIZE) as pilot:
        app.query_one(SpeakerBar).focus()
        await pilot.press("right", "right", "left")
        await pilot.pause()
        assert app.posted == [("speaker", "Sam"), ("speaker", "Alex"), ("speaker", "Sam")]
        app.query_one(ChannelTabs).focus()
        await pilot.press("left")
        await pilot.pause()
        assert app.posted[-1] == ("view", "Sam")


async def test_channel_tabs_post_every_view_in_order() -> None:
    app = PanelHost(SpacePanel(("Alex", "Sam")))
    async with app.run_test(size=SIZE) as pilot:
        tabs = app.query_one(ChannelTabs)
        assert labels(tabs) == ["All", "Shared", "Alex", "Sam"]
        assert [c.has_class("-private") for c in tabs.query(Choice)] == [False, False, True, True]
        for _ in range(4):
            await pilot.press("f3")
        await pilot.pause()
        assert app.posted == [("view", "shared"), ("view", "Alex"), ("view", "Sam"), ("view", None)]
        await pilot.click("#channel-tabs #choice-2")
        await pilot.pause()
        assert app.posted[-1] == ("view", "Alex")
        assert (tabs.view, current(tabs)) == ("Alex", ["Alex"])


async def test_setting_participants_keeps_what_still_exists_and_posts_nothing() -> None:
    app = PanelHost(SpacePanel(("Alex", "Sam"), speaker="Sam", view="Sam"))
    async with app.run_test(size=SIZE) as pilot:
        panel = app.query_one(SpacePanel)
        assert (panel.speaker, panel.view) == ("Sam", "Sam")
        panel.set_participants(("Alex", "Sam", "Kim"))
        await pilot.pause()
        assert labels(panel.speaker_bar) == ["Alex", "Sam", "Kim"]
        assert (panel.speaker, panel.view) == ("Sam", "Sam")
        assert current(panel.channel_tabs) == ["Sam"]
        panel.set_participants(("Alex", "Kim"))
        await pilot.pause()
        assert (panel.speaker, panel.view) == ("Alex", None)
        assert current(panel.speaker_bar) == ["Alex"]
        panel.speaker_bar.set_speaker("Kim")
        panel.channel_tabs.set_view("shared")
        await pilot.pause()
        assert (panel.speaker, panel.view) == ("Kim", "shared")
        assert app.posted == []
        await pilot.press("f2")
        await pilot.pause()
        assert app.posted == [("speaker", "Alex")]


async def test_an_empty_space_cycles_nothing() -> None:
    app = PanelHost(SpacePanel(()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        panel = app.query_one(SpacePanel)
        assert panel.speaker is None
        assert app.posted == []


async def test_f8_says_the_next_message_to_everyone_or_to_the_mediator_only() -> None:
    app = PanelHost(SpacePanel(("Alex", "Sam")))
    async with app.run_test(size=SIZE) as pilot:
        panel = app.query_one(SpacePanel)
        assert labels(panel.audience_bar) == ["the mediator only", "everyone"]
        assert (panel.speaker, panel.shared) == ("Alex", False)
        await pilot.press("f8")
        await pilot.pause()
        assert app.posted == [("shared", "yes")]
        assert (panel.speaker, panel.shared) == ("Alex", True)
        await pilot.press("f2")
        await pilot.click("#audience-bar #choice-0")
        await pilot.pause()
        assert app.posted[1:] == [("speaker", "Sam"), ("shared", "no")]
        assert (panel.speaker, panel.shared) == ("Sam", False)
        panel.audience_bar.set_shared(True)
        assert panel.shared
        assert len(app.posted) == 3


async def test_the_view_tabs_of_a_space_of_four_fit_beside_the_tree_and_the_tool_pane() -> None:
    """At 120 columns with both side panes shown the composer column is 60 wide."""
    app = PanelHost(SpacePanel(("Alex", "Sam", "Jordan", "Riley")))
    async with app.run_test(size=(60, 8)) as pilot:
        await pilot.pause()
        update = app.screen._compositor.render_update(full=True)
        assert isinstance(update, LayoutUpdate)
        rows = ["".join(strip.text for strip in line) for line in update.strips]
        tabs = next(row for row in rows if "Shared" in row)
        for label in ("All", "Shared", "Alex", "Sam", "Jordan", "Riley"):
            assert label in tabs, tabs


async def test_seats_shown_before_the_presence_line_mounts_stay_shown() -> None:
    """The panel passes seats to its presence line as soon as the line is in its children,
    which can be before the line's own mount: the mount must not put back the seats the line
    was built with."""
    app = PanelHost(Static("panel"))
    async with app.run_test(size=SIZE) as pilot:
        presence = SeatPresence(id="seat-presence")
        presence.show_seats([Seat("c1", "Sam", "t1"), Seat("c1", "Alex", "t2", connections=1)])
        await app.screen.mount(presence)
        await pilot.pause()
        shown = str(presence.render())
        assert "Sam ○ away" in shown
        assert "Alex ● connected" in shown
        assert presence.has_class("-seated")
