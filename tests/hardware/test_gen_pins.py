"""hardware/pins.toml is the one pin map: the generated pin tables follow it and bad maps are refused."""

import ast
import copy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FIRMWARE_PINS = ROOT / "firmware" / "unoxfw" / "pins.py"
HOST_PINS = ROOT / "host" / "unox" / "launcher" / "gpio_pins.py"


def run_module_text(text: str) -> dict:
    namespace: dict = {}
    exec(compile(text, "<generated>", "exec"), namespace)
    return namespace


def test_checked_in_pin_tables_are_not_stale(gen_pins):
    data = gen_pins.load()
    assert FIRMWARE_PINS.read_text(encoding="utf-8") == gen_pins.render_firmware(data), (
        "firmware/unoxfw/pins.py is stale: run python3 hardware/gen_pins.py"
    )
    assert HOST_PINS.read_text(encoding="utf-8") == gen_pins.render_host(data), (
        "host/unox/launcher/gpio_pins.py is stale: run python3 hardware/gen_pins.py"
    )
    assert gen_pins.stale(data) == []


def test_firmware_table_holds_exactly_the_pico_pins_and_divider(pin_map):
    namespace = run_module_text(FIRMWARE_PINS.read_text(encoding="utf-8"))
    assert namespace["PINS"] == pin_map["pico"]
    assert namespace["BATTERY"] == pin_map["battery"]


def test_importable_tables_match_the_toml(pin_map):
    from unox.launcher import gpio_pins
    from unoxfw import pins

    assert gpio_pins.PINS == pin_map["pi"]
    assert pins.PINS == pin_map["pico"]
    assert pins.BATTERY == pin_map["battery"]


def test_firmware_table_is_plain_micropython(gen_pins):
    """No imports, no annotations, no typing: only NAME = {str: int} assignments MicroPython runs as is."""
    tree = ast.parse(gen_pins.render_firmware(gen_pins.load()))
    assert [type(node) for node in tree.body] == [ast.Assign, ast.Assign]
    for node in tree.body:
        assert isinstance(node.value, ast.Dict)
        for key, value in zip(node.value.keys, node.value.values, strict=True):
            assert isinstance(key.value, str) and type(value.value) is int


def test_a_changed_pin_reaches_both_generated_tables(gen_pins, pin_map):
    changed = copy.deepcopy(pin_map)
    changed["pico"]["beam"] = 19
    changed["pi"]["beam"] = 23
    gen_pins.validate(changed)
    assert run_module_text(gen_pins.render_firmware(changed))["PINS"]["beam"] == 19
    assert run_module_text(gen_pins.render_host(changed))["PINS"]["beam"] == 23
    assert gen_pins.stale(changed) == [gen_pins.FIRMWARE_PINS, gen_pins.HOST_PINS]


def test_an_added_key_is_generated_too(gen_pins, pin_map):
    pin_map["pico"]["status_led"] = 2
    assert run_module_text(gen_pins.render_firmware(pin_map))["PINS"]["status_led"] == 2


