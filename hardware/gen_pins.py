"""Generate the firmware pin table and the GPIO driver's default pins from hardware/pins.toml.

firmware/main.py's MOTOR_PINS and BUZZER_PIN lines follow [pico] too: main.py drives those pins low as its
very first statements, before any import, so it cannot read them from pins.py.

pins.toml is the one pin map for both builds; the two Python files are derived from it so that the
firmware, the direct-GPIO driver and the wiring diagram can never disagree. The map is checked before
anything is written: a pin used twice, a pin the board does not bring out, or a divider that would put
more than the ADC reference on the ADC pin is an error that says what to change.

    python3 hardware/gen_pins.py            # rewrite the generated files
    python3 hardware/gen_pins.py --check    # exit 1 if any checked-in one is stale
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PINS_TOML = HERE / "pins.toml"
FIRMWARE_PINS = ROOT / "firmware" / "unoxfw" / "pins.py"
HOST_PINS = ROOT / "host" / "unox" / "launcher" / "gpio_pins.py"
FIRMWARE_MAIN = ROOT / "firmware" / "main.py"
_MAIN_LINES = (re.compile(r"^MOTOR_PINS = \(\d+, \d+\)", re.M), re.compile(r"^BUZZER_PIN = \d+", re.M))

# Every build needs these roles; the firmware and the GPIO driver look them up by name.
COMMON_KEYS = ("motor_in1", "motor_in2", "beam", "button", "lid", "buzzer")
PICO_KEYS = COMMON_KEYS + ("battery_adc", "led")
BATTERY_KEYS = ("r_top_ohm", "r_bottom_ohm", "adc_ref_mv", "nominal_mv", "low_mv", "crit_mv")
# Roles that drive the H-bridge: high at the wrong moment, they run the motor.
PI_MOTOR_KEYS = ("motor_in1", "motor_in2")
# BCM pins that are high while the Pi boots, before unox can drive them low: a motor input there runs the
# motor at every boot. The driver's input threshold (DRV8833 ~1.5 V over a ~100 kOhm pull-down) is far
# below what these pins show.
PI_HIGH_AT_BOOT = {
    0: "BCM 0 (ID_SD) is pulled up at boot and belongs to the HAT ID EEPROM",
    1: "BCM 1 (ID_SC) is pulled up at boot and belongs to the HAT ID EEPROM",
    2: "BCM 2 (SDA1) has a 1.8 kOhm pull-up to 3V3 on the board: it is always high unless driven",
    3: "BCM 3 (SCL1) has a 1.8 kOhm pull-up to 3V3 on the board: it is always high unless driven",
    4: "BCM 4 is pulled up (50-65 kOhm) from power-on until unox claims it",
    5: "BCM 5 is pulled up (50-65 kOhm) from power-on until unox claims it",
    6: "BCM 6 is pulled up (50-65 kOhm) from power-on until unox claims it",
    7: "BCM 7 is pulled up (50-65 kOhm) from power-on until unox claims it",
    8: "BCM 8 is pulled up (50-65 kOhm) from power-on until unox claims it",
    14: "BCM 14 (TXD0) idles high while the serial console runs on it",
}

# Pico: GPn -> physical header pin. GP0-GP22 and GP26-GP28 reach the header; GP23 (SMPS mode),
# GP24 (VBUS sense) and GP29 (VSYS/3) are wired on the board, and GP25 is the on-board LED.
PICO_PHYSICAL = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17,
    14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34,
}
PICO_POWER = {"VBUS": 40, "VSYS": 39, "3V3(OUT)": 36, "ADC_VREF": 35, "AGND": 33, "RUN": 30, "3V3_EN": 37}
PICO_GROUND = (3, 8, 13, 18, 23, 28, 38)
PICO_HEADER = frozenset(PICO_PHYSICAL)
PICO_ADC = {26: "ADC0", 27: "ADC1", 28: "ADC2"}
PICO_LED = 25
# Pi 40-pin header: BCM n -> physical pin. BCM 0 and 1 (pins 27, 28) are the HAT ID EEPROM bus.
PI_PHYSICAL = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31, 13: 33, 19: 35,
    26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 12: 32, 16: 36, 20: 38, 21: 40,
}
PI_POWER = {"3V3": 1, "5V": 2, "3V3 (2nd)": 17, "5V (2nd)": 4, "ID_SD": 27, "ID_SC": 28}
PI_GROUND = (6, 9, 14, 20, 25, 30, 34, 39)
PI_HEADER = frozenset(PI_PHYSICAL)
# SPI0, left free so that an MCP3008 can measure the battery on the direct-GPIO build.
PI_SPI0 = {8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"}
# A fresh alkaline cell reads up to ~1.65 V against a 1.5 V nominal: 10 % headroom over nominal.
FRESH_PACK_FACTOR = 1.1

FIRMWARE_HEADER = (
    "# Generated from hardware/pins.toml by hardware/gen_pins.py: do not edit by hand.\n"
    "# Pico GPIO numbers and the battery divider.\n"
)
HOST_HEADER = (
    '"""Default BCM pins of the direct-GPIO build. '
    'Generated from hardware/pins.toml by hardware/gen_pins.py."""\n\n'
)


