"""The tournament's standings on a TV (`unox tournament serve`): one read-only page that refreshes itself.

It shows what the coordinator holds (its journal), so it needs no PIN: nobody can change anything from it.
It listens and announces itself as `unox serve` does (`bind`, `public_url`, the QR code).
"""

from __future__ import annotations

import html
import sys
from collections.abc import Callable
from typing import IO, Any

from unox.web.launch import _uvicorn_server, bind, public_url

REFRESH_MS = 2000

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>{title}</title>
<style>
body {{ background:#111; color:#eee; font:2.2vw/1.4 system-ui,sans-serif; margin:2vw 4vw; }}
h1 {{ font-size:3.2vw; margin:0 0 1vw; }} table {{ border-collapse:collapse; width:100%; }}
td,th {{ padding:.4vw 1vw; text-align:left; }}
td.n,th.n {{ text-align:right; font-variant-numeric:tabular-nums; }} td.w {{ font-size:1.4vw; color:#bbb; }}
tr:nth-child(even) td {{ background:#1c1c1c; }} #state {{ color:#aaa; margin-top:1vw; }}
</style></head><body>
<h1>{title}</h1>
<table><thead><tr><th class="n">#</th><th>player</th><th class="n">points</th><th class="n">hands</th>
<th>with each partner</th></tr></thead>
<tbody id="rows"></tbody></table>
<p id="state">waiting for the coordinator</p>
<script>
async function refresh() {{
  try {{
    const s = await (await fetch("standings.json", {{cache: "no-store"}})).json();
    const rows = document.getElementById("rows");
    rows.replaceChildren(...s.players.map((p, i) => {{
      const tr = document.createElement("tr");
      const partners = Object.entries(p.partners || {{}})
        .map(([who, n]) => `${{who}} ${{n}}`).join(" \u00b7 ");
      for (const [v, c] of [[i + 1, "n"], [p.player, ""], [p.points, "n"], [p.hands, "n"],
                            [partners, "w"]]) {{
        const td = document.createElement("td"); td.textContent = v; td.className = c; tr.append(td);
      }}
      return tr;
    }}));
    document.getElementById("state").textContent = `${{s.results}} of ${{s.of}} table hands in` +
      (s.over ? ` \u2014 winner: ${{s.winner}}` : "");
  }} catch (e) {{ document.getElementById("state").textContent = "the coordinator is not answering"; }}
}}
refresh(); setInterval(refresh, {refresh});
</script></body></html>
"""


def build_app(title: str, standings: Callable[[], dict[str, Any]]) -> Any:
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse, JSONResponse
    from starlette.routing import Route

    page = PAGE.format(title=html.escape(title), refresh=REFRESH_MS)

    async def index(request: Any) -> HTMLResponse:
        return HTMLResponse(page, headers={"Cache-Control": "no-store"})

    async def table(request: Any) -> JSONResponse:
        return JSONResponse(standings(), headers={"Cache-Control": "no-store"})

    return Starlette(routes=[Route("/", index), Route("/standings.json", table)])


class StandingsServer:
    """uvicorn over the standings page, run in the foreground until Ctrl-C."""

    def __init__(self, title: str, standings: Callable[[], dict[str, Any]], host: str, port: int):
        self.sock = bind(host, port)
        self.url = public_url(host, self.sock.getsockname()[1])
        self.server = _uvicorn_server(build_app(title, standings), sock=self.sock)

    def run(self, out: IO[str] = sys.stdout) -> None:
        import segno

        print(f"unox tournament: the standings are at {self.url} (open it on the TV)", file=out)
        segno.make(self.url, error="m").terminal(out=out, compact=True, border=2)
        out.flush()
        try:
            self.server.run(sockets=[self.sock])
        except KeyboardInterrupt:
            pass  # uvicorn re-raises the Ctrl-C it handled: stopping is the normal end
        finally:
            self.sock.close()
