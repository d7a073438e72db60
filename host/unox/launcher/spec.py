"""`--launcher` values: one string picks the driver and its parameters."""

from __future__ import annotations

from urllib.parse import parse_qsl

from unox.launcher.base import Launcher

SPEC_FORMS = (
    "sim",
    "sim:?jam=0.05&seed=1",
    "script",
    "serial:/dev/ttyACM0",
    "gpio",
    "gpio:?factory=lgpio|rpigpio|mock&pwm=hardware|software&pwm_chip=N",
)
GPIO_FACTORIES = ("lgpio", "rpigpio", "mock")


def _invalid(spec: str, why: str) -> ValueError:
    return ValueError(f"invalid launcher {spec!r}: {why}; valid forms: {', '.join(SPEC_FORMS)}")


def parse_spec(spec: str) -> tuple[str, str, dict[str, str]]:
    """Split `kind:target?query` into (kind, target, params), checking the kind and its shape."""
    kind, _, rest = spec.partition(":")
    target, _, query = rest.partition("?")
    try:
        params = dict(parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query)))
    except ValueError as exc:
        raise _invalid(spec, f"bad parameters ({exc})") from exc
    if kind not in ("sim", "script", "serial", "gpio"):
        raise _invalid(spec, f"unknown kind {kind!r}")
    if kind == "serial" and not target:
        raise _invalid(spec, "serial needs a port, e.g. serial:/dev/ttyACM0")
    if kind != "serial" and target:
        raise _invalid(spec, f"{kind} takes parameters after '?', not a path")
    if kind == "script" and params:
        raise _invalid(spec, "script takes no parameters")
    if kind == "gpio":
        unknown = set(params) - {"factory", "pwm", "pwm_chip"}
        if unknown or params.get("factory", "lgpio") not in GPIO_FACTORIES:
            raise _invalid(spec, f"gpio takes only factory={'|'.join(GPIO_FACTORIES)}, pwm=hardware|software "
                           "and pwm_chip=N")
        if params.get("pwm", "hardware") not in ("hardware", "software"):
            raise _invalid(spec, "pwm is hardware (the Pi's PWM channels, 20 kHz) or software")
        if not params.get("pwm_chip", "0").isdigit():
            raise _invalid(spec, "pwm_chip is the N of /sys/class/pwm/pwmchipN (0 on a Pi 0-4)")
    return kind, target, params


def open_launcher(spec: str, **options) -> Launcher:
    """Opens the launcher a spec names; `options` go to the driver (config=, clock=, outcomes=, ...)."""
    kind, target, params = parse_spec(spec)
    if kind == "script":
        from unox.launcher.script import ScriptLauncher

        return ScriptLauncher(**options)
    if kind == "gpio":
        from unox.launcher.gpio import GpioLauncher

        return GpioLauncher(factory=params.get("factory", "lgpio"), pwm=params.get("pwm"),
                            pwm_chip=int(params.get("pwm_chip", "0")), **options)
    if kind == "sim":
        from unox.launcher.sim import SimLauncher

        return SimLauncher(params, **options)
    from unox.launcher.serial import SerialLauncher

    return SerialLauncher.open_port(target, **options)