class PinMapError(ValueError):
    """pins.toml cannot be used; the message names the key and what to change."""


def load(path: Path = PINS_TOML) -> dict:
    """The parsed and checked pin map."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PinMapError(f"{path}: cannot read the pin map ({exc}); fix the file and run again") from exc
    validate(data)
    return data


def validate(data: dict) -> None:
    """Raise PinMapError for anything that would miswire a board."""
    for table in ("pico", "pi", "battery"):
        if not isinstance(data.get(table), dict):
            raise PinMapError(f"pins.toml: missing table [{table}]; restore it from git")
    _check_ints(data)
    _check_required(data["pico"], PICO_KEYS, "pico")
    _check_required(data["pi"], COMMON_KEYS, "pi")
    _check_required(data["battery"], BATTERY_KEYS, "battery")
    _check_unique(data["pico"], "pico")
    _check_unique(data["pi"], "pi")
    _check_pico(data["pico"])
    _check_pi(data["pi"])
    _check_battery(data["battery"])


def _check_ints(data: dict) -> None:
    for table in ("pico", "pi", "battery"):
        for key, value in data[table].items():
            if type(value) is not int:
                raise PinMapError(f"pins.toml: [{table}] {key} = {value!r} must be a whole number")


def _check_required(table: dict, keys: tuple[str, ...], name: str) -> None:
    missing = [key for key in keys if key not in table]
    if missing:
        raise PinMapError(f"pins.toml: [{name}] is missing {', '.join(missing)}; every build needs them")


def _check_unique(table: dict, name: str) -> None:
    seen: dict[int, str] = {}
    for key, pin in table.items():
        if pin in seen:
            raise PinMapError(
                f"pins.toml: [{name}] {key} and {seen[pin]} both use pin {pin}; give each its own"
            )
        seen[pin] = key


def _check_pico(pico: dict) -> None:
    for key, pin in pico.items():
        if key == "led":
            if pin != PICO_LED and pin not in PICO_HEADER:
                raise PinMapError(f"pins.toml: [pico] led = {pin} is not GP25 or a header pin")
            continue
        if pin not in PICO_HEADER:
            raise PinMapError(
                f"pins.toml: [pico] {key} = {pin} is not on the Pico's header; use GP0-GP22 or GP26-GP28"
            )
    if pico["battery_adc"] not in PICO_ADC:
        pin = pico["battery_adc"]
        raise PinMapError(f"pins.toml: [pico] battery_adc = {pin} has no ADC; use 26, 27 or 28")


def _check_pi(pi: dict) -> None:
    for key in PI_MOTOR_KEYS:
        if pi[key] in PI_HIGH_AT_BOOT:
            raise PinMapError(
                f"pins.toml: [pi] {key} = {pi[key]}: {PI_HIGH_AT_BOOT[pi[key]]}, so the motor would run "
                "while the Pi boots; use BCM 12 and 13 (hardware PWM, low at boot)"
            )
    for key, pin in pi.items():
        if pin not in PI_HEADER:
            raise PinMapError(f"pins.toml: [pi] {key} = {pin} is not a free BCM pin; use BCM 2-27")
        if pin in PI_SPI0:
            raise PinMapError(
                f"pins.toml: [pi] {key} = {pin} is {PI_SPI0[pin]}; keep SPI0 free for an MCP3008 battery ADC"
            )


def _check_battery(battery: dict) -> None:
    for key in BATTERY_KEYS:
        if battery[key] <= 0:
            raise PinMapError(f"pins.toml: [battery] {key} = {battery[key]} must be positive")
    if battery["low_mv"] >= battery["nominal_mv"]:
        raise PinMapError("pins.toml: [battery] low_mv must be below nominal_mv")
    if battery["crit_mv"] >= battery["low_mv"]:
        raise PinMapError("pins.toml: [battery] crit_mv must be below low_mv (the warning comes first)")
    fresh_mv = battery["nominal_mv"] * FRESH_PACK_FACTOR
    on_adc = adc_mv(battery, fresh_mv)
    if on_adc >= battery["adc_ref_mv"]:
        raise PinMapError(
            f"pins.toml: [battery] a fresh pack ({fresh_mv:.0f} mV) would put {on_adc:.0f} mV "
            f"on the ADC, above adc_ref_mv; make r_top_ohm larger"
        )


def adc_mv(battery: dict, pack_mv: float) -> float:
    """The voltage the divider puts on the ADC pin for a given pack voltage."""
    bottom = battery["r_bottom_ohm"]
    return pack_mv * bottom / (battery["r_top_ohm"] + bottom)


def _dict_lines(name: str, table: dict, annotation: str = "") -> str:
    body = "".join(f'    "{key}": {value!r},\n' for key, value in table.items())
    return f"{name}{annotation} = {{\n{body}}}\n"


def render_firmware(data: dict) -> str:
    """firmware/unoxfw/pins.py: plain dicts, so MicroPython imports it as is."""
    return FIRMWARE_HEADER + _dict_lines("PINS", data["pico"]) + _dict_lines("BATTERY", data["battery"])


def render_host(data: dict) -> str:
    """host/unox/launcher/gpio_pins.py: the direct-GPIO driver's default BCM pins."""
    return HOST_HEADER + _dict_lines("PINS", data["pi"], ": dict[str, int]")


