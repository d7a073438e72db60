"""Front ends for a table: the textual table UI and the plain-text renderer share what is in here.

`commands` turns a typed line into a table request, `prompt` says what is expected next, `session` drives one
table for any front end and `tables` builds the sessions `unox play` and `unox demo` run. The log lines come
from `unox.table.narrate`, the same lines the table runtime gives its listeners.
"""
