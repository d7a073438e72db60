"""Issue 8.2: a game is never lost. `unox play` journals every table under the user's state directory by
default (named on the first screen), `--list` shows the tables kept, `--continue` picks up the newest and
`--no-journal` opts out."""

import os

LINES = "deal Bob\nflip G7\nG5\nquit\n"
NEW_TABLE = ["play", "--plain", "--players", "Ann,Bob", "--launcher", "sim", "--seed", "2"]


def tables(state_home):
    folder = state_home / "unox" / "tables"
    return sorted(folder.glob("*.db")) if folder.is_dir() else []


def test_a_new_table_is_journalled_under_the_state_dir_and_named_first(run_cli, state_home):
    code, out, _ = run_cli(NEW_TABLE, stdin=LINES)
    assert code == 0
    (journal,) = tables(state_home)
    assert "Ann-Bob" in journal.name
    first_lines = out.splitlines()[:2]
    assert any(f"Journal: {journal}" in line for line in first_lines)


def test_continue_without_a_file_picks_up_the_newest_table_where_it_was(run_cli, state_home):
    run_cli(NEW_TABLE, stdin="deal Bob\nflip G7\nquit\n")  # an older table
    (older,) = tables(state_home)
    os.utime(older, (1_000_000, 1_000_000))
    run_cli([*NEW_TABLE[:3], "Cy,Dee", *NEW_TABLE[4:]], stdin=LINES.replace("Bob", "Dee"))
    newest = next(path for path in tables(state_home) if path != older)

    code, out, _ = run_cli(["play", "--plain", "--continue"], stdin="state\nquit\n")
    assert code == 0
    assert f"Resumed from {newest}: 3 accepted events replayed" in out
    assert "Top card:  G5  green 5" in out


def test_list_shows_each_table_with_players_last_change_and_whether_it_is_finished(run_cli, state_home):
    assert run_cli(["play", "--list"])[1].startswith("No tables kept in")
    run_cli(NEW_TABLE, stdin=LINES)
    (journal,) = tables(state_home)
    code, out, _ = run_cli(["play", "--list"])
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith(journal.name))
    assert len(row) <= 80
    assert "Ann,Bob" in row and "in progress" in row
    assert row.split()[-4].count("-") == 2  # the date of the last change, then its time


def test_no_journal_keeps_nothing_and_says_so(run_cli, state_home):
    code, out, _ = run_cli([*NEW_TABLE, "--no-journal"], stdin=LINES)
    assert code == 0
    assert tables(state_home) == []
    assert "No journal (--no-journal): if this program stops, the game is gone." in out


def test_continue_with_nothing_kept_says_how_to_start(run_cli):
    code, out, err = run_cli(["play", "--plain", "--continue"])
    assert (code, out) == (1, "")
    assert err.startswith("unox: error: no game in progress is kept in") and err.count("\n") == 1


def test_an_unwritable_state_dir_is_one_line_saying_what_to_do(run_cli, state_home, monkeypatch):
    blocker = state_home.parent / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))
    code, out, err = run_cli(NEW_TABLE, stdin=LINES)
    assert (code, out) == (1, "")
    assert err.startswith(f"unox: error: cannot make {blocker}/unox/tables for the game's journal")
    assert "--journal FILE somewhere writable, or --no-journal" in err and err.count("\n") == 1


def test_list_names_a_file_that_is_no_journal_without_failing(run_cli, state_home):
    folder = state_home / "unox" / "tables"
    folder.mkdir(parents=True)
    (folder / "notes.db").write_text("shopping list\n" * 100)
    run_cli(NEW_TABLE, stdin=LINES)
    code, out, _ = run_cli(["play", "--list"])
    assert code == 0
    rows = out.splitlines()[2:]
    notes = next(n for n, row in enumerate(rows) if row.split()[0] == "notes.db")
    assert "cannot be read" in " ".join(rows[notes:notes + 2])  # a long reason goes on a line of its own
    assert any("in progress" in row for row in rows[:notes] + rows[notes + 2:])


def test_list_fits_80_columns_with_ten_long_names(run_cli, state_home):
    """Issue 26 item 7: `unox play --list` printed rows of 95 to 118 characters."""
    names = ",".join(f"Player{n}Longname" for n in range(10))
    run_cli(["play", "--plain", "--players", names, "--launcher", "sim"], stdin="quit\n")
    code, out, _ = run_cli(["play", "--list"])
    rows = out.splitlines()
    assert code == 0 and len(rows) == 4, rows
    # every row within 80 columns but a folder's or a file's name alone, which cannot be broken
    assert all(len(row) <= 80 or len(row.split()) == 1 for row in rows), rows
    assert rows[2] == tables(state_home)[0].name  # the file name whole, what --continue FILE takes
    assert rows[3].startswith("    Player0Longname,") and rows[3].endswith("not started") and "…" in rows[3]


def test_one_request_is_counted_in_the_singular(tmp_path, capsys):
    """Issue 26 item 7: "1 requests replay"."""
    from unox.cli.main import main
    from unox.table.journal import Journal
    from unox.table.runtime import Table
    from unox.table.settings import TableSettings

    table = Table.create(TableSettings(players=("Ann", "Bob")), journal=Journal(tmp_path / "j.db"))
    assert table.handle({"cmd": "deal", "dealer": "Ann"})["ok"]
    table.close()
    assert main(["journal", "check", str(tmp_path / "j.db")]) == 0
    assert "; 1 request replays, phase flip" in capsys.readouterr().out
