"""The tournament's topics on the broker, in one place for the coordinator and the tables."""

from __future__ import annotations

ROOT = "unox/tournament"


def base(name: str) -> str:
    return f"{ROOT}/{name}"


def schedule(name: str) -> str:
    """Retained: the players, the rounds and who sits where (Plan.to_json)."""
    return f"{base(name)}/schedule"


def current_round(name: str) -> str:
    """Retained: {"round": r} the round the tables may play now; {"round": null, "over": true} at the end."""
    return f"{base(name)}/round"


def standings(name: str) -> str:
    """Retained: the standings after every result."""
    return f"{base(name)}/standings"


def result(name: str, table: int | str) -> str:
    """A table's hand results (QoS 1, not retained)."""
    return f"{base(name)}/result/{table}"


def ack(name: str, table: int | str) -> str:
    """The coordinator's receipts to one table: {"hand_id": ...} once the result is in its journal."""
    return f"{base(name)}/ack/{table}"


def presence(name: str, who: str) -> str:
    """Retained: the process that holds `who` (`coordinator`, `table1`, ...) now; a newcomer takes the place
    and the one it replaced sees another's token here and stops (never two processes under one client id).
    The coordinator's also says `alive` (true while it runs, false once it ended or its will was sent) and
    its tournament id, boot, host, PID and start time, so a new start under its name is refused while it
    runs."""
    return f"{base(name)}/presence/{who}"


def settle(name: str) -> str:
    """Never published: subscribed to last, its answer says the retained messages before it have arrived."""
    return f"{base(name)}/settle"


def coordinator_id(name: str, tournament: str) -> str:
    """One tournament's coordinator: a new tournament of the same name never meets an old session."""
    return f"unox-{name}-{tournament}-coordinator"


def table_id(name: str, tournament: str, table: int) -> str:
    return f"unox-{name}-{tournament}-table{table}"
