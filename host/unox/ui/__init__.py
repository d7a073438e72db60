"""Front ends for a table: the textual table UI and the plain-text renderer share what is in here.

`commands` turns a typed line into a table request, `prompt` says what is expected next, `events` turns each
accepted request into log lines. None of them touch the launcher or the terminal.
"""
