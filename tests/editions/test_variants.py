"""The variants an edition declares, as `--variant` on a table: two players, elimination, partners, partner
rotation (C-2P, C-G3, C-V1, C-V2) and the multi-table schedule (C-V3), through the table protocol."""

from __future__ import annotations

import pytest
from unox.rules.variants import multi_table_rounds
from unox.table.settings import SettingsError

from .kit import accept, physical_table


def _out(table, player, card="G1"):
    """`player` plays their last card (physical: the table says they held one)."""
    table.game.cards.sizes[player] = 1
    table.game.order.turn = table.game.order.index[player]
    return accept(table, cmd="play", player=player, card=card)


def test_C_V1_partners_sit_opposite_and_a_pair_scores_the_other_pairs_cards():
    table = physical_table("classic", variant="partners", first="G7")
    assert table.state()["teams"] == [["Ann", "Cy"], ["Bob", "Dee"]]
    _out(table, "Bob")
    state = accept(table, cmd="score", points={"Ann": 30, "Bob": 0, "Cy": 12, "Dee": 99})
    assert state["scores"] == {"Ann": 0, "Bob": 42, "Cy": 0, "Dee": 42}  # Dee's cards are her partner's side


def test_C_V1_D6_a_pairs_total_wins_at_the_target():
    table = physical_table("classic", variant="partners", target=100, first="G7")
    _out(table, "Cy")
    state = accept(table, cmd="score", points={"Ann": 50, "Bob": 60, "Cy": 0, "Dee": 45})
    assert state["phase"] == "game_over" and state["winner"] == "Cy" and state["scores"]["Ann"] == 105


def test_C_V1_partners_need_an_even_number_of_four_or_more():
    with pytest.raises(SettingsError, match="4, 6, 8 or 10"):
        physical_table("classic", players=("Ann", "Bob", "Cy"), variant="partners")


def test_C_V2_partner_rotation_changes_pairs_every_four_hands_and_the_highest_total_wins_after_twelve():
    table = physical_table("classic", variant="rotation")
    seen = []
    for hand in range(12):
        dealer = ("Ann", "Bob", "Cy", "Dee")[hand % 4]
        accept(table, cmd="deal", dealer=dealer)
        accept(table, cmd="flip", card="G7")
        seen.append(tuple(map(tuple, table.state()["teams"])))
        _out(table, "Ann")
        state = accept(table, cmd="score", points={"Ann": 0, "Bob": 10, "Cy": 20, "Dee": 30})
    assert seen[0] == seen[3] == (("Ann", "Cy"), ("Bob", "Dee"))
    assert seen[4] == seen[7] == (("Ann", "Bob"), ("Cy", "Dee"))
    assert seen[8] == seen[11] == (("Ann", "Dee"), ("Bob", "Cy"))
    # Ann always goes out: her pair scores the other pair's cards
    assert state["scores"] == {"Ann": 4 * 40 + 4 * 50 + 4 * 30, "Bob": 4 * 50, "Cy": 4 * 40, "Dee": 4 * 30}
    assert state["phase"] == "game_over" and state["winner"] == "Ann"


def test_C_V2_rotation_is_for_four_players():
    with pytest.raises(SettingsError, match="exactly 4"):
        physical_table("classic", players=("Ann", "Bob", "Cy", "Dee", "Eve", "Fay"), variant="rotation")


def test_C_V3_D7_eight_players_partner_everyone_once_two_tables_of_two_pairs():
    players = [f"P{i}" for i in range(1, 9)]
    rounds = multi_table_rounds(players)
    assert len(rounds) == 7
    pairs = [frozenset(pair) for round_ in rounds for table in round_ for pair in table]
    assert len(pairs) == 28 == len(set(pairs))  # every pair once: 7 rounds x 4 hands = 28 hands each
    for round_ in rounds:
        seated = [p for table in round_ for pair in table for p in pair]
        assert sorted(seated) == sorted(players)  # each player at one table each round


def test_C_G3_elimination_is_a_variant_that_scores_as_g3():
    table = physical_table("classic", players=("Ann", "Bob", "Cy"), variant="elimination", target=50,
                           first="G7")
    assert table.state()["scoring"] == "g3" and table.state()["variant"] == "elimination"
    _out(table, "Bob")
    state = accept(table, cmd="score", points={"Ann": 60, "Bob": 0, "Cy": 5})
    assert state["dropped"] == ["Ann"]


def test_C_2P1_the_two_player_variant_seats_two():
    table = physical_table("classic", players=("Ann", "Bob"), variant="two-player", first="G7")
    assert accept(table, cmd="play", player="Bob", card="GR")["turn"] == "Bob"
    with pytest.raises(SettingsError, match="exactly 2"):
        physical_table("classic", variant="two-player")


def test_a_variant_the_edition_lacks_is_refused():
    with pytest.raises(SettingsError, match="UNO Extreme has no variant 'partners'"):
        physical_table("extreme", variant="partners")
