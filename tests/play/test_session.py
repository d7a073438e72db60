"""The session between a front end and the table runtime, on the scripted launcher (exact outcomes)."""

import pytest
from unox.launcher.faults import fault_action
from unox.launcher.script import ScriptLauncher
from unox.table.runtime import Table
from unox.table.settings import TableSettings
from unox.ui.commands import InputError
from unox.ui.session import Session

PLAYERS = ("Ann", "Bob", "Cy")
IN_LAUNCHER = 112 - 7 * len(PLAYERS) - 1  # S2 / issue 2 §4


def make_session(*outcomes, players=PLAYERS, cards=200):
    launcher = ScriptLauncher(outcomes, cards=cards)
    table = Table.create(TableSettings(players=players, seed=1), launcher=launcher)
    session = Session(table, launcher=launcher, sim=True)
    return session, launcher


def dealt(*outcomes, first="G7"):
    session, launcher = make_session(*outcomes)
    session.submit("deal Cy")
    session.submit(f"flip {first}")
    return session, launcher


def test_S1_draws_choose_the_dealer_and_a_tie_redraws_only_the_tied():
    session, _ = make_session()
    for player, card in (("Ann", "G3"), ("Bob", "R8"), ("Cy", "B8")):
        session.draw(player, card)
    assert session.ctx.dealer is None and session.ctx.drawing == ["Bob", "Cy"]
    with pytest.raises(InputError, match="only Bob, Cy"):
        session.draw("Ann", "G9")
    session.draw("Bob", "RS")  # an action card counts 0 (S1)
    session.draw("Cy", "Y1")
    assert session.ctx.dealer == "Cy"
    assert session.prompt().who == "Cy"
    session.submit("deal")
    assert session.state["dealer"] == "Cy" and session.state["phase"] == "flip"


def test_S3_after_the_first_card_the_player_left_of_the_dealer_is_asked_to_play():
    session, _ = dealt()
    assert session.prompt().who == "Ann"  # Cy dealt; Ann sits to Cy's left
    assert session.state["launcher"]["cards"] == IN_LAUNCHER


def test_A1_first_card_hit2_press_goes_to_the_owed_player_and_fires_the_beam_count():
    session, launcher = dealt(3, 0, first="RH")
    assert session.prompt().who == "Ann" and "2 presses owed" in session.prompt().text
    session.submit("press")
    assert session.state["hands"]["Ann"] == 7 + 3
    assert session.state["launcher"]["cards"] == IN_LAUNCHER - 3
    session.submit("press")
    assert session.state["hands"]["Ann"] == 10 and session.state["owed"] == []
    assert session.prompt().who == "Bob"  # S4: Ann pressed twice and is skipped
    assert len(launcher.fires) == 2


def test_a_press_nobody_owes_beeps_not_owed_and_fires_nothing():
    session, launcher = make_session()  # before the deal nobody may press
    fires_before = len(launcher.fires)
    session.submit("press")
    assert launcher.beeps[-1] == "not_owed"
    assert len(launcher.fires) == fires_before
    assert session.log[-1].startswith("Press refused (not-now beep): nobody owes a press now")
    assert '{"cmd"' not in session.log[-1]  # issue 8.6: the play screen's words, not the JSON protocol's


def test_a_jam_is_shown_with_what_to_do_and_clears_with_the_next_good_press():
    session, launcher = dealt("jam", 2)
    before = dict(session.state["hands"])
    session.submit("press")
    assert session.ctx.fault == "jam"
    assert session.prompt().text.startswith("LAUNCHER: the launcher jammed")
    assert session.state["hands"] == before  # a jam that fired nothing did not count
    session.submit("press")
    assert session.ctx.fault is None
    assert session.state["hands"]["Ann"] == before["Ann"] + 2


def test_undo_takes_back_an_announcement_exactly_but_never_a_press():
    session, _ = dealt(4)
    start = session.state
    session.submit("G5")
    session.submit("undo")
    assert session.state == start
    session.submit("press")
    with pytest.raises(InputError, match="cannot go back"):
        session.submit("undo")


