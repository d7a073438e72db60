"""A table's settings: everything needed to rebuild its game from scratch, checked once against bounds.

They are stored in the journal, so `unox table --resume FILE` needs nothing but the file.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Any

from unox.words import counted

SCORINGS = ("g1", "g2", "g3")
MIN_PLAYERS, MAX_PLAYERS = 2, 10
MAX_NAME = 40
MAX_TARGET = 100_000
MAX_SEED = 2**63


class SettingsError(ValueError):
    """A setting out of bounds; the message says which values are allowed."""


@dataclass(frozen=True)
class TableSettings:
    """The seats (clockwise), the edition, the scoring variant and target, and the eject profile and seed."""

    players: tuple[str, ...]
    scoring: str = "g1"
    target: int = 500
    profile: str = "measured"
    seed: int | None = None
    launcher: str = "script"
    rules: str = "extreme"  # the edition (`unox.rules.editions`)
    variant: str | None = None  # one the edition declares (`Ruleset.variants`)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        check_players(self.players)
        if self.scoring not in SCORINGS:
            known = ", ".join(SCORINGS)
            raise SettingsError(f"scoring {_short(self.scoring)} is unknown; use one of {known}")
        if not _is_int(self.target) or not 1 <= self.target <= MAX_TARGET:
            raise SettingsError(
                f"target {_short(self.target)} is out of range; give a whole number from 1 to {MAX_TARGET}"
            )
        if self.seed is not None and not (_is_int(self.seed) and -MAX_SEED <= self.seed < MAX_SEED):
            raise SettingsError(
                f"seed {_short(self.seed)} is not a whole number below 2**63; give one such as --seed 7"
            )
        from unox.rules.editions import rule_names

        if not isinstance(self.rules, str) or self.rules not in rule_names():
            known = ", ".join(rule_names())
            raise SettingsError(f"rules {_short(self.rules)} are unknown; use one of {known}")
        if self.variant is not None:
            if not isinstance(self.variant, str):
                raise SettingsError(f"variant {_short(self.variant)} must be text, e.g. --variant partners")
            _check_variant(self.rules, self.variant, len(self.players))

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["players"] = list(self.players)
        if data["variant"] is None:
            del data["variant"]  # journals of tables without one read as before
        return data

    @classmethod
    def from_dict(cls, data: Any) -> TableSettings:
        """Settings as stored in a journal; anything malformed is a SettingsError, never a TypeError."""
        known = {"players", "scoring", "target", "profile", "seed", "launcher", "rules", "variant"}
        if not isinstance(data, dict):
            raise SettingsError(f"table settings must be an object, not {type(data).__name__}")
        unknown = sorted(set(data) - known)
        if unknown:
            raise SettingsError(f"unknown table settings {unknown[:5]}; this unox knows {sorted(known)}")
        if not isinstance(data.get("players"), list):
            raise SettingsError("the table settings need players, a list of names")
        for name in ("profile", "launcher"):
            if name in data and not isinstance(data[name], str):
                raise SettingsError(f"the table setting {name} must be text, not {type(data[name]).__name__}")
        return cls(**data)

    def build_game(self) -> Any:
        """A fresh physical-mode game for these seats; the same settings always build the same game."""
        from unox.rules.game import Game

        rng = random.Random(self.seed) if self.seed is not None else None
        return Game(list(self.players), mode="physical", scoring=self.scoring, target=self.target, rng=rng,
                    ruleset=self.rules, variant=self.variant)


def _check_variant(rules: str, variant: str, players: int) -> None:
    from unox.rules.editions import get_rules
    from unox.rules.errors import RuleError
    from unox.rules.variants import check_variant

    edition = get_rules(rules)
    try:
        check_variant(variant, edition.variants, players, edition.title)
    except RuleError as exc:
        raise SettingsError(f"--variant {variant}: {exc.message}") from exc


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(value: Any) -> str:
    """A value for a message: a huge int is never printed (past 4,300 digits Python cannot)."""
    if _is_int(value) and not -(10**12) < value < 10**12:
        return f"(a number of {value.bit_length() * 30103 // 100000 + 1} digits)"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_players(players: tuple[str, ...]) -> None:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise SettingsError(
            f"{counted(len(players), 'player')} given; a table seats {MIN_PLAYERS} to {MAX_PLAYERS}, "
            "e.g. --players Ann,Bob,Cy"
        )
    for name in players:
        if not isinstance(name, str) or not name.strip() or name != name.strip() or len(name) > MAX_NAME:
            raise SettingsError(
                f"player name {_short(name)} is not usable; give names of 1 to {MAX_NAME} characters "
                "without leading or trailing spaces"
            )
    seen = set()
    for name in players:
        if name.casefold() in seen:
            raise SettingsError(f"player {name!r} is seated twice; give every player a different name")
        seen.add(name.casefold())


def parse_players(text: str) -> tuple[str, ...]:
    """`"Ann,Bob,Cy"` -> seats clockwise in that order."""
    players = tuple(part.strip() for part in text.split(","))
    check_players(players)
    return players
