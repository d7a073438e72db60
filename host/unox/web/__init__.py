"""`unox serve`: the table on every player's phone, a web front end over an HTTP + WebSocket API.

A peer of the terminal UI over the same `Table` runtime: neither knows the other. The API is documented in
docs/web.md; the page under `static/` uses nothing else.
"""
