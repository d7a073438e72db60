"""`sim://?seed=1&cards=83&jam=0.01` -> keyword arguments for `VirtualDevice`, checked against bounds.

Every parameter is optional. An unknown name, a repeated name or a value out of range is a `ValueError`
whose message names the parameter, the allowed range and every known parameter, so pyserial can show it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlsplit

# name: (kwarg, type, low, high, what it is)
PARAMETERS: dict[str, tuple[str, type, float, float, str]] = {
    "seed": ("seed", int, 0, 2**63 - 1, "seed of every random choice"),
    "cards": ("cards", int, 0, 112, "cards in the hopper"),
    "jam": ("jam", float, 0.0, 1.0, "probability per card of a jam in the exit slot"),
    "double": ("double", float, 0.0, 1.0, "probability per card of a double feed"),
    "stuck": ("stuck", float, 0.0, 1.0, "probability per card of a card stuck in the beam"),
    "unjam": ("unjam", float, 0.0, 1.0, "probability that a reverse pulse frees a jam"),
    "battery": ("battery_mv", int, 1, 7000, "pack open-circuit voltage in mV"),
    "drain": ("drain", float, 0.0, 10000.0, "pack voltage lost per ampere-second, mV"),
    "lid": ("lid", str, 0, 0, "open or shut"),
    "bounce": ("bounce", int, 0, 10, "button contact chatter edges"),
    "glitch": ("glitch", float, 0.0, 1.0,
               "probability per motor-on ms of a 0.2 ms spurious low on the beam line"),
    "drop": ("drop", float, 0.0, 1.0, "probability per frame of a lost frame, each direction"),
    "corrupt": ("corrupt", float, 0.0, 1.0, "probability per frame of a flipped bit, each direction"),
    "dup": ("dup", float, 0.0, 1.0, "probability per frame of a duplicate, each direction"),
    "idle_step": ("idle_step", int, 1, 100, "virtual ms per step while idle"),
}
_LID_VALUES = {"open": "open", "shut": "shut", "closed": "shut", "1": "open", "0": "shut"}


def known() -> str:
    return ", ".join(f"{name} ({spec[4]})" for name, spec in PARAMETERS.items())


def parse_sim_url(url: str) -> dict[str, Any]:
    """Checked keyword arguments for `VirtualDevice` from a `sim://` URL."""
    parts = urlsplit(url)
    if parts.scheme.lower() != "sim":
        raise ValueError(f"expected a sim:// URL, got {url!r}")
    if parts.netloc or parts.path.strip("/"):
        raise ValueError(f"{url!r}: put the parameters after '?', e.g. sim://?seed=1&cards=83")
    kwargs: dict[str, Any] = {}
    for name, text in parse_qsl(parts.query, keep_blank_values=True, strict_parsing=False):
        if name not in PARAMETERS:
            raise ValueError(f"unknown sim:// parameter {name!r}; known: {known()}")
        kwarg = PARAMETERS[name][0]
        if kwarg in kwargs:
            raise ValueError(f"sim:// parameter {name!r} given twice; give it once")
        kwargs[kwarg] = _value(name, text)
    return kwargs


def _value(name: str, text: str) -> Any:
    _, kind, low, high, what = PARAMETERS[name]
    if kind is str:
        if text.lower() not in _LID_VALUES:
            raise ValueError(f"sim:// {name}={text!r}: use open or shut")
        return _LID_VALUES[text.lower()]
    try:
        value = kind(text)
    except ValueError:
        raise ValueError(f"sim:// {name}={text!r}: expected {'an integer' if kind is int else 'a number'} "
                         f"{low}..{high} ({what})") from None
    if not low <= value <= high or value != value:
        raise ValueError(f"sim:// {name}={text}: out of range {low}..{high} ({what})")
    return value
