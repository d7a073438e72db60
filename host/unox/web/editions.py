"""The table's edition as the page needs it: its colours, its cards with their names, its own requests.

The page has no per-edition code: it draws every card, fills its card picker and builds the forms of an
edition's own choices from this description, read off the ruleset the table plays (`table.game.rules`), so
an edition added as one module under `unox.rules.editions` shows on the phones unchanged.
"""

from __future__ import annotations

from typing import Any

from unox.rules.cards import kind_name

# The short face printed on a card button; numbers and wild codes print as they are.
KIND_LABELS = {"hit2": "H2", "draw2": "+2", "reverse": "⟲", "skip": "⊘", "discard_all": "DA", "trade": "⇆"}


def card_entry(rules: Any, card: Any) -> dict[str, Any]:
    """One card: its code, colour letter (null for a wild), kind, the face to print, its name, its options."""
    color_name = rules.color_names.get(card.color) if card.color is not None else None
    kind = kind_name(card.kind)
    face = str(card.number) if card.number is not None else kind
    entry: dict[str, Any] = {
        "code": card.code, "color": card.color, "kind": card.kind,
        "label": str(card.number) if card.number is not None else KIND_LABELS.get(card.kind, card.face),
        "name": f"{color_name} {face}" if color_name else face,
    }
    if card.color is None and card.kind not in rules.colorless_kinds:
        entry["names_color"] = True  # a wild names a colour; MK-I1's Item Wild names none
    item = getattr(rules, "item_of", {}).get(card.code)
    if item is not None:
        entry["item"] = item  # the item printed on the card (MK-I1): the page reports it with the card
    if card.kind in rules.target_kinds:
        entry["target"] = True  # played with a player to trade with
    if card.kind in rules.count_kinds:
        entry["count"] = True  # played with how many more cards of its colour went down
    return entry


def edition(rules: Any) -> dict[str, Any]:
    """The `cards` field of `GET /api/state` and the socket's hello (docs/web.md)."""
    return {
        "rules": rules.name,
        "title": rules.title or rules.name,
        "draws": bool(rules.draws),
        "colors": [{"code": c, "name": rules.color_names[c]} for c in rules.colors],
        "cards": [card_entry(rules, card) for card in rules.cards.values()],
        "challengeable": sorted(rules.challengeable),
        "penalties": dict(rules.penalties),
        "items": sorted(set(getattr(rules, "item_of", {}).values())),
        "requests": {
            cmd: {name: {"kind": f.kind, "required": f.required, "hint": f.hint}
                  for name, f in fields.items()}
            for cmd, fields in rules.requests.items()
        },
    }


def edition_of(table: Any) -> dict[str, Any]:
    return edition(table.game.rules)


def own_request_cmds(table: Any) -> frozenset[str]:
    """The edition's own requests a player may send for themselves (those with a `player` field)."""
    return frozenset(cmd for cmd, fields in table.game.rules.requests.items() if "player" in fields)
