"""Draw the wiring diagrams from hardware/pins.toml with schemdraw's SVG backend.

The diagrams are derived, never edited: every pin of pins.toml is drawn with its GPIO number and its
physical header pin, wired by a named net tag to the part it drives, so a change to the pin map shows
up in the picture (and a test fails until the SVGs are redrawn).

    .venv/bin/python hardware/draw_wiring.py           # rewrite wiring.svg and wiring-pi.svg
    .venv/bin/python hardware/draw_wiring.py --check   # exit 1 if either is stale

It needs schemdraw, which the test extra installs (`.venv/bin/pip install -e '.[test]'`).

The SVG backend writes text as <text> elements (searchable, no font rendering) and the output depends
only on the pin map, so the files are byte-for-byte reproducible.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from pathlib import Path

try:
    import schemdraw
    import schemdraw.elements as elm
except ImportError:  # schemdraw is a tool of this script only: it comes with the test extra
    sys.exit("draw_wiring.py needs schemdraw 0.23: run it with the venv that has the test extra "
             "(.venv/bin/pip install -e '.[test]', then .venv/bin/python hardware/draw_wiring.py), "
             "or pip install schemdraw==0.23")

HERE = Path(__file__).resolve().parent
OUTPUTS = {"pico": HERE / "wiring.svg", "pi": HERE / "wiring-pi.svg"}
HEADER = (
    f"<!-- Drawn from hardware/pins.toml by hardware/draw_wiring.py with schemdraw {schemdraw.__version__}:"
    " do not edit by hand. -->\n"
)


def _load_gen_pins():
    """gen_pins.py is a sibling script, not a package: load it by path so this works from anywhere."""
    spec = importlib.util.spec_from_file_location("unox_hw_gen_pins", HERE / "gen_pins.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen_pins = _load_gen_pins()

# The part each pins.toml key is drawn going to. A key added to pins.toml but not here still gets its
# pin and net tag, plus a note saying it is not drawn yet.
ROLES = {
    "motor_in1": "H-bridge AIN1",
    "motor_in2": "H-bridge AIN2",
    "beam": "IR receiver OUT",
    "button": "front button",
    "lid": "lid switch",
    "buzzer": "piezo buzzer",
    "battery_adc": "pack divider",
    "led": "on-board LED",
    "heartbeat": "interlock one-shot B",
}
# Values drawn on the diagrams (hardware/BOM.md lists the parts).
IR_RESISTOR = "100 ohm"  # bare 940 nm LED: (3.3 V - 1.3 V) / 20 mA; the Adafruit emitter has it built in
BEAM_PULL_UP = "10k"  # at the MCU pin: the internal 50-80 kOhm is too weak beside 20 kHz motor wires
INPUT_PULL_DOWN = "100k"  # on AIN1/AIN2: the bridge stays off while the pins float (boot, crash)
FUSE = "F1 1.1 A hold / 2.2 A trip (PTC)"
ONE_SHOT_MS = "~50 ms"
ONE_SHOT_R = "47k"  # SN74LVC1G123: t ~ Rext x Cext = 47 ms
ONE_SHOT_C = "1 uF"
DECOUPLING = "100 nF"
# The CD74HC123E (DIP-16) alternative, pin for pin: the other half's inputs tied so they cannot oscillate.
HC123_MAP = [
    "CD74HC123E instead of U2 (DIP-16): 1~A=1 to GND, 1B=2 heartbeat, 1~CLR=3 to 3V3, 1Q=13 nSLEEP,",
    "1Cext=14 and 1Rext/Cext=15 (Cext between them, Rext 100k from 15 to 3V3), VCC=16, GND=8, 100 nF at 16.",
    "Unused half: 2~A=9, 2B=10, 2~CLR=11 to GND; 2Q=5, 2~Q=12, 1~Q=4, 6, 7 open.",
]
TAG_W = 2.2
THICK = 4  # the motor current's wires (pack, fuse, motor leads, return)
PITCH = 1.0
NOTES = {
    "pico": [
        "Common ground: pack -, H-bridge GND, beam GND and Pico GND (pin 38) are one net.",
        "The Pico is powered over USB from the Pi; the motor only ever from the pack, never from 3V3.",
        "nSLEEP to 3V3 (the Adafruit 3297 has no pull-up: left open its motor never runs). TB6612FNG: VCC,",
        "STBY and PWMA to 3V3, VM >= 4.5 V. C1 100 nF and C2 100 uF (mind its polarity) right at VM-GND.",
        "The safe default build: the Pico's watchdog and on-time timer stop the motor without the Pi.",
        "Button and lid use the Pico's internal pull-ups; the beam has a 10k pull-up at GP16 too.",
    ],
    "pi": [
        "Common ground: pack -, H-bridge GND, beam GND and Pi GND (pin 6) are one net.",
        "The motor only ever from the pack, never from the Pi's 3V3 or 5V. C1/C2 right at VM-GND.",
        "Interlock: U2 holds nSLEEP/STBY high only while heartbeat gets rising edges (unox pulses it every",
        "2 ms tick while firing): a killed or hung unox lets the bridge sleep within ~50 ms. Never tie",
        "nSLEEP high. 100k pull-downs on AIN1/AIN2/nSLEEP; U2's ~CLR to 3V3, C3 100 nF at its VCC.",
        "Fit the interlock and F1 before the first run: without them a crash can leave the motor on.",
        "No ADC on the Pi: the pack is not measured (add an MCP3008 on SPI0, BCM 8-11, to measure it).",
    ],
}


def pin_label(build: str, pin: int) -> tuple[str, str]:
    """(GPIO name, physical header pin) as printed next to a pin."""
    if build == "pico":
        physical = gen_pins.PICO_PHYSICAL.get(pin)
        return f"GP{pin}", str(physical) if physical is not None else "on-board"
    return f"GPIO{pin}", str(gen_pins.PI_PHYSICAL[pin])


def out_tag(d: schemdraw.Drawing, at, net: str, direction: str = "right", length: float = 1.2) -> None:
    """A wire from `at` ending in a net tag; tags with the same name are the same wire."""
    d.add(getattr(elm.Line().at(at), direction)(length))
    d.add(getattr(elm.Tag(width=TAG_W), direction)().label(net, fontsize=11))


def _controller(d: schemdraw.Drawing, build: str, pins: dict) -> elm.Ic:
    """The Pico or the Pi header: every pin of pins.toml with its GPIO and physical pin number."""
    ic_pins = []
    for key, pin in reversed(list(pins.items())):  # Ic stacks the first pin at the bottom
        name, physical = pin_label(build, pin)
        ic_pins.append(elm.IcPin(name=name, pin=physical, side="right", anchorname=key))
    power = gen_pins.PICO_POWER if build == "pico" else gen_pins.PI_POWER
    ground = gen_pins.PICO_GROUND[-1] if build == "pico" else gen_pins.PI_GROUND[0]
    supply = "3V3(OUT)" if build == "pico" else "3V3"
    ic_pins.append(elm.IcPin(name="GND", pin=str(ground), side="left", anchorname="GND"))
    ic_pins.append(elm.IcPin(name=supply, pin=str(power[supply]), side="left", anchorname="V3"))
    title = "Raspberry Pi Pico (USB to the Pi)" if build == "pico" else "Raspberry Pi 40-pin header"
    ic = elm.Ic(pins=ic_pins, pinspacing=PITCH, edgepadW=2.6, leadlen=0.8).right()
    ic.label(title, "top", ofst=0.3)
    d.add(ic)
    for key, pin in pins.items():
        if build == "pico" and pin == gen_pins.PICO_LED:
            x, y = getattr(ic, key)
            d.add(elm.Label().at((x + 1.6, y)).label(f"{key}: on-board, no wire", halign="left"))
        else:
            out_tag(d, getattr(ic, key), key)
    out_tag(d, ic.V3, "3V3", "left", 0.6)
    d.add(elm.Line().at(ic.GND).left(0.6))
    d.add(elm.Line().down(0.5))
    d.add(elm.Ground())
    return ic


def _hbridge(d: schemdraw.Drawing, x: float, y: float, build: str) -> None:
    """Channel A of a DRV8833 / TB6612FNG driving the launcher's own motor from the pack, with its
    decoupling, the pull-downs that keep it off while its inputs float, and nSLEEP (3V3 or the interlock)."""
    hb = elm.Ic(
        pins=[
            elm.IcPin(name="nSLEEP/STBY", side="left", anchorname="SLEEP"),
            elm.IcPin(name="AIN2", side="left", anchorname="AIN2"),
            elm.IcPin(name="AIN1", side="left", anchorname="AIN1"),
            elm.IcPin(name="AOUT2", side="right", anchorname="AOUT2"),
            elm.IcPin(name="AOUT1", side="right", anchorname="AOUT1"),
            elm.IcPin(name="VM", side="top", anchorname="VM"),
            elm.IcPin(name="", pin="GND", side="bottom", slot="3/4", anchorname="GND"),
        ],
        size=(5, 5),
        leadlen=0.6,
        lofst=0.4,
    ).right().anchor("AIN1").at((x, y)).label("U1 DRV8833 or\nTB6612FNG\n(channel A)", "center")
    d.add(hb)
    for pin, net in (("AIN1", "motor_in1"), ("AIN2", "motor_in2")):
        at = getattr(hb, pin)
        d.add(elm.Dot().at((at[0] - 0.5, at[1])))
        out_tag(d, at, net, "left", 1.6)
        pull = d.add(elm.Resistor().at((at[0] - 0.5, at[1])).down(0.9).scale(0.5))
        d.add(elm.Label().at((pull.end[0] - 0.2, pull.end[1])).label(INPUT_PULL_DOWN, halign="right",
                                                                       fontsize=9))
        d.add(elm.Ground().at(pull.end).scale(0.5))
    sleep_net = "3V3" if build == "pico" else "nSLEEP"
    out_tag(d, hb.SLEEP, sleep_net, "left", 1.6)
    # the motor leads carry the stall current: drawn thick, with the 100 nF soldered across the motor itself
    d.add(elm.Line(lw=THICK).at(hb.AOUT1).right(1.0))
    motor = d.add(elm.Motor(lw=THICK).down().toy(hb.AOUT2).label("launcher motor", "bottom", ofst=0.3))
    d.add(elm.Line(lw=THICK).at(motor.end).tox(hb.AOUT2))
    d.add(elm.Dot().at(motor.start))
    d.add(elm.Dot().at(motor.end))
    d.add(elm.Line().at(motor.start).right(3.8))
    cm = d.add(elm.Capacitor().down().toy(motor.end))
    d.add(elm.Line().at(cm.end).tox(motor.end))
    d.add(elm.Label().at((cm.start[0] + 0.5, cm.center[1])).label("C5 100 nF\nacross the\nmotor's\nterminals",
                                                                   halign="left", fontsize=9))
    d.add(elm.Line().at(hb.VM).up(2.2))
    vm = d.here
    out_tag(d, vm, "VPACK", "right", 0.6)
    d.add(elm.Line().at(vm).left(1.4))
    d.add(elm.Dot())
    c1 = d.add(elm.Capacitor().down(1.3))
    d.add(elm.Label().at((c1.center[0] + 0.3, c1.center[1])).label("C1 100 nF", halign="left", fontsize=10))
    d.add(elm.Ground().at(c1.end).scale(0.6))
    d.add(elm.Line().at((vm[0] - 1.4, vm[1])).left(2.2))
    c2 = d.add(elm.Capacitor(polar=True).down(1.3))
    d.add(elm.Label().at((c2.center[0] - 0.4, c2.center[1])).label("C2 100 uF 16 V\n(+ to VPACK)",
                                                                    halign="right", fontsize=10))
    d.add(elm.Ground().at(c2.end).scale(0.6))
    # the motor current returns to the pack on its own thick wire; the logic ground joins at U1's GND only
    d.add(elm.Line(lw=THICK).at(hb.GND).down(0.8))
    d.add(elm.Dot())
    d.add(elm.Ground())
    d.add(elm.Line(lw=THICK).left(1.2))
    d.add(elm.Tag(width=TAG_W, lw=THICK).left().label("PACK-", fontsize=11))
    d.add(elm.Label().at((hb.GND[0] + 0.4, hb.GND[1] - 0.5)).label(
        "motor return: its own thick wire to the pack's -\n(logic and beam grounds join here)", halign="left",
        fontsize=9))


def _interlock(d: schemdraw.Drawing, x: float, y: float) -> None:
    """Pi build: a retriggerable one-shot holds nSLEEP high only while the heartbeat pin keeps pulsing.

    All eight pins of the SN74LVC1G123 (DCT/DCU package), numbered: an unwired ~CLR is a floating CMOS input
    that can hold the bridge off or fire a fresh pulse on noise, so it goes to 3V3 like every other input."""
    u2 = elm.Ic(
        pins=[
            elm.IcPin(name="~A", pin="1", side="left", anchorname="A"),
            elm.IcPin(name="B", pin="2", side="left", anchorname="B"),
            elm.IcPin(name="~CLR", pin="3", side="left", anchorname="CLR"),
            elm.IcPin(name="Q", pin="5", side="right", anchorname="Q"),
            elm.IcPin(name="Cext", pin="6", side="top", pos=0.26, anchorname="CEXT"),
            elm.IcPin(name="Rext/Cext", pin="7", side="top", pos=0.58, anchorname="RC"),
            elm.IcPin(name="VCC", pin="8", side="top", pos=0.87, anchorname="VCC"),
            elm.IcPin(name="GND", pin="4", side="bottom", anchorname="GND"),
        ],
        size=(8, 4.5),
        leadlen=0.6,
        lofst=0.4,
        plblofst=0.18,  # the bottom pin's number clear of its lead and of the box's edge
    ).right().anchor("B").at((x, y)).label("U2 SN74LVC1G123\nretriggerable one-shot", "center", fontsize=10)
    d.add(u2)
    out_tag(d, u2.B, "heartbeat", "left", 1.0)
    d.add(elm.Line().at(u2.A).left(0.5))
    d.add(elm.Ground().scale(0.5))
    out_tag(d, u2.CLR, "3V3", "left", 1.0)
    # the timing network: Cext between pins 6 and 7, Rext from pin 7 to 3V3
    d.add(elm.Line().at(u2.CEXT).up(0.6))
    d.add(elm.Capacitor().tox(u2.RC[0]).label(f"Cext {ONE_SHOT_C} (6-7)", "top", fontsize=9))
    d.add(elm.Line().toy(u2.RC[1]))
    d.add(elm.Dot().at((u2.RC[0], u2.CEXT[1] + 0.6)))
    rext = d.add(elm.Resistor().at((u2.RC[0], u2.CEXT[1] + 0.6)).up(1.6).scale(0.6))
    d.add(elm.Label().at((rext.center[0] + 0.3, rext.center[1])).label(f"Rext {ONE_SHOT_R}", halign="left",
                                                                          fontsize=9))
    d.add(elm.Vdd().at(rext.end).label("3V3", fontsize=9))
    d.add(elm.Line().at(u2.VCC).up(1.0))
    d.add(elm.Line().right(2.2))
    vcc = d.here
    d.add(elm.Dot())
    out_tag(d, vcc, "3V3", "right", 0.6)
    dec = d.add(elm.Capacitor().at(vcc).down(1.0).scale(0.6))
    d.add(elm.Label().at((dec.end[0] - 0.45, dec.center[1])).label(f"C3 {DECOUPLING}\nat pin 8",
                                                                    halign="right",
                                                                    fontsize=9))
    d.add(elm.Ground().at(dec.end).scale(0.5))
    d.add(elm.Line().at(u2.GND).down(0.3))
    d.add(elm.Ground().scale(0.6))
    d.add(elm.Line().at(u2.Q).right(0.6))
    d.add(elm.Dot())
    q = d.here
    out_tag(d, q, "nSLEEP", "right", 0.8)
    pull = d.add(elm.Resistor().at(q).down(1.0).scale(0.5))
    d.add(elm.Label().at((pull.end[0] + 0.2, pull.end[1])).label(INPUT_PULL_DOWN, halign="left", fontsize=9))
    d.add(elm.Ground().at(pull.end).scale(0.5))
    left = u2.GND[0] - 2.8
    for i, line in enumerate(HC123_MAP):
        d.add(elm.Label().at((left, u2.GND[1] - 1.6 - 0.45 * i)).label(line, halign="left", fontsize=9))


def _pack(d: schemdraw.Drawing, x: float, y: float, battery: dict | None) -> None:
    """The 3 x C pack for the motor; on the Pico build also the divider into the ADC."""
    d.add(elm.Line(lw=THICK).at((x, y)).down(0.6))
    d.add(elm.Line(lw=THICK).left(0.8))
    d.add(elm.Tag(width=TAG_W, lw=THICK).left().label("PACK-", fontsize=11))
    cell = d.add(elm.Battery().up().at((x, y)).reverse().label(f"+ 3 x C\n{battery_v(battery)}", "bottom"))
    fuse = d.add(elm.Fuse(lw=THICK).up(2.0).at(cell.end))
    d.add(elm.Label().at((fuse.center[0] - 0.5, fuse.center[1])).label(FUSE.replace(" (", "\n("),
                                                                        halign="right",
                                                                        fontsize=10))
    top = (x, fuse.end[1] + 0.6)
    d.add(elm.Line().at(fuse.end).toy(top[1]))
    out_tag(d, top, "VPACK", "left", 0.8)
    if battery is None:
        return
    d.add(elm.Dot().at(top))
    d.add(elm.Line().at(top).right(5.5))
    rtop = d.add(elm.Resistor().down().label(f"R top {ohms(battery['r_top_ohm'])}", "bottom"))
    d.add(elm.Dot().at(rtop.end))
    bottom = f"R bottom {ohms(battery['r_bottom_ohm'])}"
    rbot = d.add(elm.Resistor().down().at(rtop.end).label(bottom, "bottom"))
    d.add(elm.Ground())
    # the 100 nF from the ADC pin to GND, across R bottom: smooths motor noise, a low source impedance
    d.add(elm.Line().at(rtop.end).left(1.4))
    c4 = d.add(elm.Capacitor().down().toy(rbot.end))
    d.add(elm.Line().at(c4.end).tox(rbot.end))
    d.add(elm.Label().at((c4.center[0] - 0.6, c4.center[1])).label("C4 100 nF\n(ADC to GND)", halign="right",
                                                                    fontsize=9))
    out_tag(d, rtop.end, "battery_adc", "right", 1.0)
    d.add(elm.Label().at((x - 1.0, y - 4.2)).label(divider_text(battery), halign="left", fontsize=10))


def _to_ground(d: schemdraw.Drawing, x: float, y: float, net: str, part, label: str) -> None:
    """One row: net tag -> part -> ground (button, lid switch, buzzer, IR emitter)."""
    out_tag(d, (x, y), net, "left", 0.5)
    d.add(part.right().at((x, y)).label(label, "top"))
    d.add(elm.Line().right(0.5))
    d.add(elm.Line().down(0.4))
    d.add(elm.Ground())


def _beam(d: schemdraw.Drawing, x: float, y: float) -> None:
    """The IR break-beam receiver: open-collector OUT, low while a card blocks the beam."""
    rx = elm.Ic(
        pins=[
            elm.IcPin(name="GND", side="left", anchorname="GND"),
            elm.IcPin(name="VCC", side="left", anchorname="VCC"),
            elm.IcPin(name="OUT", side="left", anchorname="OUT"),
        ],
        pinspacing=PITCH,
        edgepadW=1.2,
        leadlen=0.6,
    ).right().anchor("OUT").at((x, y)).label("IR break-beam receiver", "top", ofst=0.2)
    d.add(rx)
    out_tag(d, rx.OUT, "beam", "left", 2.4)
    d.add(elm.Dot().at((rx.OUT[0] - 1.2, rx.OUT[1])))
    pull = d.add(elm.Resistor().up(1.4).at((rx.OUT[0] - 1.2, rx.OUT[1])).scale(0.6))
    label_at = (pull.end[0] - 0.2, pull.end[1] - 0.4)
    d.add(elm.Label().at(label_at).label(f"{BEAM_PULL_UP} to 3V3", halign="right", fontsize=9))
    d.add(elm.Vdd().at(pull.end).label("3V3", fontsize=9))
    out_tag(d, rx.VCC, "3V3", "left")
    d.add(elm.Line().at(rx.GND).left(0.4))
    d.add(elm.Ground())


def _emitter(d: schemdraw.Drawing, x: float, y: float) -> None:
    """The IR emitter with its current-limiting resistor (a bare LED across 3.3 V burns and sags the rail)."""
    out_tag(d, (x, y), "3V3", "left", 0.5)
    d.add(elm.Resistor().right().at((x, y)).label(f"R_IR {IR_RESISTOR}", "top", fontsize=10))
    d.add(elm.LED().right().label("IR emitter, facing it", "top"))
    d.add(elm.Line().right(0.5))
    d.add(elm.Line().down(0.4))
    d.add(elm.Ground())
    note = f"R_IR {IR_RESISTOR}: a bare 940 nm LED at 20 mA.\nAdafruit's emitter has its own: a wire then."
    d.add(elm.Label().at((x, y - 1.3)).label(note, halign="left", fontsize=9))


def _piezo(d: schemdraw.Drawing, x: float, y: float) -> None:
    """The passive piezo transducer: a two-lead sounder (not a crystal), one lead to buzzer, one to GND."""
    out_tag(d, (x, y), "buzzer", "left", 0.5)
    d.add(elm.Line().at((x, y)).right(1.0))
    spk = d.add(elm.Speaker().right().anchor("in1").label("passive piezo buzzer", "top"))
    d.add(elm.Line().at(spk.in2).left(0.6))
    d.add(elm.Line().down(0.4))
    d.add(elm.Ground())


def _peripherals(d: schemdraw.Drawing, x: float, y: float) -> None:
    _beam(d, x, y)
    _emitter(d, x, y - 4.5)
    _to_ground(d, x, y - 7.5, "button", elm.Button(), "front button")
    _to_ground(d, x, y - 10.5, "lid", elm.Switch(), "lid switch (closed = lid shut)")
    _piezo(d, x, y - 13.5)


def battery_v(battery: dict | None) -> str:
    mv = battery["nominal_mv"] if battery else 4500
    return f"{mv / 1000:g} V"


def ohms(value: int) -> str:
    return f"{value // 1000}k" if value % 1000 == 0 else f"{value} ohm"


def divider_text(battery: dict) -> str:
    nominal, low = battery["nominal_mv"], battery["low_mv"]
    at_nominal = gen_pins.adc_mv(battery, nominal) / 1000
    at_low = gen_pins.adc_mv(battery, low) / 1000
    return f"ADC sees {at_nominal:.2f} V at {nominal / 1000:g} V, {at_low:.2f} V at low ({low / 1000:g} V)"


def _notes(d: schemdraw.Drawing, build: str, pins: dict, x: float, y: float) -> None:
    lines = list(NOTES[build])
    for key, pin in pins.items():
        if key not in ROLES:
            lines.append(f"{key} ({pin_label(build, pin)[0]}): not drawn yet; see the comment in pins.toml.")
    for i, line in enumerate(lines):
        d.add(elm.Label().at((x, y - 0.6 * i)).label(line, halign="left", fontsize=11))


def draw(build: str, data: dict) -> str:
    """The SVG text of one build's wiring diagram."""
    schemdraw.svgconfig.text = "text"
    pins = data[build]
    # No `with` block: inside one schemdraw auto-adds every element it creates, and d.add would add twice.
    d = schemdraw.Drawing(canvas="svg", show=False)
    d.config(fontsize=12)
    ic = _controller(d, build, pins)
    top_x, top_y = getattr(ic, next(iter(pins)))
    _hbridge(d, top_x + 11.0, top_y - 1.5, build)
    if build == "pi":
        _interlock(d, top_x + 11.0, top_y - 13.5)
    _pack(d, top_x + 1.0, top_y - 15.5, data["battery"] if build == "pico" else None)
    _peripherals(d, top_x + 28.0, top_y)
    _notes(d, build, pins, ic.GND[0] - 2.0, top_y - 22.0)
    return normalise(d.get_imagedata("svg").decode("utf-8"))


_NUMBER = re.compile(r"-?\d+\.\d+")


def _round(match: re.Match) -> str:
    text = f"{float(match.group()):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def normalise(svg: str) -> str:
    """Round coordinates to 0.01 pt so the last bits of sin/cos on another platform change nothing."""
    return HEADER + _NUMBER.sub(_round, svg) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale diagrams; exit 1 if any")
    args = parser.parse_args(argv)
    data = gen_pins.load()
    stale = []
    for build, path in OUTPUTS.items():
        svg = draw(build, data)
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == svg:
            continue
        stale.append(path)
        if not args.check:
            path.write_text(svg, encoding="utf-8")
            print(f"wrote {path.name}")
    if args.check:
        for path in stale:
            print(f"stale: {path.name}; run python3 hardware/draw_wiring.py", file=sys.stderr)
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