def test_check_mode_fails_on_a_stale_file_and_passes_after_writing(gen_pins, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(gen_pins, "FIRMWARE_PINS", tmp_path / "pins.py")
    monkeypatch.setattr(gen_pins, "HOST_PINS", tmp_path / "gpio_pins.py")
    main_py = tmp_path / "main.py"
    main_py.write_text(gen_pins.FIRMWARE_MAIN.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(gen_pins, "FIRMWARE_MAIN", main_py)
    (tmp_path / "pins.py").write_text("PINS = {}\n", encoding="utf-8")
    assert gen_pins.main(["--check"]) == 1
    assert "stale" in capsys.readouterr().err
    assert gen_pins.main([]) == 0
    assert gen_pins.main(["--check"]) == 0
    assert (tmp_path / "pins.py").read_text(encoding="utf-8") == FIRMWARE_PINS.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("table", "key", "value", "needle"),
    [
        ("pico", "beam", 14, "both use pin 14"),
        ("pi", "lid", 27, "both use pin 27"),
        ("pico", "battery_adc", 22, "has no ADC"),
        ("pico", "button", 23, "not on the Pico's header"),
        ("pico", "lid", 29, "not on the Pico's header"),
        ("pi", "beam", 0, "BCM 2-27"),
        ("pi", "beam", 10, "SPI0 MOSI"),
        ("pi", "button", "27", "whole number"),
        ("battery", "r_top_ohm", 1000, "make r_top_ohm larger"),
        ("battery", "low_mv", 4600, "below nominal_mv"),
        ("battery", "r_bottom_ohm", 0, "must be positive"),
    ],
)
def test_a_bad_pin_map_is_refused_with_what_to_change(gen_pins, pin_map, table, key, value, needle):
    pin_map[table][key] = value
    with pytest.raises(gen_pins.PinMapError, match=needle):
        gen_pins.validate(pin_map)


def test_a_missing_role_is_refused(gen_pins, pin_map):
    del pin_map["pi"]["buzzer"]
    with pytest.raises(gen_pins.PinMapError, match=r"\[pi\] is missing buzzer"):
        gen_pins.validate(pin_map)


def test_unreadable_toml_is_a_clear_error(gen_pins, tmp_path):
    broken = tmp_path / "pins.toml"
    broken.write_text("[pico\nbeam = 1\n", encoding="utf-8")
    with pytest.raises(gen_pins.PinMapError, match="cannot read the pin map"):
        gen_pins.load(broken)


def test_divider_keeps_a_fresh_pack_below_the_adc_reference(pin_map):
    battery = pin_map["battery"]
    ratio = battery["r_bottom_ohm"] / (battery["r_top_ohm"] + battery["r_bottom_ohm"])
    fresh_alkaline_pack_mv = 3 * 1650
    assert fresh_alkaline_pack_mv * ratio < battery["adc_ref_mv"]


def test_L5_low_battery_threshold_is_resolvable_by_the_adc(pin_map):
    battery = pin_map["battery"]
    ratio = battery["r_bottom_ohm"] / (battery["r_top_ohm"] + battery["r_bottom_ohm"])
    # L5: the gap between a nominal and a low pack spans well over 100 counts of the RP2040's 12-bit ADC.
    counts = (battery["nominal_mv"] - battery["low_mv"]) * ratio / battery["adc_ref_mv"] * 4096
    assert counts > 100


@pytest.mark.parametrize("board", ["PICO", "PI"])
def test_header_maps_cover_each_of_the_40_pins_once(gen_pins, board):
    gpio = list(getattr(gen_pins, f"{board}_PHYSICAL").values())
    power = list(getattr(gen_pins, f"{board}_POWER").values())
    ground = list(getattr(gen_pins, f"{board}_GROUND"))
    every = gpio + power + ground
    assert sorted(every) == list(range(1, 41))


def test_pi_gpio_header_pins_follow_the_40_pin_layout(gen_pins):
    # Cross-check with the published layout's fixed points: BCM 2 = pin 3, BCM 21 = pin 40, BCM 26 = pin 37.
    assert gen_pins.PI_PHYSICAL[2] == 3 and gen_pins.PI_PHYSICAL[21] == 40 and gen_pins.PI_PHYSICAL[26] == 37
    assert len(gen_pins.PI_PHYSICAL) == 26 and set(gen_pins.PI_PHYSICAL) == set(range(2, 28))


# ---- issue 17 finding 11: Pi motor pins that are high while the Pi boots ---------------------------------
@pytest.mark.parametrize(("pin", "why"), [
    (2, "1.8 kOhm pull-up"), (3, "1.8 kOhm pull-up"), (4, "pulled up"), (5, "pulled up"), (6, "pulled up"),
    (7, "pulled up"), (8, "pulled up"), (14, "serial console"),
])
@pytest.mark.parametrize("key", ["motor_in1", "motor_in2"])
def test_a_motor_pin_high_at_boot_is_refused_naming_why(gen_pins, pin_map, key, pin, why):
    other = [k for k, v in pin_map["pi"].items() if v == pin and k != key]
    for k in other:  # keep the map otherwise valid: move whatever used that pin elsewhere
        pin_map["pi"][k] = 26
    pin_map["pi"][key] = pin
    needle = f"{key} = {pin}: .*{why}.*motor would run while the Pi boots"
    with pytest.raises(gen_pins.PinMapError, match=needle):
        gen_pins.validate(pin_map)


def test_the_same_pins_are_fine_for_inputs(gen_pins, pin_map):
    pin_map["pi"]["button"] = 5  # an input: a boot-time pull-up is harmless there
    gen_pins.validate(pin_map)


def test_crit_mv_must_stay_below_low_mv(gen_pins, pin_map):
    pin_map["battery"]["crit_mv"] = pin_map["battery"]["low_mv"]
    with pytest.raises(gen_pins.PinMapError, match="crit_mv must be below low_mv"):
        gen_pins.validate(pin_map)


def test_moved_motor_and_buzzer_pins_reach_the_first_statements_of_main_py(gen_pins, pin_map, tmp_path,
                                                                          monkeypatch, capsys):
    # main.py drives the motor pins low before any import (so it cannot read pins.py): gen_pins sets them
    main_py = tmp_path / "main.py"
    main_py.write_text(gen_pins.FIRMWARE_MAIN.read_text(encoding="utf-8"), encoding="utf-8")
    for name, path in (("FIRMWARE_MAIN", main_py), ("FIRMWARE_PINS", tmp_path / "pins.py"),
                       ("HOST_PINS", tmp_path / "gpio_pins.py")):
        monkeypatch.setattr(gen_pins, name, path)
    moved = copy.deepcopy(pin_map)
    moved["pico"].update(motor_in1=10, motor_in2=11, buzzer=12)
    gen_pins.validate(moved)
    monkeypatch.setattr(gen_pins, "load", lambda: moved)
    assert gen_pins.main(["--check"]) == 1
    assert "main.py" in capsys.readouterr().err
    assert gen_pins.main([]) == 0
    tree = ast.parse(main_py.read_text(encoding="utf-8"))
    consts = {node.targets[0].id: ast.literal_eval(node.value) for node in tree.body
              if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
              and node.targets[0].id in ("MOTOR_PINS", "BUZZER_PIN")}
    assert consts == {"MOTOR_PINS": (10, 11), "BUZZER_PIN": 12}
    assert gen_pins.main(["--check"]) == 0


def test_a_main_py_without_its_pin_lines_is_refused_before_anything_is_written(gen_pins, tmp_path,
                                                                              monkeypatch, capsys):
    main_py = tmp_path / "main.py"
    main_py.write_text("import machine\n", encoding="utf-8")
    for name, path in (("FIRMWARE_MAIN", main_py), ("FIRMWARE_PINS", tmp_path / "pins.py"),
                       ("HOST_PINS", tmp_path / "gpio_pins.py")):
        monkeypatch.setattr(gen_pins, name, path)
    assert gen_pins.main([]) == 1
    assert "no MOTOR_PINS line" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["main.py"]
