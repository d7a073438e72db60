"""The launcher's TOML config file: calibrated motor and beam values, checked against bounds.

Location: `$XDG_CONFIG_HOME/unox/config.toml` (normally `~/.config/unox/config.toml`); every command's
`--config FILE` overrides it. A missing default file means the defaults; a missing `--config FILE` is an
error (a typo must not silently give the defaults), except where a command creates it (`unox calibrate`).
Unknown keys and out-of-range values are errors that name the key, the value and what is allowed, as in
Klipper's config checks. `[launcher] spec = "serial:/dev/ttyACM0"` names the launcher the hardware
commands use when no `--launcher` is given.
"""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path


class ConfigError(ValueError):
    """A config file that cannot be used; the message names the key and the allowed range."""


@dataclass(frozen=True)
class Option:
    kind: type
    low: float
    high: float
    default: float
    doc: str


def _firmware_schema() -> dict[str, Option]:
    """The firmware's own bounds: one source, so a value this file accepts the firmware accepts too."""
    from unoxfw.settings import LIMITS

    return {key: Option(int, low, high, default, _FIRMWARE_DOCS.get(key, "")) for key, (default, low, high)
            in LIMITS.items()}


_FIRMWARE_DOCS = {
    "duty": "motor PWM duty in percent while firing",
    "card_ms": "a card that does not reach the beam in this time is a jam (safe jam timeout)",
    "exit_ms": "the last card must leave the beam within this time, else stuck",
    "reverse_ms": "reverse pulse that pulls the next card back",
    "settle_ms": "wait after the reverse pulse before looking at the beam",
    "max_on_ms": "hard cap on one fire's motor time",
    "silence_ms": "motor stops when the host is silent this long while it runs",
    "link_ms": "no frame from the host this long: link lost, work alone",
    "beat_ms": "firmware heartbeat period",
    "sleep_ms": "idle time before sleep (L3); 0 = never",
    "low_mv": "below: low battery signal (L5)",
    "crit_mv": "below: fire refused (battery)",
    "host_beat_ms": "the host's heartbeat period: unox sends it itself after each HELLO; leave it at 500",
}

SCHEMA: dict[str, dict[str, Option]] = {
    "firmware": _firmware_schema(),
    "calibration": {
        "samples": Option(int, 0, 1_000_000, 0, "cards measured so far; calibrate refines the means"),
        "feed_ms": Option(float, 0, 10000, 0, "mean motor time from start to a card in the beam"),
        "block_ms": Option(float, 0, 5000, 0, "mean time a card blocks the beam (direct GPIO build)"),
        "period_ms": Option(float, 0, 5000, 0, "mean time from one card to the next while firing"),
        "duty": Option(float, 0, 100, 0, "lowest duty in percent that still fed a card"),
    },
    "press": {
        "min_gap_ms": Option(int, 0, 10000, 0, "unox press anti-mash: a press closer than this to the one "
                             "before gets the not-now beep and fires nothing; 0 = off"),
        "suspense_ms": Option(int, 0, 10000, 0, "unox press suspense: a random wait of up to this before "
                              "the motor turns; 0 = off"),
    },
}


def default_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "unox" / "config.toml"


def defaults() -> dict[str, dict[str, float]]:
    return {name: {key: opt.kind(opt.default) for key, opt in opts.items()} for name, opts in SCHEMA.items()}


def load(path: str | Path | None = None, *, missing_ok: bool = False) -> dict[str, dict[str, float]]:
    """The checked config with defaults filled in; a missing default file is the defaults.

    A file named by the caller (`--config`) must exist, unless `missing_ok` (a command that creates it).
    """
    named = path is not None
    path = Path(path) if named else default_path()
    if not path.exists():
        if named and not missing_ok:
            raise ConfigError(
                f"config file {path} does not exist; check the path, or leave out --config to use "
                f"{default_path()} (`unox calibrate --config {path}` creates one)"
            )
        return defaults()
    if path.is_dir():
        raise ConfigError(f"config file {path} is a directory; give the path of a .toml file")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}); fix it, or delete it to use defaults") from exc
    return validate(raw, source=str(path))


