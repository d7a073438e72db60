"""`unox play --continue FILE`: one command line for every start of a boot service. The game FILE holds
goes on; with no file a new table starts journalled to it; a finished game is kept aside, never deleted."""


from unox.table.journal import Journal
from unox.table.opening import continue_play_session
from unox.table.runtime import Table
from unox.table.settings import TableSettings
from unox.ui.session import Session

LINES = ["deal Bob", "flip G7", "G5", "press", "press", "press"]


def play(run_cli, path, lines, *extra):
    argv = ["play", "--plain", "--continue", str(path), *extra]
    return run_cli(argv, stdin="".join(line + "\n" for line in lines))


def last_state_block(out: str) -> list[str]:
    """The table part of the last `state` printout (between the last two `next:` lines), up to the cards
    estimated inside the launcher; the lines after it are the device's live status (battery, beam count)."""
    lines = out.splitlines()
    nexts = [i for i, line in enumerate(lines) if line.startswith("next: ")]
    block = lines[nexts[-2] + 1 : nexts[-1]]
    (end,) = [i for i, line in enumerate(block) if line.startswith("Launcher:  ")]
    return block[: end + 1]


def finished_game(path) -> bytes:
    """A journal whose game is over (G1: Bob goes out, his points pass the target of 50)."""
    settings = TableSettings(players=("Ann", "Bob", "Cy"), target=50, seed=4)
    table = Table.create(settings, journal=Journal(path))
    requests = [
        {"cmd": "deal", "dealer": "Ann"},
        {"cmd": "flip", "card": "G7"},
        {"cmd": "uno", "player": "Bob"},
        {"cmd": "play", "player": "Bob", "card": "GD", "count": 5},
        {"cmd": "press", "player": "Cy", "fired": 0},
        {"cmd": "press", "player": "Ann", "fired": 0},
        {"cmd": "play", "player": "Bob", "card": "G5"},
        {"cmd": "score", "points": {"Ann": 30, "Bob": 0, "Cy": 41}},
    ]
    for request in requests:
        reply = table.handle(request)
        assert reply["ok"], reply
    assert table.state()["phase"] == "game_over"
    table.close()
    return path.read_bytes()


def test_a_new_file_starts_a_table_on_the_given_settings_and_journals_it(tmp_path, run_cli):
    path = tmp_path / "table.db"
    code, out, err = play(run_cli, path, LINES[:3] + ["quit"], "--players", "Ann,Bob", "--seed", "2")
    assert (code, err) == (0, "")
    assert "Ann plays G5." in out
    with Journal(path) as journal:
        assert journal.settings["players"] == ["Ann", "Bob"] and journal.settings["seed"] == 2
        assert [entry["cmd"] for entry in journal.entries()] == ["deal", "flip", "play"]


def test_a_second_start_with_the_same_file_prints_exactly_the_same_state(tmp_path, run_cli):
    path = tmp_path / "table.db"
    code, first, _ = play(run_cli, path, LINES + ["state"], "--players", "Ann,Bob", "--seed", "2")
    assert code == 0 and "not taken" not in first
    # The seats given now are for a new table only: the game in the file goes on with its own.
    code, second, err = play(run_cli, path, ["state"], "--players", "Xa,Yo,Zu", "--seed", "9")
    assert (code, err) == (0, "")
    block = last_state_block(first)
    assert any(line.startswith("Phase:") for line in block)
    assert last_state_block(second) == block
    with Journal(path) as journal:
        assert journal.settings["players"] == ["Ann", "Bob"]
        assert sum(1 for entry in journal.entries() if entry["cmd"] == "press") == 3


def test_continue_resumes_the_live_state_exactly_with_a_fired_count_replayed_not_refired(tmp_path):
    path = tmp_path / "table.db"
    settings = TableSettings(players=("Ann", "Bob"), seed=5, launcher="sim")
    session = continue_play_session(path, settings, night=Session)
    for line in LINES:
        session.submit(line)
    before = session.table.state()
    rows = len(session.table.entries)
    session.table.close()
    again = continue_play_session(path, None, night=Session)
    try:
        assert again.table.state() == before
        assert len(again.table.entries) == rows
    finally:
        again.table.close()


def test_a_finished_game_is_kept_byte_identical_as_done_and_a_new_table_starts(tmp_path, run_cli):
    path = tmp_path / "table.db"
    old = finished_game(path)
    taken = tmp_path / "table.db.1.done"
    taken.write_bytes(b"an older game")  # the first free number is used; nothing is overwritten
    code, out, err = play(run_cli, path, ["quit"], "--players", "Ann,Bob", "--seed", "3")
    assert (code, err) == (0, "")
    kept = tmp_path / "table.db.2.done"
    assert kept.read_bytes() == old
    assert taken.read_bytes() == b"an older game"
    assert f"kept as {kept}" in out
    with Journal(path) as journal:
        assert journal.settings["players"] == ["Ann", "Bob"]
        assert journal.entries() == []
    with Journal(kept) as journal:  # the old game is still readable where it was moved
        assert Table.resume(journal).state()["phase"] == "game_over"


def test_no_file_and_no_players_is_one_line_and_creates_nothing(tmp_path, run_cli):
    path = tmp_path / "table.db"
    code, out, err = play(run_cli, path, ["quit"])
    assert code == 1 and out == ""
    assert err.startswith("unox: error: ") and "--players Ann,Bob,Cy" in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_finished_game_without_players_stays_where_it_is(tmp_path, run_cli):
    path = tmp_path / "table.db"
    old = finished_game(path)
    code, _, err = play(run_cli, path, ["quit"])
    assert code == 1 and "holds no game in progress" in err and err.count("\n") == 1
    assert path.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.db"]


def test_a_finished_game_another_process_holds_open_is_not_moved(tmp_path, run_cli):
    path = tmp_path / "table.db"
    old = finished_game(path)
    with Journal(path) as other:  # another unox still has the file open: its write-ahead log is there
        assert other.settings is not None
        code, out, err = play(run_cli, path, ["quit"], "--players", "Ann,Bob")
    assert code == 1 and out == ""
    assert "is open in another unox" in err and err.count("\n") == 1
    assert path.read_bytes() == old
    assert not list(tmp_path.glob("*.done"))
