"""The launcher config file: bounds, unknown keys, defaults, location and a lossless writer."""

from __future__ import annotations

import tomllib

import pytest
from unox import config
from unox.config import SCHEMA, ConfigError


def test_missing_default_file_is_the_defaults(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    loaded = config.load()
    assert loaded == {s: {k: o.kind(o.default) for k, o in opts.items()} for s, opts in SCHEMA.items()}


def test_a_named_file_that_does_not_exist_is_an_error_not_the_defaults(tmp_path):
    with pytest.raises(config.ConfigError, match="none.toml does not exist; check the path"):
        config.load(tmp_path / "none.toml")
    assert config.load(tmp_path / "none.toml", missing_ok=True) == config.defaults()  # calibrate creates it


def test_launcher_spec_in_the_config_is_checked_and_kept(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[launcher]\nspec = "serial:/dev/ttyACM0"\n')
    assert config.load(path)["launcher"] == {"spec": "serial:/dev/ttyACM0"}
    assert config.load(config.save(config.load(path), tmp_path / "again.toml"))["launcher"]["spec"] == (
        "serial:/dev/ttyACM0")
    path.write_text('[launcher]\nspec = "usb"\n')
    with pytest.raises(config.ConfigError, match="launcher.spec: invalid launcher 'usb'"):
        config.load(path)
    path.write_text('[launcher]\nport = "x"\n')
    with pytest.raises(config.ConfigError, match="unknown key launcher.port"):
        config.load(path)


def test_default_location_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert config.default_path() == tmp_path / "unox" / "config.toml"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert config.default_path() == tmp_path / "home" / ".config" / "unox" / "config.toml"


@pytest.mark.parametrize("section,key", [(s, k) for s, opts in SCHEMA.items() for k in opts])
def test_every_key_is_bounded_and_the_error_names_key_value_and_range(tmp_path, section, key):
    opt = SCHEMA[section][key]
    too_big = opt.high + 1
    path = tmp_path / "c.toml"
    path.write_text(f"[{section}]\n{key} = {too_big}\n")
    with pytest.raises(ConfigError) as err:
        config.load(path)
    message = str(err.value)
    assert f"{section}.{key}" in message and str(too_big) in message
    assert f"{opt.low} to {opt.high}" in message


def test_unknown_key_and_section_are_errors(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[firmware]\nspeed = 3\n")
    with pytest.raises(ConfigError, match="unknown key firmware.speed; known in \\[firmware\\]: duty"):
        config.load(path)
    path.write_text("[turbo]\nx = 1\n")
    with pytest.raises(ConfigError, match="unknown section \\[turbo\\]"):
        config.load(path)


def test_wrong_types_are_errors(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[firmware]\nduty = "fast"\n')
    with pytest.raises(ConfigError, match="firmware.duty = 'fast' is not an integer; allowed: 20 to 100"):
        config.load(path)
    path.write_text("[firmware]\nreverse_ms = 1.5\n")
    with pytest.raises(ConfigError, match="firmware.reverse_ms = 1.5 is not an integer"):
        config.load(path)
    path.write_text("[calibration]\nblock_ms = true\n")
    with pytest.raises(ConfigError, match="calibration.block_ms = True is not a number"):
        config.load(path)


def test_broken_toml_names_the_file(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[motor\n")
    with pytest.raises(ConfigError, match=f"{path}: not valid TOML"):
        config.load(path)


def test_save_then_load_round_trips_including_profiles(tmp_path):
    data = config.defaults()
    data["firmware"]["duty"] = 65
    data["calibration"]["block_ms"] = 17.125
    data["calibration"]["samples"] = 12
    data["profiles"] = {"soft": {"base": "gentle", "description": 'say "hi"', "fire_hazard": [0.5, 1.0]}}
    path = config.save(data, tmp_path / "sub" / "config.toml")
    assert config.load(path) == data
    assert tomllib.loads(path.read_text())["firmware"]["duty"] == 65


def test_save_refuses_bad_values_and_keeps_the_old_file(tmp_path):
    path = config.save(config.defaults(), tmp_path / "config.toml")
    before = path.read_text()
    bad = config.defaults()
    bad["firmware"]["duty"] = 7
    with pytest.raises(ConfigError, match="firmware.duty"):
        config.save(bad, path)
    assert path.read_text() == before


def test_bad_custom_profile_is_a_config_error(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[profiles.x]\nbase = "measured"\nfire_hazard = [0.5]\n')
    with pytest.raises(ConfigError, match=r"\[profiles.x\]"):
        config.load(path)