def test_an_illegal_play_is_refused_and_changes_nothing():
    session, _ = dealt()
    start = session.state
    with pytest.raises(InputError, match="Ann's turn"):
        session.submit("Bob G5")  # not Bob's turn (T1): the message names whose turn it is
    assert session.state == start


def test_R1_reload_is_advised_before_the_launcher_runs_dry_and_cleared_by_reload():
    session, _ = dealt(IN_LAUNCHER - 10, 0)
    session.submit("press")  # Ann takes nearly all the launcher holds
    assert session.state["launcher"]["cards"] == 10
    assert session.ctx.reload_due is False  # the discard pile is only the top card: nothing to reload
    session.submit("Bob G2")
    session.submit("Cy G3")
    assert session.ctx.reload_due and "then type reload" in session.prompt().text
    session.submit("reload")
    assert session.state["launcher"]["cards"] == 10 + 2  # every discard but the top goes back (R1)
    assert session.ctx.reload_due is False  # only the top card is left on the pile


def test_undo_goes_through_the_journal_and_a_resume_sees_the_same(tmp_path):
    from unox.table.journal import Journal
    from unox.table.opening import open_play_session, resume_play_session

    path = tmp_path / "undo.db"
    session = open_play_session(TableSettings(players=PLAYERS, seed=2, launcher="script"), journal=path,
        night=Session)
    session.submit("deal Cy")
    session.submit("flip G7")
    rows = Journal(path).entries()
    state = session.state
    session.submit("G5")
    assert len(Journal(path).entries()) == len(rows) + 1
    session.submit("undo")
    assert Journal(path).entries() == rows
    session.table.close()  # one table per journal (issue 7, item 5): the resumed one takes it over
    assert resume_play_session(path, night=Session).state == state


class _Unpluggable(ScriptLauncher):
    """A scripted launcher whose port can vanish, as a pulled USB cable does."""

    plugged = True

    def wait_press(self, timeout=None):
        from unox.launcher.base import LauncherError

        if not self.plugged:
            raise LauncherError("the port vanished")
        return super().wait_press(timeout)


def test_a_lost_link_is_shown_with_what_to_do_and_clears_when_the_launcher_answers_again():
    launcher = _Unpluggable(cards=200)
    session = Session(Table.create(TableSettings(players=PLAYERS, seed=1), launcher=launcher),
                      launcher=launcher, sim=True)
    session.submit("deal Cy")
    state = session.state
    launcher.plugged = False
    session.poll()
    assert session.ctx.fault == "link"
    assert session.prompt().text == "LAUNCHER: " + fault_action("link")
    assert session.state == state
    launcher.plugged = True
    session.poll()
    assert session.ctx.fault is None
    assert session.log[-1] == "Launcher fault cleared (link): the game goes on."


def test_A8_S4_hit_fire_keeps_asking_the_same_player_until_cards_come_out():
    session, launcher = dealt(0, 0, 3, first="WF blue")
    for _ in range(2):
        assert session.prompt().who == "Ann" and "until cards come out" in session.prompt().text
        session.submit("press")
        assert session.state["hands"]["Ann"] == 7
    session.submit("press")
    assert session.state["hands"]["Ann"] == 7 + 3
    assert session.state["owed"] == [] and session.prompt().who == "Bob"  # Ann took them and is skipped
    assert [f.requested >= 1 for f in launcher.fires] == [True, True, True]  # every press asked to fire


def test_P2_a_wrong_card_goes_back_and_the_player_presses_twice():
    session, _ = dealt()
    session.submit("G5")
    session.submit("penalty Ann wrong_card")
    state = session.state
    assert state["hands"]["Ann"] == 7 and state["top"] == "G7"
    assert state["owed"] == [{"player": "Ann", "presses": 2}]
    assert session.prompt().who == "Ann"