def render_main(data: dict, text: str) -> str:
    """firmware/main.py with its MOTOR_PINS and BUZZER_PIN lines set from [pico] (the rest kept as is)."""
    pico = data["pico"]
    values = (f"MOTOR_PINS = ({pico['motor_in1']}, {pico['motor_in2']})", f"BUZZER_PIN = {pico['buzzer']}")
    for pattern, value in zip(_MAIN_LINES, values, strict=True):
        text, found = pattern.subn(value, text, count=1)
        if not found:
            raise PinMapError(f"{FIRMWARE_MAIN} has no {value.split(' =')[0]} line to set")
    return text


def outputs(data: dict) -> dict[Path, str]:
    main_py = render_main(data, FIRMWARE_MAIN.read_text(encoding="utf-8"))
    return {FIRMWARE_PINS: render_firmware(data), HOST_PINS: render_host(data), FIRMWARE_MAIN: main_py}


def stale(data: dict) -> list[Path]:
    """The generated files whose checked-in text differs from what pins.toml gives."""
    result = []
    for path, text in outputs(data).items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != text:
            result.append(path)
    return result


def _show(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale files; exit 1 if any")
    args = parser.parse_args(argv)
    try:
        data = load()
        files = outputs(data)  # main.py without its pin lines is an error too, before anything is written
    except PinMapError as exc:
        print(f"gen_pins: error: {exc}", file=sys.stderr)
        return 1
    if args.check:
        old = stale(data)
        for path in old:
            print(f"stale: {_show(path)}; run python3 hardware/gen_pins.py", file=sys.stderr)
        return 1 if old else 0
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {_show(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
