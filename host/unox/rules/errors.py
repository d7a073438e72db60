"""The one error the rules raise: a stable `code` for programs and a `message` telling a person what to do."""

from __future__ import annotations

# Every code the engine can raise, with when it happens (docs/rules.md lists the same table).
ERROR_CODES: dict[str, str] = {
    "wrong_phase": "the call does not fit the phase of play (e.g. a play before the first card is flipped)",
    "unknown_player": "a name that is not seated at this table",
    "player_out": "a player already out of the game (G3) was named",
    "not_your_turn": "a play by someone other than the player whose turn it is",
    "owes_presses": "a play by a player who still owes presses",
    "press_out_of_order": "a press by a player who owes presses while someone before them still owes",
    "not_owed": "a press by a player who owes none and whose turn it is not",
    "illegal_card": "a card that may not go on the current top card and colour",
    "not_in_hand": "dealt mode: the player does not hold that card",
    "not_in_launcher": "dealt mode: the card to turn up is not in the launcher",
    "bad_card": "a card code that does not exist",
    "bad_color": "a colour that does not exist",
    "missing_color": "a wild card played or turned up without naming a colour",
    "unexpected_color": "a colour named for a card that is not wild",
    "missing_target": "Trade Hands played without naming the player to trade with",
    "bad_target": "Trade Hands aimed at the player themselves, or a target given for another card",
    "bad_count": "a Discard All count that is impossible, or a count given for another card",
    "trade_last_card": "Trade Hands played as the last card (A5 DECISION)",
    "must_play": "dealt mode, first card Discard All: the player holds a card that must be played (S4)",
    "bad_fired": "a press reporting a negative or impossible number of fired cards",
    "catch_window_closed": "a catch when the player cannot be caught (U2 window closed or never open)",
    "called_uno": "a catch of a player who had already called UNO",
    "bad_catcher": "a catch by the caught player themselves",
    "uno_not_due": "an UNO call when the player neither may be caught nor is about to play",
    "bad_penalty": "a penalty kind other than advice or wrong_card",
    "nothing_to_take_back": "a wrong-card penalty when the player's play is not the most recent event",
    "nothing_to_reload": "a reload when the discard pile holds only its top card",
    "bad_points": "a score call whose points do not name every player once with a whole number >= 0",
    "missing_dealer": "a first deal without naming the dealer",
    "bad_deck": "dealt mode: a stacked deck that is not exactly the edition's cards",
    "bad_draw": "a dealer draw (S1) that does not give one card per player",
    "bad_setup": "a game created with an impossible player list, mode, scoring, target, rules or variant",
    "not_in_rules": "a request the edition does not have (press in classic, draw in Extreme)",
    "owes_draws": "a play or pass while draws are owed (draw editions)",
    "draw_out_of_order": "a draw by a player who owes draws while someone before them still owes",
    "already_drew": "a second draw of one's own in a turn (C-T4)",
    "must_draw_first": "a pass without the turn's draw (C-T4)",
    "only_drawn_card": "dealt mode: after the turn's draw, a card other than the one drawn (C-T2)",
    "nothing_to_challenge": "a challenge with no Wild Draw Four to challenge, or by another than its victim",
    "bad_challenge": "a challenge without guilty in physical mode, or with it in dealt mode",
    "pending_choice": "any move by anyone but the choice due, while an edition's special card waits for it",
    "nothing_to_give": "a Beachcomber gift when no choice waits (Barbie, BA-A1)",
    "bad_gift": "a gift with a wild, two cards of one colour, or more cards than held (Barbie, BA-A1)",
    "no_item_due": "Mario Kart: an item or choose request when no choice waits (MK-I1)",
    "bad_item": "Mario Kart: an item card reported wrongly (unknown item, card without item, too early, "
    "or in dealt mode)",
    "choice_not_due": "an edition's request (Casting Call's turn or share) with no such choice waiting",
    "bad_turned_card": "a card turned up (DL3) not named at a physical table, or named in dealt mode",
    "bad_share": "a Casting Call share naming neither or both of to and deal, or its own player (CC-A2)",
}


class RuleError(Exception):
    """A refused call. The game is exactly as it was before the call."""

    def __init__(self, code: str, message: str):
        if code not in ERROR_CODES:
            raise ValueError(f"unregistered rule error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}
