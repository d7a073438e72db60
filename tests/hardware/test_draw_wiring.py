"""The wiring diagrams are drawn from pins.toml: every pin shows with its numbers, and stale SVGs fail."""

import copy
import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

SVG_TEXT = "{http://www.w3.org/2000/svg}text"
LABEL = {"pico": "GP{}", "pi": "GPIO{}"}


def texts(svg: str) -> list[str]:
    """Every piece of text in the drawing, as a reader sees it."""
    return ["".join(node.itertext()) for node in ET.fromstring(svg.split("-->", 1)[-1]).iter(SVG_TEXT)]


def recorded_version(svg: str) -> str:
    return re.search(r"with schemdraw (\S+):", svg).group(1)


@pytest.mark.parametrize("build", ["pico", "pi"])
def test_checked_in_wiring_svg_is_not_stale(draw_wiring, build):
    import schemdraw

    path = draw_wiring.OUTPUTS[build]
    current = path.read_text(encoding="utf-8")
    fresh = draw_wiring.draw(build, draw_wiring.gen_pins.load())
    hint = f"{path.name} is stale: run python3 hardware/draw_wiring.py"
    if recorded_version(current) == schemdraw.__version__:
        assert current == fresh, hint
    else:  # another schemdraw lays out differently; what the drawing says must still be the same
        assert Counter(texts(current)) == Counter(texts(fresh)), hint


@pytest.mark.parametrize("build", ["pico", "pi"])
def test_drawing_is_byte_for_byte_repeatable(draw_wiring, build):
    data = draw_wiring.gen_pins.load()
    assert draw_wiring.draw(build, data) == draw_wiring.draw(build, data)


@pytest.mark.parametrize("build", ["pico", "pi"])
def test_every_pin_of_pins_toml_is_drawn_with_its_numbers(draw_wiring, gen_pins, pin_map, build):
    words = texts(draw_wiring.OUTPUTS[build].read_text(encoding="utf-8"))
    counts = Counter(words)
    physical = gen_pins.PICO_PHYSICAL if build == "pico" else gen_pins.PI_PHYSICAL
    drawn_gpio = {word for word in words if re.fullmatch(LABEL[build].format(r"\d+"), word)}
    assert drawn_gpio == {LABEL[build].format(pin) for pin in pin_map[build].values()}
    for key, pin in pin_map[build].items():
        if pin in physical:
            assert str(physical[pin]) in counts, f"header pin of {key} missing"
            assert counts[key] == 2, f"{key}: one net tag at the controller and one at its part"
        else:  # the Pico's on-board LED: no header pin, no wire
            assert any(word.startswith(f"{key}: on-board") for word in words)


def test_pico_drawing_shows_the_divider_from_pins_toml(draw_wiring, pin_map):
    battery = pin_map["battery"]
    words = texts(draw_wiring.OUTPUTS["pico"].read_text(encoding="utf-8"))
    assert f"R top {battery['r_top_ohm'] // 1000}k" in words
    assert f"R bottom {battery['r_bottom_ohm'] // 1000}k" in words
    ratio = battery["r_bottom_ohm"] / (battery["r_top_ohm"] + battery["r_bottom_ohm"])
    expected = f"{battery['nominal_mv'] * ratio / 1000:.2f} V"
    assert any(expected in word and "ADC sees" in word for word in words)


def test_pi_drawing_says_the_battery_is_not_measured(draw_wiring):
    words = texts(draw_wiring.OUTPUTS["pi"].read_text(encoding="utf-8"))
    assert "battery_adc" not in words
    assert any("No ADC on the Pi" in word and "MCP3008" in word for word in words)


def test_a_moved_pin_moves_in_the_drawing(draw_wiring, pin_map):
    moved = copy.deepcopy(pin_map)
    moved["pico"]["beam"] = 19
    words = Counter(texts(draw_wiring.draw("pico", moved)))
    assert words["GP19"] == 1 and words["GP16"] == 0
    assert words["25"] == 1  # GP19 is header pin 25
    assert words["21"] == 0  # GP16's header pin is gone


def test_a_new_pin_is_drawn_and_flagged_until_the_drawing_knows_it(draw_wiring, pin_map):
    pin_map["pico"]["status_led"] = 2
    words = texts(draw_wiring.draw("pico", pin_map))
    assert "GP2" in words and "4" in words  # GP2 is header pin 4
    assert "status_led" in words
    assert any(word.startswith("status_led (GP2): not drawn yet") for word in words)


def test_check_mode_reports_a_stale_diagram_then_redraws_it(draw_wiring, tmp_path, monkeypatch, capsys):
    outputs = {"pico": tmp_path / "wiring.svg", "pi": tmp_path / "wiring-pi.svg"}
    monkeypatch.setattr(draw_wiring, "OUTPUTS", outputs)
    outputs["pico"].write_text("<svg/>", encoding="utf-8")
    assert draw_wiring.main(["--check"]) == 1
    assert "wiring.svg" in capsys.readouterr().err
    assert draw_wiring.main([]) == 0
    assert draw_wiring.main(["--check"]) == 0


# ---- issue 17: what a first build needs on the diagrams ---------------------------------------------------
@pytest.mark.parametrize("build", ["pico", "pi"])
def test_the_ir_emitter_is_drawn_with_its_current_limiting_resistor(draw_wiring, build):
    """Finding 1: a bare 940 nm LED across 3.3 V burns and sags the rail; its resistor is drawn, valued."""
    words = texts(draw_wiring.OUTPUTS[build].read_text(encoding="utf-8"))
    assert "R_IR 100 ohm" in words
    ohms = int(draw_wiring.IR_RESISTOR.split()[0])
    assert 15 <= (3300 - 1300) / ohms <= 25  # mA through a bare LED (Vf ~1.3 V): in its 20 mA rating


