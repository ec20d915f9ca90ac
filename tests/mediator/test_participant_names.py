"""A participant's name reads as itself and is told apart from every other name of the space,
under every comparison the product makes (who a record is for, who spoke, who reads).

Generated names mix plain letters with the characters that make one name pass for another or
hide in it: capitals beyond A-Z, accents (composed and combining), Cyrillic and Greek letters
drawn like Latin ones, fullwidth forms, zero-width and bidi characters, escape sequences. For
every pair :func:`clean_participants` accepts together: each renders as itself, no two compare
equal under the store's key, the runtime's name match or their look, and a record stored for
one through a real SQLite file is read by that participant and by no other.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.errors import ConfigError
from agents.shared_space.events import UserMessageEvent
from agents.shared_space.names import skeleton
from agents.shared_space.space import clean_participants, same_name
from storage.audience import viewer_key
from storage.printable import printable
from storage.sqlite_store import SqliteConversationStore

TRICKY = "AaEeLlOoXxSsßẞÉéÖöŁłİıЀАаЕеОоХхΑαΟοＡａ0123\u0301\u0308\u200b\u200d\u202e\x1b\x07 '-."
BASES = ("Alex", "Sam", "Emile", "Zoe", "Ola", "Lea")
names = st.one_of(
    st.text(st.sampled_from(TRICKY), min_size=1, max_size=8),
    # a plain name with a few tricky characters put in or swapped in
    st.tuples(
        st.sampled_from(BASES), st.text(st.sampled_from(TRICKY), max_size=2), st.integers(0, 4)
    ).map(lambda t: t[0][: t[2]] + t[1] + t[0][t[2] + len(t[1]) % 2 :]),
)


def _accepted(candidates: list[str]) -> tuple[str, ...] | None:
    try:
        return clean_participants(candidates)
    except ConfigError:
        return None


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(first=names, second=names)
def test_two_names_of_a_space_never_compare_or_look_the_same(
    tmp_path: Path, first: str, second: str
) -> None:
    seated = _accepted([first, second])
    if seated is None:
        return
    a, b = seated
    for name in seated:
        assert printable(name) == name  # shown as itself, nothing hidden or rewritten
    assert viewer_key(a) != viewer_key(b)
    assert not same_name(a, b)
    assert skeleton(a) != skeleton(b)
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        space = store.create_conversation("mediator", "t", meta={"participants": list(seated)})
        said = UserMessageEvent(sender=a, content="my own words")
        record = store.add_message(space.id, "user", said.content, None, said.record_meta())
        assert [r.id for r in store.path_to_root(record.id, a)] == [record.id]
        assert store.path_to_root(record.id, b) == []


@pytest.mark.parametrize(
    ("names", "fragment"),
    [
        (["Alex", "Al\u200bex"], "holds"),  # a zero-width space
        (["Alex", "Alex\u202e"], "holds"),  # a bidi override
        (["Alex", "Al\x1bOex"], "holds"),  # an escape sequence
        (["Alex", "\u0410lex"], "mixes letters"),  # a Cyrillic capital A
        (["Alex", "\uff21\uff4c\uff45\uff58"], "type it as 'Alex'"),  # fullwidth
        (["Straße", "STRASSE"], "named twice"),
        (["Zoe", "Zoë"], "looks like"),
        (["Alex", "\u0410\u04cf\u0435\u0445"], "looks like"),  # all Cyrillic, drawn as Alex
        (["Sam", "\u0455\u0430\u043c"], "looks like"),
    ],
)
def test_a_name_that_hides_characters_or_passes_for_another_is_refused_in_a_sentence(
    names: list[str], fragment: str
) -> None:
    with pytest.raises(ConfigError) as refused:
        clean_participants(names)
    sentence = refused.value.user_message
    assert fragment in sentence
    assert printable(sentence) == sentence
    assert "\n" not in sentence


def test_real_names_in_any_script_are_seated(tmp_path: Path) -> None:
    people = ("Émile", "O'Brien", "Anne-Marie", "J. R.", "Łukasz", "Ödön", "山田 はな", "Ирина")
    assert clean_participants(people) == people
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        space = store.create_conversation("mediator", "t", meta={"participants": list(people)})
        for name in people:
            said = UserMessageEvent(sender=name, content=f"{name} speaks")
            record = store.add_message(space.id, "user", said.content, None, said.record_meta())
            readers = [p for p in people if store.path_to_root(record.id, p)]
            assert readers == [name]
