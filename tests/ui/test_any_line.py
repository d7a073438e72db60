"""Issue 8.1/8.4: any line a person types is either done or refused with a reason; a refused line changes
nothing and nothing but a refusal (InputError) ever comes out of the command line."""

from hypothesis import given, settings
from hypothesis import strategies as st
from unox.table.runtime import Table
from unox.table.settings import TableSettings
from unox.ui.commands import VERBS, InputError, card_codes
from unox.ui.session import Session

PLAYERS = ("Ann", "Bob", "Cy")
WORDS = [*VERBS, *PLAYERS, "ann", "by", "red", "blue", "advice", "wrong_card", "quinn", "z", "b", "0", "2",
         "-1", "9999", "Ann=0", "Bob=9999", "Cy=-3", "=", "?", *card_codes()[:20], "WA", "WF", "W"]


def dealt() -> Session:
    session = Session(Table.create(TableSettings(players=PLAYERS, seed=1)))
    session.submit("deal Cy")
    session.submit("flip G7")
    return session


@settings(max_examples=300)
@given(st.lists(st.sampled_from(WORDS), min_size=0, max_size=5))
def test_a_typed_line_is_done_or_refused_and_a_refusal_changes_nothing(words):
    session = dealt()
    before, entries = session.state, session.entries()
    try:
        session.submit(" ".join(words))
    except InputError as refusal:
        assert str(refusal)  # a reason, in words
        assert session.state == before and session.entries() == entries