@pytest.mark.parametrize("build", ["pico", "pi"])
def test_decoupling_fuse_pull_downs_nsleep_and_the_beam_pull_up_are_drawn(draw_wiring, build):
    """Findings 2, 4 and 10: what the diagrams left out."""
    words = texts(draw_wiring.OUTPUTS[build].read_text(encoding="utf-8"))
    joined = " ".join(words)
    assert "C1 100 nF" in words and any(word.startswith("C2 100 uF 16 V") for word in words)
    assert any(word.startswith("F1 ") for word in words)  # the fuse in the pack's + lead
    assert "nSLEEP/STBY" in words
    assert words.count("100k") >= (3 if build == "pi" else 2)  # AIN1, AIN2 (and nSLEEP on the Pi)
    assert "10k to 3V3" in words  # the beam's external pull-up
    if build == "pico":
        assert "nSLEEP to 3V3" in joined and "safe default build" in joined
    else:
        assert "U2 SN74LVC1G123" in joined and words.count("nSLEEP") == 2  # one-shot Q to the bridge
        assert "heartbeat" in words and "GPIO24" in words


# ---- issue 23: an interlock that can be built from the drawing ---------------------------------------------
# TI SN74LVC1G123, DCT/DCU package (its datasheet's pin table), and the CD74HC123E's first half.
LVC1G123 = {"1": "~A", "2": "B", "3": "~CLR", "4": "GND", "5": "Q", "6": "Cext", "7": "Rext/Cext", "8": "VCC"}
_POSITIONED = re.compile(r'<text x="([-\d.]+)" y="([-\d.]+)"[^>]*>(.*?)</text>', re.S)


def positioned_texts(svg: str) -> list[tuple[float, float, str]]:
    return [(float(x), float(y), re.sub("<[^>]+>", "", t)) for x, y, t in _POSITIONED.findall(svg)]


def test_the_one_shot_is_drawn_with_its_eight_numbered_pins_each_beside_its_name(draw_wiring):
    """Finding 23.1: six unnumbered pins, ~CLR missing; a maker wires the '123 by its pin numbers."""
    placed = positioned_texts(draw_wiring.OUTPUTS["pi"].read_text(encoding="utf-8"))
    u2 = next((x, y) for x, y, t in placed if t.startswith("U2 SN74LVC1G123"))
    for number, name in LVC1G123.items():
        # the pin's name nearest U2's title (GND and VCC appear elsewhere too), and the number beside it
        nx, ny = min(((x, y) for x, y, t in placed if t == name),
                     key=lambda p: (p[0] - u2[0]) ** 2 + (p[1] - u2[1]) ** 2)
        digits = [(x, y, t) for x, y, t in placed if t.isdigit()]
        nearest = min(digits, key=lambda p: (p[0] - nx) ** 2 + (p[1] - ny) ** 2)
        assert nearest[2] == number, f"{name} is pin {number}, the drawing numbers it {nearest[2]}"
        assert abs(nearest[0] - nx) < 25 and abs(nearest[1] - ny) < 25, name  # 1 unit = 36 pt


def test_the_one_shot_has_clr_high_its_timing_network_between_6_and_7_and_decoupling(draw_wiring):
    words = texts(draw_wiring.OUTPUTS["pi"].read_text(encoding="utf-8"))
    joined = " ".join(words)
    assert "Cext 1 uF (6-7)" in words and "Rext 47k" in words
    assert any(word.startswith("C3 100 nF") and word.endswith("at pin 8") for word in words)
    assert "~CLR to 3V3" in joined
    assert words.count("3V3") >= 4  # the header, ~CLR, Rext's top and VCC (and the beam's parts)
    # the DIP alternative: CLR high and the unused half tied, pin for pin
    assert "1~CLR=3 to 3V3" in joined and "2~A=9, 2B=10, 2~CLR=11 to GND" in joined
    assert "Never tie" in joined and "nSLEEP high" in joined


@pytest.mark.parametrize("build", ["pico", "pi"])
def test_the_motors_capacitor_its_own_return_wire_and_the_adc_capacitor_are_drawn(draw_wiring, build):
    """Finding 23.12: the 100 nF across the motor and at GP26 were only in the BOM; the return a ground."""
    words = texts(draw_wiring.OUTPUTS[build].read_text(encoding="utf-8"))
    assert any(word.startswith("C5 100 nF") and "motor" in word for word in words)
    assert words.count("PACK-") == 2  # the pack's - and U1's GND: one wire, named at both ends
    assert any("motor return" in word for word in words)
    assert any(word.startswith("C4 100 nF") for word in words) == (build == "pico")  # the Pi has no ADC


def test_the_motor_current_wires_are_drawn_thick(draw_wiring):
    """The motor leads, the fuse and the return wire carry the stall current: a maker sees them thicker."""
    svg = draw_wiring.OUTPUTS["pico"].read_text(encoding="utf-8")
    widths = Counter(re.findall(r"stroke-width:([\d.]+)", svg))
    thin = widths.most_common(1)[0][0]
    assert any(float(w) >= 2 * float(thin) for w in widths), widths
