"""`unox play` and `unox table` send the calibrated settings of the config file to the launcher."""

import pytest
from unox import config as config_file
from unox.cli.main import main
from unox.table.opening import open_play_session
from unox.table.settings import TableSettings
from unox.ui.session import Session


def test_calibrated_firmware_values_reach_the_simulated_firmware():
    plain = open_play_session(TableSettings(players=("Ann", "Bob"), seed=1, launcher="sim"), night=Session)
    default_duty = plain.launcher.device.app.settings.values["duty"]
    plain.table.close()
    duty = default_duty - 15
    config = config_file.validate({"firmware": {"duty": duty}})
    session = open_play_session(TableSettings(players=("Ann", "Bob"), seed=1, launcher="sim"), config=config,
        night=Session)
    assert session.launcher.device.app.settings.values["duty"] == duty
    session.table.close()


@pytest.mark.parametrize("command", ["play", "table"])
def test_a_bad_config_file_is_one_line_naming_the_file(command, tmp_path, capsys):
    bad = tmp_path / "config.toml"
    bad.write_text("[firmware]\nduty = 500\n", encoding="utf-8")
    code = main([command, "--players", "Ann,Bob", "--launcher", "sim", "--config", str(bad)])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and str(bad) in err and "duty" in err