def validate(raw: dict, *, source: str = "config") -> dict[str, dict[str, float]]:
    """Every key known, every value of the right type and in range; returns a complete config."""
    config: dict = defaults()
    for section, values in raw.items():
        if section == "profiles":
            config["profiles"] = _checked_profiles(values, source)
            continue
        if section == "launcher":
            config["launcher"] = _checked_launcher(values, source)
            continue
        if section not in SCHEMA:
            known = ", ".join([*SCHEMA, "launcher", "profiles"])
            raise ConfigError(f"{source}: unknown section [{section}]; known: {known}")
        if not isinstance(values, dict):
            raise ConfigError(f"{source}: {section} must be a table like [{section}]")
        for key, value in values.items():
            config[section][key] = check_value(section, key, value, source=source)
    return config


def _checked_launcher(values: object, source: str) -> dict[str, str]:
    """`[launcher] spec = "..."`: the launcher the hardware commands open when `--launcher` is left out."""
    from unox.launcher.spec import parse_spec

    if not isinstance(values, dict):
        raise ConfigError(f'{source}: launcher must be a table like [launcher] spec = "serial:/dev/ttyACM0"')
    unknown = set(values) - {"spec"}
    if unknown:
        raise ConfigError(f"{source}: unknown key launcher.{sorted(unknown)[0]}; known in [launcher]: spec")
    spec = values.get("spec")
    if not isinstance(spec, str):
        raise ConfigError(f'{source}: launcher.spec must be a string such as "serial:/dev/ttyACM0" or "gpio"')
    try:
        parse_spec(spec)
    except ValueError as exc:
        raise ConfigError(f"{source}: launcher.spec: {exc}") from exc
    return {"spec": spec}


def _checked_profiles(profiles: object, source: str) -> dict:
    """Custom eject profiles live in the same file; the profiles module owns their bounds."""
    from unox.profiles import ProfileError, get_spec

    if not isinstance(profiles, dict):
        raise ConfigError(f"{source}: profiles must be tables like [profiles.NAME]")
    for name in profiles:
        try:
            get_spec(name, {"profiles": profiles})
        except ProfileError as exc:
            raise ConfigError(f"{source}: [profiles.{name}]: {exc}") from exc
    return profiles


def check_value(section: str, key: str, value: object, *, source: str = "config") -> float:
    options = SCHEMA[section]
    name = f"{section}.{key}"
    if key not in options:
        raise ConfigError(f"{source}: unknown key {name}; known in [{section}]: {', '.join(options)}")
    opt = options[key]
    allowed = f"allowed: {_fmt(opt.low)} to {_fmt(opt.high)}"
    numeric = isinstance(value, int | float) and not isinstance(value, bool)
    if not numeric or (opt.kind is int and not isinstance(value, int)) or not math.isfinite(value):
        kind = "an integer" if opt.kind is int else "a number"
        raise ConfigError(f"{source}: {name} = {value!r} is not {kind}; {allowed}")
    if not opt.low <= value <= opt.high:
        raise ConfigError(f"{source}: {name} = {value!r} is out of range; {allowed}")
    return opt.kind(value)


def save(config: dict[str, dict[str, float]], path: str | Path | None = None) -> Path:
    """Checks, then writes atomically (temp file + rename) so a crash never leaves half a file."""
    path = Path(path) if path is not None else default_path()
    checked = validate(config, source=str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(dumps(checked), encoding="utf-8")
    os.replace(tmp, path)
    return path


def dumps(config: dict[str, dict[str, float]]) -> str:
    """A small TOML writer for our flat schema: sections of numbers, each with its comment."""
    lines = ["# unox launcher config; written by `unox calibrate`, checked on every load."]
    for section, options in SCHEMA.items():
        lines += ["", f"[{section}]"]
        for key, opt in options.items():
            value = config.get(section, {}).get(key, opt.default)
            lines.append(f"{key} = {_toml_value(opt.kind(value))}  # {opt.doc}")
    if "launcher" in config:
        lines += _toml_table("launcher", config["launcher"])
    for name, table in config.get("profiles", {}).items():
        lines += _toml_table(f"profiles.{_toml_key(name)}", table)
    return "\n".join(lines) + "\n"


def _toml_table(header: str, table: dict) -> list[str]:
    lines = ["", f"[{header}]"]
    nested = []
    for key, value in table.items():
        if isinstance(value, dict):
            nested.append((key, value))
        else:
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    for key, value in nested:
        lines += _toml_table(f"{header}.{_toml_key(key)}", value)
    return lines


def _toml_key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() and key.isascii() else _toml_value(key)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(round(value, 3))
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise ConfigError(f"cannot write {value!r} to TOML; only numbers, strings, booleans and lists")


def _fmt(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)
