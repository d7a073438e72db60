// unox web page: one script for the join page, a player's phone, the table view and the operator.
// It uses only the API of docs/web.md: POST /api/join, POST /api/requests, GET /api/state, WS /api/ws.
"use strict";
// The edition's colours and cards come from the server (`cards` in GET /api/state): no per-edition code here.
// A colour's paint by its name, with the text colour that reads on it; an unknown name is used as a CSS colour.
const PAINT = { red: ["#d32f2f"], yellow: ["#f5c400", "#111"], green: ["#2e8b3d"], blue: ["#1f63c9"],
  turquoise: ["#0f9c9c", "#111"], pink: ["#e0529c"], orange: ["#ef7d0d", "#111"], purple: ["#7b3fb8"] };
let E = { rules: "extreme", draws: false, colors: [], cards: [], requests: {} }, CARDS = {}, COLORS = {}, BY_NAME = {};
function setEdition(e) {
  if (!e) return;
  E = e; CARDS = {}; COLORS = {}; BY_NAME = {};
  for (const c of e.cards) CARDS[c.code] = c;
  for (const c of e.colors) { COLORS[c.code] = c.name; BY_NAME[c.name] = c.code; }
}
const paintOf = (name) => PAINT[name] || [name];
function paint(el, letter) { // colour AND letter: the letter is always printed too
  if (letter === "W") el.style.backgroundImage = "conic-gradient(" + E.colors.map((c, i, a) => paintOf(c.name)[0] + " " + (100 * i / a.length) + "% " + (100 * (i + 1) / a.length) + "%").join(",") + ")";
  else if (COLORS[letter]) { const [bg, fg] = paintOf(COLORS[letter]); el.style.background = bg; el.style.color = fg || "#fff"; }
  return el;
}
const unit = (n) => (E.draws ? " draw" : " press") + (n === 1 ? "" : E.draws ? "s" : "es");
const PAGES = { "/play": "player", "/table": "table", "/operator": "operator" };
const $ = (id) => document.getElementById(id);
const keep = (area) => ({
  get: (k) => { try { return area().getItem("unox." + k); } catch (e) { return null; } },
  set: (k, v) => { try { v == null ? area().removeItem("unox." + k) : area().setItem("unox." + k, v); } catch (e) { /* private mode */ } },
});
// The device keeps a player's seat and PIN; the operator's PIN, which opens everything, is kept by this tab
// only (sessionStorage): it survives a reload and a server restart, and goes with the tab.
const store = keep(() => localStorage), tab = keep(() => sessionStorage);
let S = null, me = null, presses = "count", readOnly = false, device = null, logLines = [], message = "";
let taken = [], viewsOpen = true, joinInfo = null, freed = false, pick = {}, acting = null, points = {}, lastTurnKey = "", ws = null, retry = 0, heard = 0;

// ---- building the DOM -------------------------------------------------------------------------
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid != null && kid !== false) el.append(kid.nodeType ? kid : String(kid));
  return el;
}
const btn = (label, onclick, attrs) => h("button", Object.assign({ type: "button", onclick }, attrs || {}), label);

function cardParts(code) {
  if (!code) return null;
  const c = CARDS[code];
  if (!c) return { color: "?", label: code, name: code };
  return { color: c.color || "W", label: c.label, name: c.name, entry: c };
}
function card(code, big) {
  const p = cardParts(code);
  if (!p) return h("span", { class: "note" }, "no card yet");
  return paint(h("span", { class: "card c-" + p.color + (big ? " big" : ""), role: "img", "aria-label": p.name, title: p.name },
    h("i", { "aria-hidden": "true" }, p.color), h("b", { "aria-hidden": "true", class: p.label.length > 2 ? "long" : null }, p.label),
    p.color === "W" ? h("small", { "aria-hidden": "true" }, p.name.replace("Wild ", "") || "Wild") : null), p.color);
}
const swatch = (color) => color ? h("span", {}, paint(h("span", { class: "swatch c-" + (BY_NAME[color] || "W"), "aria-hidden": "true" }), BY_NAME[color] || "W"), " " + color + " (" + (BY_NAME[color] || "?") + ")") : "–";

// ---- talking to the server --------------------------------------------------------------------
async function api(path, body) {
  const init = body === undefined ? { credentials: "same-origin" } :
    { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, init);
  let data = null;
  try { data = await res.json(); } catch (e) { data = { ok: false, error: { message: "the server answered " + res.status } }; }
  return { status: res.status, data };
}
async function join(pin, seat) {
  const { status, data } = await api("/api/join", { pin, seat });
  // The operator PIN opens everything: it is never kept on the device (the cookie keeps the page signed in).
  if (status === 200) {
    store.set("pin", seat === "operator" ? null : pin); tab.set("operator_pin", seat === "operator" ? pin : null);
    store.set("seat", seat); store.set("why", null);
  }
  return { status, data };
}
async function send(request) {
  message = "";
  let r;
  try { r = await api("/api/requests", request); } catch (e) { r = { status: 0, data: { ok: false, error: { message: "no connection to the table: check the Wi-Fi and try again" } } }; }
  if (r.status === 401 && await rejoin()) return send(request);
  const reply = r.data || {};
  if (reply.state) setState(reply.state);
  if (!reply.ok) message = refusedWords(reply, request);
  else pick = {};
  render();
  return reply;
}
// Rejoin the stored seat with the stored PIN. A PIN the server refuses is forgotten at once (the server
// restarted with a new one), so no other page of this phone tries it again; the join page says why.
async function rejoin() {
  const seat = store.get("seat"), pin = seat === "operator" ? tab.get("operator_pin") : store.get("pin");
  if (pin == null || !seat) return false;
  const { status, data } = await join(pin, seat);
  if (status === 200) return true;
  const code = data && data.error && data.error.code;
  if (code === "bad_pin" || code === "operator_pin") {
    // the reason first: another page of this phone that reads the PIN gone before it reads the seat gone
    // would otherwise say "signed out" first, and the first reason is the one kept
    leave("The PIN has changed (the table was restarted with a new one): type the new PIN.");
    if (store.get("pin") === pin) store.set("pin", null);
    tab.set("operator_pin", null); store.set("seat", null);
  } else if (code === "seat_taken") {
    // another page of this phone may have taken the seat back first (after a restart they all rejoin at
    // once): the cookie they share then opens it
    if ((await api("/api/state").catch(() => ({}))).status === 200) return true;
    store.set("seat", null);
    leave(seat + "'s seat was taken by another phone while this one was away: ask the operator to free it, then join again.");
  } else if (code === "locked_out") {
    leave(refusal(data, status));
  } else if (code === "views_closed" || code === "views_full") { // the operator closed the table views
    store.set("seat", null);
    leave(refusal(data, status));
  } else if (code === "unknown_seat") {
    store.set("seat", null);
    leave("There is no seat " + seat + " at this table any more: take another one.");
  }
  return false;
}
// Back to the join page with a word of why, kept for every page of this phone (the first reason found)
// until a join succeeds.
function leave(why) { if (!store.get("why")) store.set("why", why); }
function connect() {
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/ws";
  ws = new WebSocket(url);
  ws.onopen = () => { retry = 0; heard = Date.now(); setConn(true); };
  ws.onmessage = (ev) => { heard = Date.now(); receive(JSON.parse(ev.data)); };
  ws.onclose = async () => {
    setConn(false);
    if (freed) return;
    const wait = Math.min(5000, 500 * 2 ** retry++);
    setTimeout(async () => { if (await loadState()) connect(); }, wait);
  };
}
// A Wi-Fi drop can leave a socket that never closes: ask after 10 s of silence, give up on it after 25 s.
setInterval(() => {
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  if (Date.now() - heard > 25000) ws.close();
  else if (Date.now() - heard > 10000) ws.send('{"cmd":"state"}');
}, 5000);
function receive(m) {
  if (m.type === "state") setState(m.state);
  else if (m.type === "log") { logLines.push(m.text); logLines = logLines.slice(-60); }
  else if (m.type === "history") logLines = m.lines.slice(-60);
  else if (m.type === "hello") { welcome(m); }
  else if (m.type === "launcher") device = m.launcher;
  else if (m.type === "seats") { taken = m.taken; if (m.views_open !== undefined) viewsOpen = m.views_open; }
  else if (m.type === "reply") { if (m.reply && m.reply.state) setState(m.reply.state); }
  else if (m.type === "freed") { // the operator gave this seat to another phone: never take it back by itself
    freed = true; store.set("seat", null); store.set("pin", null); tab.set("operator_pin", null);
    store.set("why", null);
    leave(m.seat === "table" ? "The operator signed the table views out: type the PIN to show the table again."
      : "The operator freed " + m.seat + "'s seat (for another phone, or for this one again): type the PIN to take a seat.");
    location.replace("/");
    return;
  }
  render();
}
function setConn(on) { const c = $("conn"); c.textContent = on ? "live" : "reconnecting…"; c.className = on ? "on" : "off"; }
function welcome(w) { joinInfo = w.join || null; me = w.seat; presses = w.presses; readOnly = w.read_only; device = w.launcher; taken = w.taken || []; viewsOpen = w.views_open !== false; setEdition(w.cards); setState(w.state); }
async function loadState() {
  let r;
  try { r = await api("/api/state"); } catch (e) { return true; } // the server is away: the socket retries
  if (r.status === 401) {
    if (await rejoin()) return loadState();
    if (store.get("seat")) leave("This phone's seat was signed out: type the PIN to take a seat again.");
    store.set("seat", null);
    location.replace("/");
    return false;
  }
  if (r.status === 200) { welcome(r.data); render(); } // the screen shows what the screen reader says
  return true;
}

// ---- the state --------------------------------------------------------------------------------
function setState(state) {
  S = state;
  const owedMe = (S.owed || []).find((o) => o.player === me);
  const key = [S.phase, S.turn, owedMe ? JSON.stringify(owedMe) : ""].join("|");
  if (key !== lastTurnKey) {
    lastTurnKey = key;
    if (S.turn) acting = S.turn; // the operator's "act for" follows the turn
    announce();
  }
}
function owes(o) { if (o.until_fire) return "presses until a card fires"; const n = o.draws ?? o.presses; return n + unit(n); }
function turnText() {
  if (!S) return "";
  if (S.phase === "deal") return "Waiting for the deal" + (S.dealer ? "" : ": the operator deals");
  const dealing = S.phase === "flip" && (S.owed || []).length; // DL4: the launcher deals, each draws in turn
  if (S.phase === "flip" && !dealing) return "Waiting for the first card to be turned up";
  if (S.phase === "hand_over") return (S.went_out === me ? "You" : S.went_out || "Someone") + " went out: the hand is over, the operator enters the scores";
  if (S.phase === "game_over") return (S.winner || "Someone") + " won the game";
  const owed = (S.owed || [])[0];
  const who = S.turn === me ? "You" : S.turn;
  if (owed && owed.player === S.turn) return who + (who === "You" ? " owe " : " owes ") + owes(owed);
  if (S.pending) return (S.pending.player === me ? "You choose" : S.pending.player + " chooses") + ": " + plain(S.pending.why || "their choice");
  if (S.drawn && S.drawn === S.turn) return S.turn === me ? "You drew: play that card or pass" : S.turn + " drew: a play or a pass";
  return S.turn === me ? "Your turn: play a card or" + unit(1) : "It is " + S.turn + "'s turn";
}
function announce() {
  const mine = S && S.phase === "turn" && S.turn === me;
  $("live").textContent = turnText() + (mine ? ", " + me : "");
  if (mine && navigator.vibrate) navigator.vibrate([180, 80, 180]);
}

// ---- pieces shared by the pages ---------------------------------------------------------------
function statusLine() {
  const mine = S.phase === "turn" && S.turn === me;
  return h("p", { class: "status" + (mine ? " you" : ""), id: "turn" }, turnText());
}
// Between hands (the deal phase) the last hand's cards are history: no top card, no counts.
const betweenHands = () => S.phase === "deal";
function topPanel(big) {
  return h("div", { class: "panel top" }, card(betweenHands() ? null : S.top, big),
    h("div", {}, E.rules !== "extreme" ? h("div", { id: "edition" }, E.title) : null, h("div", {}, "Colour: ", h("strong", { id: "color" }, swatch(betweenHands() ? null : S.color))),
      h("div", {}, "Direction: ", h("strong", {}, S.direction === "right" ? "↺ right (counter-clockwise)" : "↻ left (clockwise)")),
      betweenHands() || !(S.launcher || {}).cards ? null : h("div", { class: "note", id: "launcher-cards" }, "Launcher holds about " + S.launcher.cards + " cards"),
      S.unsettled ? h("div", { class: "msg" }, "A fire is unsettled: the operator settles it before play goes on.") : null));
}
function seatsTable() {
  const owed = {};
  for (const o of S.owed || []) owed[o.player] = owes(o);
  const rows = (S.players || Object.keys(S.scores || {})).map((p) => h("tr", { class: p === S.turn ? "turn" : null },
    h("td", {}, p === S.turn ? "▶ " : "", p, p === me ? " (you)" : "", (S.uno || []).includes(p) ? h("span", { class: "badge bad" }, "no UNO!") : null,
      (S.dropped || []).includes(p) ? h("span", { class: "badge" }, "out") : null),
    h("td", { class: "n" }, betweenHands() ? "–" : (S.hands || {})[p] ?? "–"), h("td", {}, owed[p] || ""), h("td", { class: "n" }, (S.scores || {})[p] ?? 0)));
  return h("table", { id: "seats" }, h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Cards"), h("th", {}, "Owes"), h("th", {}, "Score"))),
    h("tbody", {}, rows));
}
function logList(n) {
  return h("ul", { class: "log", id: "log", "aria-label": "table log" }, logLines.slice(-n).reverse().map((l) => h("li", {}, words(l))));
}
function launcherPanel() {
  const d = device;
  const faults = d && d.faults && d.faults.length ? d.faults : [];
  return h("div", { class: "panel", id: "launcher" }, h("strong", {}, "Launcher: "),
    presses === "count" ? "none attached: each press says how many cards came out" :
      d ? [d.connected ? h("span", { class: "badge ok" }, "connected") : h("span", { class: "badge bad" }, "not connected"),
        faults.map((f) => h("span", { class: "badge bad" }, "fault: " + f)),
        d.battery_mv ? h("span", { class: "badge" }, (d.battery_mv / 1000).toFixed(2) + " V") : null,
        d.lid_open ? h("span", { class: "badge bad" }, "lid open") : null] : "attached");
}
const msgBox = () => h("div", { class: "msg", role: "alert", id: "msg" }, message);

// ---- the card picker (a player's own turn, or the operator for anyone, or the flip) -------------
function picker(player, cmd) {
  const wrap = h("div", { class: "panel", id: "picker" }, h("h2", {}, cmd === "flip" ? "Card turned up" : "Play a card"));
  const letters = [...E.colors.map((c) => c.code), ...(E.cards.some((c) => !c.color) ? ["W"] : [])];
  wrap.append(h("div", { class: "row", role: "group", "aria-label": "colour" },
    letters.map((c) => paint(btn(c === "W" ? "Wild" : COLORS[c], () => { pick = { color: c }; render(); },
      { class: "pick c-" + c + (pick.color === c ? " sel" : ""), "aria-pressed": String(pick.color === c) }), c))));
  if (!pick.color) return wrap;
  const faces = E.cards.filter((c) => (c.color || "W") === pick.color);
  wrap.append(h("div", { class: "grid", role: "group", "aria-label": "face" }, faces.map((f) =>
    paint(btn(f.label, () => { pick = { color: pick.color, code: f.code }; render(); },
      { class: "pick c-" + pick.color + (pick.code === f.code ? " sel" : ""), "aria-label": f.name, title: f.name, "aria-pressed": String(pick.code === f.code) }), pick.color))));
  const chosen = CARDS[pick.code];
  if (!chosen) return wrap;
  const request = { cmd, card: pick.code };
  if (cmd === "play") request.player = player;
  let ready = true;
  if (chosen.names_color) { // a wild names a colour; Mario Kart's Item Wild names none (MK-I1)
    wrap.append(h("div", { class: "row", role: "group", "aria-label": "colour to name" }, h("span", {}, "Name the colour: "),
      Object.entries(COLORS).map(([c, name]) => paint(btn(name, () => { pick.named = name; render(); },
        { class: "pick c-" + c + (pick.named === name ? " sel" : ""), "aria-label": "name " + name, "aria-pressed": String(pick.named === name) }), c))));
    request.color = pick.named;
    ready = !!pick.named;
  }
  if (cmd === "play" && chosen.target) {
    const others = (S.players || []).filter((p) => p !== player && !(S.dropped || []).includes(p));
    wrap.append(h("div", { class: "row", role: "group", "aria-label": "trade with" }, h("span", {}, "Trade hands with: "),
      others.map((p) => btn(p, () => { pick.target = p; render(); }, { class: pick.target === p ? "sel" : null, "aria-label": "trade with " + p, "aria-pressed": String(pick.target === p) }))));
    request.target = pick.target;
    ready = !!pick.target;
  }
  if (cmd === "play" && chosen.count) {
    const held = Math.max(0, ((S.hands || {})[player] || 1) - 1);
    if (pick.count == null) pick.count = 0;
    wrap.append(h("div", { class: "row" }, h("label", { for: "count" }, "Other " + COLORS[chosen.color] + " cards put down with it: "),
      h("input", { id: "count", type: "number", min: 0, max: held, inputmode: "numeric", value: pick.count, oninput: (e) => { pick.count = parseInt(e.target.value || "0", 10); } })));
    request.count = pick.count;
  }
  const name = chosen.name + (request.color ? " as " + request.color : "");
  wrap.append(h("div", { class: "row" }, btn((cmd === "flip" ? "Turn up " : "Play ") + name, () => {
    if (request.count != null) request.count = pick.count;
    send(request);
  }, { class: "main", id: "go", disabled: !ready })));
  return wrap;
}
// DL3: a draw edition's launcher turns up the first card (fired, counted by the beam); then the operator
// says which it is. Without a launcher (the phones count) the card is simply named.
function firstCard() {
  if (!E.draws || presses === "count" || S.first_fired) return picker(null, "flip");
  const fire = presses === "host"
    ? btn("Fire the first card", () => send({ cmd: "flip" }), { class: "main", id: "fire-first" })
    : h("p", { class: "note", id: "fire-first" }, "Press the launcher's own button: it turns up the first card.");
  return h("div", { class: "panel" }, h("p", {}, "The launcher turns up the first card."), fire);
}

// A press (Extreme) or a draw (draw editions): the host fires, or the phone says what came out, or the button.
function pressControls(player) {
  const cmd = E.draws ? "draw" : "press", id = E.draws ? "draw" : "press";
  if (presses === "host") return btn(E.draws ? "Draw from the launcher" : "Press the launcher", () => send({ cmd, player }), { class: "main", id });
  if (presses === "button") return h("p", { class: "note", id }, "Press the launcher's own button.");
  const box = h("input", { id: "fired", type: "number", min: 0, max: 40, inputmode: "numeric", value: pick.fired ?? "", "aria-label": "cards that came out", oninput: (e) => { pick.fired = e.target.value; } });
  return h("span", { class: "row" }, h("label", { for: "fired" }, "Cards that came out: "), box,
    btn(E.draws ? "Drew" : "Pressed", () => send({ cmd, player, fired: parseInt(pick.fired || "0", 10) }), { class: "main", id }));
}
const passButton = (player) => btn("Pass: keep the card", () => send({ cmd: "pass", player }), { class: "main", id: "pass" });
// C-A7: the victim of a challengeable card challenges; at a physical table they report what the hand showed.
function challengePanel(player) {
  const c = S.challenge;
  if (!c || c.player !== player) return null;
  return h("div", { class: "panel", id: "challenge" }, h("h2", {}, "Challenge " + c.against + "?"),
    h("p", { class: "note" }, player === me ? "You may challenge before drawing: " + c.against + " shows their hand to you."
      : player + " may challenge before drawing: " + c.against + " shows their hand to " + player + "."),
    h("div", { class: "row" }, btn(c.against + " held a matching card: guilty", () => send({ cmd: "challenge", player, guilty: true }), { id: "guilty" }),
      btn(c.against + " did not: not guilty", () => send({ cmd: "challenge", player, guilty: false }), { id: "innocent" })));
}
// An edition's own choice (state.pending), made with the card picker and named players and items, in words:
// no field names, no JSON, no rule IDs. The widgets follow the request's declared fields (kind and name).
const FIELD_WORDS = { to: "Give them to", target: "Who it hits", cards: "The cards", card: "The card that came out",
  color: "Colour", item: "Its item", deal: "Deal them out one at a time instead", fired: "Cards the launcher fired" };
const fieldWords = (name) => FIELD_WORDS[name] || name.replace(/_/g, " ");
// The same fields as steps of a sentence: "Pick who gets them, then the cards, then press Done."
const FIELD_STEPS = { to: "who gets them", target: "who it hits", cards: "the cards", card: "the card that came out",
  color: "the colour", item: "its item", deal: "whether to deal them out instead" };
const fieldStep = (name) => FIELD_STEPS[name] || fieldWords(name).toLowerCase();
const itemWords = (item) => String(item).replace(/_/g, " ");
function pendingPanel(mayAnswer) {
  const p = S.pending;
  if (!p) return null;
  const who = p.player === me ? "Your choice" : "Waiting for " + p.player;
  const wrap = h("div", { class: "panel", id: "pending" }, h("h2", {}, who), h("p", {}, plain(p.why || "")));
  if (!mayAnswer) return wrap;
  const fields = E.requests[p.cmd] || {}, req = pick.req || (pick.req = {});
  const shown = Object.entries(fields).filter(([name, f]) => !(name === "player" && f.kind === "player") &&
    !(Array.isArray(p.needs) && ["target", "color"].includes(name) && !p.needs.includes(name)));
  const fires = shown.some(([name]) => name === "fired");
  // At a launcher table the card comes out first (the host fires it), then it is named: while the state
  // says it is not out yet (`out` false), the page offers the fire alone.
  const before = fires && presses !== "count" && p.out === false;
  const reported = shown.some(([name]) => name === "card") && req.card;
  const toFire = before || (fires && presses !== "count" && p.out === undefined && !reported);
  const steps = shown.filter(([name]) => name !== "fired" && !(name === "item" && E.items.length)).map(([name]) => fieldStep(name));
  wrap.append(h("p", { class: "note hint", id: "pending-hint" }, toFire
    ? "First fire the launcher" + (steps.length ? ", then pick " + steps.join(", then ") : "") + "."
    : steps.length ? "Pick " + steps.join(", then ") + ", then press Done." : "Press Done."));
  for (const [name, f] of shown) {
    if (before) break; // nothing to pick before the card is out
    if (name === "fired" || name === "item" && E.items.length) continue; // the launcher says it; the card carries its item
    wrap.append(h("div", { class: "row field", id: "req-" + name, role: "group", "aria-label": fieldWords(name) },
      h("span", { class: "label" }, fieldWords(name) + (needed(name, f, p) || name === "card" ? ": " : " (if any): ")), choiceOf(name, f, req, p)));
  }
  const request = () => {
    const out = { cmd: p.cmd, player: p.player };
    for (const [name, f] of shown) {
      const v = req[name];
      if (v === undefined || v === null || v === "" || (f.kind === "flag" && !v)) continue;
      out[name] = f.kind === "count" ? parseInt(v, 10) : v;
    }
    return out;
  };
  const row = h("div", { class: "row" });
  if (fires && presses === "count")
    row.append(h("label", { for: "req-fired-n" }, fieldWords("fired") + ": "), h("input", { id: "req-fired-n", type: "number", min: 0, max: 40,
      inputmode: "numeric", value: req.fired ?? 1, oninput: (e) => { req.fired = e.target.value; } }));
  if (toFire) { // the host fires what is due; nothing else is said yet
    row.append(btn("Fire the launcher", () => send({ cmd: p.cmd, player: p.player }), { class: "main", id: "answer" }));
  } else {
    const card = req.card && CARDS[req.card];
    const answer = () => { // with a launcher the table fires what the edition says is due, and books the card
      const out = request();
      if (fires && presses === "count" && out.fired === undefined) out.fired = 1;
      send(out);
    };
    row.append(btn(card ? "Done: " + card.name + (card.item ? " (" + itemWords(card.item) + ")" : "") : "Done", answer,
      { class: "main", id: "answer" }));
  }
  wrap.append(row);
  return wrap;
}
// A field the request declares optional may be what this choice needs (Mario Kart's `needs`). The card that
// came out is optional only to a table that knows it (dealt mode): a phone always names it, so it is never
// "(if any)" on the page.
const needed = (name, f, p) => f.required || (Array.isArray(p.needs) && p.needs.includes(name));
// One field's widget: players as buttons, cards with the picker, colours and items by name.
function choiceOf(name, f, req, p) {
  const set = (v) => { req[name] = v; render(); };
  const sel = (on) => ({ class: on ? "sel" : null, "aria-pressed": String(!!on) });
  const others = (S.players || []).filter((q) => q !== p.player && !(S.dropped || []).includes(q));
  if (f.kind === "player") return [...others.map((q) => btn(q, () => set(q), sel(req[name] === q))),
    needed(name, f, p) ? null : btn("Nobody", () => set(undefined), sel(req[name] === undefined))];
  if (f.kind === "players") return (S.players || []).map((q) => btn(q, () => set((req[name] || []).includes(q) ? req[name].filter((x) => x !== q) : [...(req[name] || []), q]), sel((req[name] || []).includes(q))));
  if (f.kind === "flag") return h("input", { type: "checkbox", "aria-label": fieldWords(name), checked: !!req[name], onchange: (e) => { req[name] = e.target.checked; } });
  if (name === "color") return Object.entries(COLORS).map(([c, n]) => paint(btn(n, () => set(n), Object.assign(sel(req[name] === n), { class: "pick c-" + c + (req[name] === n ? " sel" : "") })), c));
  if (name === "item") return E.items.map((it) => btn(itemWords(it), () => set(it), sel(req[name] === it)));
  if (f.kind === "texts") {
    const chosen = req[name] || [];
    return [cardChooser((code) => { if (!chosen.includes(code)) set([...chosen, code]); }),
      h("div", { class: "row chosen" }, chosen.length ? chosen.map((code) => btn("Remove " + (CARDS[code] || { name: code }).name, () => set(chosen.filter((c) => c !== code)))) : h("span", { class: "note" }, "none yet"))];
  }
  if (f.kind === "text" && name === "card") return cardChooser((code) => { req.card = code; if (CARDS[code] && CARDS[code].item) req.item = CARDS[code].item; render(); }, req.card);
  if (f.kind === "count") return h("input", { type: "number", min: 0, inputmode: "numeric", "aria-label": fieldWords(name), value: req[name] ?? "", oninput: (e) => { req[name] = e.target.value; } });
  return h("input", { type: "text", "aria-label": fieldWords(name), value: req[name] ?? "", oninput: (e) => { req[name] = e.target.value; } });
}
// The card picker's colour row, then that colour's faces; `chosen` (one card) is marked.
function cardChooser(onPick, chosen) {
  const letters = [...E.colors.map((c) => c.code), ...(E.cards.some((c) => !c.color) ? ["W"] : [])];
  const at = pick.chooser || (chosen && CARDS[chosen] ? CARDS[chosen].color || "W" : null);
  const wrap = h("div", { class: "chooser" }, h("div", { class: "row", role: "group", "aria-label": "colour of the card" },
    letters.map((c) => paint(btn(c === "W" ? "Wild" : COLORS[c], () => { pick.chooser = c; render(); },
      { class: "pick c-" + c + (at === c ? " sel" : ""), "aria-pressed": String(at === c) }), c))));
  if (at) wrap.append(h("div", { class: "grid", role: "group", "aria-label": "card" }, E.cards.filter((c) => (c.color || "W") === at).map((c) =>
    paint(btn(c.label, () => onPick(c.code), { class: "pick c-" + at + (chosen === c.code ? " sel" : ""), "aria-label": c.name + (c.item ? ", " + itemWords(c.item) : ""), title: c.name, "aria-pressed": String(chosen === c.code) }), at))));
  return wrap;
}
// Rule IDs are for the rule book, not the table: "(MK-I1, DL3)" and "(BA-A1)" are left out of what people read.
// Also the short ones, "(U2)", "(G3)", "(A1–A5)", and "(P1: advice)" keeps "(advice)".
const ID = "(?:[A-Z]{1,3}-[A-Z]*\\d+[a-z]?|[A-Z]{1,2}\\d+[a-z]?)(?:[–-](?:[A-Z]{1,2}\\d+))?";
const RULE_ID = new RegExp("\\s*\\(" + ID + "(?:,\\s*" + ID + ")*\\)", "g");
const RULE_ID_LABEL = new RegExp("\\((?:" + ID + ")(?:,\\s*" + ID + ")*:\\s*", "g");
const plain = (text) => String(text).replace(RULE_ID, "").replace(RULE_ID_LABEL, "(");
// A log line as people read it: card codes by their names (as the picker shows them), no rule IDs.
function words(line) {
  return plain(line).replace(/\b([A-Z][A-Z0-9+]{1,3})\b/g, (code) => (CARDS[code] ? CARDS[code].name : code));
}
// Every refusal a page can get, in the page's own words: what went wrong and what to do, with the names the
// page shows (cards by name, people by name), never the protocol's syntax, field names or rule IDs. A code the
// page does not know yet falls back to the server's message with codes, quotes and braces taken out.
const cardName = (code) => (CARDS[code] ? CARDS[code].name : "that card");
const person = (p) => (p && p === me ? "you" : p || "that player");
const REFUSED = {
  // the table and the server
  bad_json: () => "The table could not read that request. Reload the page and try again.",
  bad_request: () => "That was not a move the table takes. Reload the page and try again.",
  unknown_cmd: () => "This table has no such move. Reload the page and try again.",
  unknown_player: (r) => (r.player || r.by || r.target || "That player") + " is not seated at this table.",
  nothing_to_undo: () => "There is nothing left to undo.",
  not_undoable: () => "The last press already fired its cards: they cannot go back. For a wrong card, use the wrong-card penalty.",
  result_sent: () => "This hand's result has already gone to the tournament: it cannot be undone here.",
  no_launcher: () => "No launcher is attached: say how many cards came out instead.",
  launcher_fault: () => "The launcher fired nothing (a fault): fix it, then press again. The press did not count.",
  fire_first: () => "Fire the launcher first: the first card comes out of it, then say which one it is.",
  internal_error: () => "unox failed on this move. Nothing was changed: try again, or undo; the server's log says more.",
  unsettled: () => "The table stopped in the middle of a fire: the operator settles how many cards came out first.",
  nothing_to_settle: () => "No fire is waiting to be settled.",
  journal_error: () => "The table could not write its record (disk full?): the move was not taken. Tell the operator.",
  forbidden: () => (me === "table" ? "The table view only shows the table: join as a player to play."
    : readOnly ? "This table is shown read-only: watch, nobody plays from here."
      : "Only the operator may do that, or it is another player's move."),
  bad_pin: () => "wrong PIN: type the PIN shown where unox runs",
  locked_out: (r, m) => "too many wrong PINs: " + (String(m).match(/locked for \d+ s/) || ["locked for a while"])[0] + ", then try again",
  operator_pin: () => "That PIN is the players'. The operator joins with the operator PIN.",
  seat_taken: (r, m) => ((String(m).match(/^([^\s"{}:]+)'s seat/) || [0, "This"])[1]) + "'s seat is taken by another phone: if that phone is yours, ask the operator to free the seat, then join again.",
  unknown_seat: () => "That seat is not at this table: take one of the seats offered.",
  views_closed: () => "The operator has closed the table view: ask the operator to let table views join again, then try again.",
  views_full: () => "Every table-view place is taken: ask the operator to sign the table views out and let them join again.",
  no_token: () => "This page is not signed in: type the PIN again.",
  too_many_sockets: () => "Too many pages of the table are open: close some and reload.",
  bad_origin: () => "Only the table's own page may act here: open the address unox printed.",
  unknown_host: () => "Open the address unox printed, not another name for it.",
  nothing_to_accept: () => "No other launcher answers at the port now, so there is nothing to accept: the table keeps its own.",
  // the rules
  wrong_phase: () => (S && S.phase === "deal" ? "Wait for the deal." : S && S.phase === "flip" ? "Wait for the first card to be turned up."
    : S && (S.phase === "hand_over" || S.phase === "game_over") ? "The hand is over: the operator enters the scores." : "That does not fit this moment of the game."),
  player_out: (r) => person(r.player || r.target) + " " + (r.player === me ? "are" : "is") + " out of the game.",
  not_your_turn: () => (S && S.turn ? "It is " + (S.turn === me ? "your" : S.turn + "'s") + " turn: wait for yours." : "It is not your turn: wait for yours."),
  owes_presses: (r) => person(r.player) + " must first take what " + (r.player === me ? "you owe" : "they owe") + " from the launcher.",
  owes_draws: (r) => person(r.player) + " must first draw what " + (r.player === me ? "you owe" : "they owe") + " from the launcher.",
  press_out_of_order: () => "Someone before you still owes presses: they take theirs first.",
  draw_out_of_order: () => "Someone before you still owes draws: they take theirs first.",
  not_owed: () => "Nothing is owed from the launcher now, and it is not your turn.",
  illegal_card: (r) => cardName(r.card) + " cannot go on " + (S && S.top ? cardName(S.top) : "the top card") + (S && S.color ? " with " + S.color + " in force" : "") + ": play a matching colour or face, or a wild.",
  bad_card: () => "There is no such card in this edition: pick it with the colour, then the face.",
  bad_color: () => "That colour is not in this edition: pick one of the colour buttons.",
  missing_color: () => "A wild names a colour: pick the colour to name, then play.",
  unexpected_color: () => "Only a wild names a colour: this card keeps its own.",
  missing_target: () => "Trade Hands needs the player to trade with: pick one.",
  bad_target: () => "That player cannot be chosen for this card: pick another player.",
  bad_count: () => "That number of cards does not fit: count the cards of that colour put down with it.",
  trade_last_card: () => "Trade Hands cannot be the last card: play another card to go out.",
  bad_fired: () => "That number of cards does not fit: count the cards that came out of the launcher.",
  catch_window_closed: (r) => person(r.player) + " cannot be caught now: the chance has passed.",
  called_uno: (r) => person(r.player) + " already called UNO.",
  bad_catcher: () => "Nobody catches themselves: call UNO instead.",
  uno_not_due: () => "There is no UNO to call now: call it when you are down to one card.",
  bad_penalty: () => "That is not one of the penalties.",
  nothing_to_take_back: () => "That player's play is not the last thing that happened: it cannot be taken back now.",
  nothing_to_reload: () => "The discard pile holds only its top card: there is nothing to load into the launcher.",
  bad_points: () => "Enter whole points of 0 or more for every player.",
  missing_dealer: () => "Choose who deals first.",
  must_play: () => "Play the card you drew, or pass.",
  only_drawn_card: () => "After a draw, only the card you drew may be played: play it or pass.",
  already_drew: () => "You already drew this turn: play the card you drew or pass.",
  must_draw_first: () => "Draw from the launcher first, then pass.",
  not_in_rules: () => "This edition's rules do not have that move.",
  not_in_hand: () => "That card is not in the hand.",
  not_in_launcher: () => "That card is not in the launcher.",
  bad_deck: () => "The deck is not as this edition has it.",
  bad_draw: () => "That draw does not fit: draw what is owed.",
  bad_setup: () => "The table's set-up is not valid: the operator checks the settings.",
  bad_challenge: () => "There is nothing to challenge with that.",
  nothing_to_challenge: () => "There is nothing to challenge now.",
  nothing_to_give: () => "There is nothing to give now.",
  pending_choice: () => (S && S.pending ? (S.pending.player === me ? "You choose first: " : S.pending.player + " chooses first: ") + plain(S.pending.why || "their choice") + "." : "A choice must be made first."),
  choice_not_due: () => "There is no such choice to make now.",
  no_item_due: () => "No item card is waiting: fire the launcher first.",
  bad_item: () => "That item does not go with the card: pick the card that came out, its item comes with it.",
  bad_turned_card: () => "Pick the card that came out of the launcher.",
  bad_gift: () => "Those cards cannot be given: pick cards of the hand, and the player to give them to.",
  bad_share: () => "Those cards cannot be shared that way: pick the player, or deal them out.",
};
function refusedWords(reply, request) {
  const e = reply.error || {}, words = REFUSED[e.code];
  if (words) return words(request || {}, e.message || "");
  return protocolFree(e.message || "The table refused that.");
}
// The server's own message for a code the page has no words for: no rule IDs, no quotes, braces or codes.
function protocolFree(text) {
  return plain(text).replace(/\{[^}]*\}|"[a-z_]+"\s*:\s*("[^"]*"|\S+)|[`"{}]/g, "").replace(/\b[a-z]+_[a-z_]+\b/g, "")
    .replace(/\b([A-Z][A-Z0-9+]{1,3})\b/g, (code) => (CARDS[code] ? CARDS[code].name : code)).replace(/\s{2,}/g, " ").trim();
}

function unoAndCatch(player) {
  const row = h("div", { class: "row", id: "calls" });
  const catchable = S.uno || [];
  if (catchable.includes(player))
    row.append(btn("UNO!", () => send({ cmd: "uno", player }), { class: "alert", id: "uno" }));
  for (const p of catchable) if (p !== player) row.append(btn("Catch " + p, () => send({ cmd: "catch", player: p, by: player }), { class: "alert" }));
  return row;
}

// ---- the pages --------------------------------------------------------------------------------
function playerPage() {
  const out = [statusLine(), msgBox()];
  const owed = (S.owed || [])[0];
  if (S.phase === "flip" && owed && owed.player === me && !readOnly) out.push(h("div", { class: "panel" }, h("p", {}, "The launcher deals: take your " + owes(owed) + "."), pressControls(me)));
  if (S.phase === "turn" && !readOnly) {
    if (S.pending) out.push(pendingPanel(S.pending.player === me));
    else if (S.turn === me && owed && owed.player === me) out.push(challengePanel(me), h("div", { class: "panel" }, h("p", {}, "You owe " + owes(owed) + ": " + (E.draws ? "take them from" : "press") + " the launcher."), pressControls(me)));
    else if (S.turn === me && S.drawn === me) out.push(picker(me, "play"), h("div", { class: "panel" }, h("p", { class: "note" }, "Keep the card you drew?"), passButton(me)));
    else if (S.turn === me) out.push(picker(me, "play"), h("div", { class: "panel" }, h("p", { class: "note" }, "No card you can play? " + (E.draws ? "Draw one." : "Press instead.")), pressControls(me)));
    out.push(unoAndCatch(me));
  }
  out.push(topPanel(false), seatsTable(), h("h2", {}, "Log"), logList(8));
  return out;
}
// The table view, for a TV across the room: whose turn and the top card fill most of the screen; owed presses
// and scores large; while a player's seat is free, the address to join and its QR code.
function tablePage() {
  const owed = (S.owed || []).map((o) => h("li", {}, h("strong", {}, o.player), " owes " + owes(o)));
  const players = S.players || [];
  const free = players.filter((p) => !taken.includes(p) && !(S.dropped || []).includes(p));
  const scores = h("table", { id: "seats", class: "scores" }, h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Cards"), h("th", {}, "Score"))),
    h("tbody", {}, players.map((p) => h("tr", { class: p === S.turn ? "turn" : null },
      h("td", {}, p === S.turn ? "▶ " : "", p, (S.uno || []).includes(p) ? h("span", { class: "badge bad" }, "no UNO!") : null),
      h("td", { class: "n" }, betweenHands() ? "–" : (S.hands || {})[p] ?? "–"), h("td", { class: "n" }, (S.scores || {})[p] ?? 0)))));
  const joinBox = free.length && joinInfo ? h("div", { class: "panel join", id: "join-info" },
    h("img", { src: joinInfo.qr, alt: "QR code of " + joinInfo.url, class: "qr" }),
    h("div", {}, h("p", {}, "Join: open ", h("strong", { id: "join-url" }, joinInfo.url)), h("p", { class: "note" }, "Free: " + free.join(", ") + ". The PIN is shown where unox runs."))) : null;
  return [h("div", { class: "tv" },
    h("section", { class: "stage top" }, statusLine(), h("div", { class: "bigcard" }, card(betweenHands() ? null : S.top, true)),
      h("div", { class: "facts" }, E.rules !== "extreme" ? h("span", { id: "edition" }, E.title) : null,
        h("span", {}, "Colour: ", h("strong", { id: "color" }, swatch(betweenHands() ? null : S.color))),
        h("span", {}, S.direction === "right" ? "↺ counter-clockwise" : "↻ clockwise")),
      S.unsettled ? h("div", { class: "msg" }, "A fire is unsettled: the operator settles it before play goes on.") : null,
      pendingPanel(false)),
    h("section", { class: "side" }, h("div", { class: "owed", id: "owed" }, owed.length ? h("ul", {}, owed) : h("p", { class: "note" }, "nobody owes" + unit(2))),
      scores, joinBox, launcherPanel(), h("h2", {}, "Log"), logList(12)))];
}
function operatorPage() {
  const players = S.players || [];
  if (!acting || !players.includes(acting)) acting = S.turn || players[0];
  const out = [statusLine(), msgBox(), launcherPanel()];
  if (S.unsettled) { // a fire the table stopped in: the operator counts what came out
    const facts = Object.entries(S.unsettled).filter(([, v]) => v != null).map(([k, v]) => k + ": " + v).join(", ");
    out.push(h("div", { class: "panel", id: "settle" }, h("h2", {}, "Settle the last fire"), h("p", { class: "note" }, facts),
      h("div", { class: "row" }, h("label", { for: "settled" }, "Cards that came out: "),
        h("input", { id: "settled", type: "number", min: 0, max: 40, inputmode: "numeric", value: pick.settled ?? "", oninput: (e) => { pick.settled = e.target.value; } }),
        btn("Settle", () => send({ cmd: "settle", fired: parseInt(pick.settled || "0", 10) }), { class: "main" }))));
  }
  if (S.phase === "deal") {
    const next = nextDealer();
    if (!pick.dealer) pick.dealer = next;
    out.push(h("div", { class: "panel", id: "deal" }, h("h2", {}, "Deal"), h("div", { class: "row" }, h("label", { for: "dealer" }, "Dealer: "),
      h("select", { id: "dealer", onchange: (e) => { pick.dealer = e.target.value; } }, players.map((p) => h("option", { value: p, selected: p === pick.dealer }, p))),
      btn("Deal", () => send(Object.assign({ cmd: "deal", dealer: pick.dealer }, pick.launcherDeals ? { launcher: true } : {})), { class: "main" })),
      E.draws && presses !== "count" ? h("div", { class: "row" }, h("label", {}, h("input", { type: "checkbox", id: "launcher-deals", checked: !!pick.launcherDeals,
        onchange: (e) => { pick.launcherDeals = e.target.checked; } }), " The launcher deals the hands: each player draws 7 from it")) : null));
  }
  if (S.phase === "flip") out.push((S.owed || []).length ? h("div", { class: "panel" }, h("p", {}, "The launcher deals: " + S.turn + " draws."), pressControls(S.turn)) : firstCard());
  if (S.phase === "hand_over") out.push(scoreForm(players));
  if (S.phase === "turn") {
    out.push(h("div", { class: "panel" }, h("div", { class: "row" }, h("label", { for: "acting" }, "Act for: "),
      h("select", { id: "acting", onchange: (e) => { acting = e.target.value; pick = {}; render(); } }, players.map((p) => h("option", { value: p, selected: p === acting }, p)))),
    h("div", { class: "row" }, pressControls(acting), S.drawn === acting ? passButton(acting) : null), unoAndCatch(acting)));
    out.push(pendingPanel(true), challengePanel(acting), picker(acting, "play"));
    out.push(h("div", { class: "panel" }, h("h2", {}, "Penalties"), h("div", { class: "row" },
      btn("Advice: " + acting + (E.draws ? " draws" : " presses") + " " + ((E.penalties || {}).advice ?? 4), () => send({ cmd: "penalty", player: acting, kind: "advice" })),
      btn("Wrong card: take back " + acting + "'s play", () => send({ cmd: "penalty", player: acting, kind: "wrong_card" })))));
  }
  out.push(h("div", { class: "panel" }, h("div", { class: "row" }, btn("Reload the launcher", () => send({ cmd: "reload" })), btn("Undo the last event", () => send({ cmd: "undo" }), { id: "undo" }))));
  out.push(seatsPanel(players));
  if (device && device.stranger) out.push(strangerPanel(device.stranger));
  out.push(topPanel(false), seatsTable(), h("h2", {}, "Log"), logList(12));
  return out;
}
// A player's seat is one phone's; a phone that lost its cookie asks the operator, who frees the seat here.
function seatsPanel(players) {
  const held = players.filter((p) => taken.includes(p));
  return h("div", { class: "panel", id: "seat-list" }, h("h2", {}, "Seats"),
    held.length ? h("div", { class: "row" }, held.map((p) => btn("Free " + p + "'s seat", () => freeSeat(p), { id: "free-" + p })))
      : h("p", { class: "note" }, "No player has joined from a phone yet."),
    h("p", { class: "note" }, "Freeing a seat signs that phone out, so another phone (or the same one again) can take it."),
    h("div", { class: "row" }, btn("Sign out the table views", () => freeSeat("table"), { id: "free-table" })),
    viewsOpen ? h("p", { class: "note", id: "views-note" }, "Every TV or tablet showing the table then needs the PIN again, and no new one can join until you let them.")
      : h("div", {}, h("p", { class: "note", id: "views-note" }, "The table view is closed: no TV or tablet can join with the player PIN until you let them."),
        h("div", { class: "row" }, btn("Let table views join again", () => openViews(), { id: "open-views" }))));
}
// After the operator signs the table views out they stay closed, so nobody with the player PIN takes their
// places back meanwhile; the operator opens them again when the TV is ready to join.
async function openViews() {
  const r = await api("/api/seats/views", { open: true });
  message = r.status !== 200 ? refusal(r.data, r.status) : "Table views may join again: type the PIN on the TV or tablet";
  if (r.status === 200) viewsOpen = r.data.views_open;
  render();
}
// Another launcher answers at the port (issue 22): nothing fires on it until the operator accepts it here.
function strangerPanel(board) {
  return h("div", { class: "panel", id: "stranger" }, h("h2", {}, "Another launcher"),
    h("p", { class: "note" }, "Launcher board " + board + " answers at the port, not this table's: nothing is fired on it and none of its presses count. Plug this table's launcher back in, or accept this one: the table fires it from now on."),
    h("div", { class: "row" }, btn("Accept launcher board " + board, () => acceptLauncher(), { id: "accept-launcher" })));
}
async function acceptLauncher() {
  const r = await api("/api/launcher/accept", {});
  message = r.status !== 200 ? refusal(r.data, r.status) : "Launcher board " + r.data.board + " accepted: this table fires it from now on";
  if (r.status === 200 && device) device = { ...device, stranger: null };
  render();
}
async function freeSeat(player) {
  const r = await api("/api/seats/free", { seat: player });
  message = r.status !== 200 ? refusal(r.data, r.status) : player === "table"
    ? "Every table view is signed out and the table view is closed: let table views join again when the TV is ready"
    : player + "'s seat is free: that phone can join again";
  if (r.status === 200) { taken = r.data.taken; viewsOpen = r.data.views_open; }
  render();
}
function scoreForm(players) {
  const rows = players.filter((p) => !(S.dropped || []).includes(p)).map((p) => {
    if (points[p] == null) points[p] = p === S.went_out ? "0" : "";
    return h("div", { class: "row" }, h("label", { for: "pts-" + p, class: "name" }, p),
      h("input", { id: "pts-" + p, type: "number", min: 0, inputmode: "numeric", value: points[p], oninput: (e) => { points[p] = e.target.value; } }));
  });
  return h("div", { class: "panel", id: "score" }, h("h2", {}, "Points left in each hand"), rows,
    btn("Enter the scores", () => {
      const pts = {};
      for (const p of Object.keys(points)) pts[p] = parseInt(points[p] || "0", 10);
      send({ cmd: "score", points: pts }).then((r) => { if (r.ok) points = {}; });
    }, { class: "main" }));
}
function nextDealer() {
  const players = S.players || [], active = players.filter((p) => !(S.dropped || []).includes(p));
  if (!S.dealer) return players[0];
  for (let i = 1; i <= players.length; i++) {
    const p = players[(players.indexOf(S.dealer) + i) % players.length];
    if (active.includes(p)) return p;
  }
  return S.dealer;
}

// ---- the join page ----------------------------------------------------------------------------
// A refusal in words: "wrong PIN", "locked for N s", "taken: ask the operator".
const refusal = (data, status) => (data && data.error) ? refusedWords(data, {}) : "the server answered " + status;
function joinPage(seats, pinGiven) {
  const err = h("div", { class: "msg", role: "alert", id: "msg" }, message);
  const say = (text) => { message = text; err.textContent = text; };
  if (!seats) {
    const pin = h("input", { id: "pin", type: "password", inputmode: "numeric", autocomplete: "off", "aria-label": "PIN", placeholder: "PIN" });
    const go = async () => {
      let r;
      try { r = await api("/api/pin", { pin: pin.value }); } catch (e) { return say("no connection to the table: check the Wi-Fi and try again"); }
      if (r.status !== 200) return say(refusal(r.data, r.status));
      say("");
      if (r.data.operator) { // the operator's own PIN: straight to the operator's seat
        const o = await join(pin.value, "operator");
        if (o.status !== 200) return say(refusal(o.data, o.status));
        return location.assign("/operator");
      }
      $("app").replaceChildren(...joinPage(r.data.free || [], pin.value));
    };
    pin.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
    return [h("h1", {}, "Join the table"), h("p", {}, "Type the PIN shown where unox serve runs."), err,
      h("div", { class: "row" }, pin, btn("Join", go, { class: "main", id: "join" }))];
  }
  const take = async (seat) => {
    const { status, data } = await join(pinGiven, seat);
    if (status === 409) { // taken meanwhile: offer only the seats still free, and say why this one went
      message = refusal(data, status);
      const st = await api("/api/pin", { pin: pinGiven });
      const free = st.status === 200 ? (st.data.free || []) : seats.filter((p) => p !== seat);
      $("app").replaceChildren(...joinPage(free, pinGiven));
      return;
    }
    if (status !== 200) return say(refusal(data, status));
    location.assign(seat === "table" ? "/table" : "/play");
  };
  return [h("h1", {}, "Take a seat"), err, h("h2", {}, "A player"),
    seats.length ? h("div", { class: "row" }, seats.map((p) => btn(p, () => take(p), { class: "main" })))
      : h("p", { class: "note", id: "no-seats" }, "Every player's seat is taken. Lost yours? Ask the operator to free it."),
    h("h2", {}, "Or"), h("div", { class: "row" }, btn("The table view (tablet or TV)", () => take("table")))];
}

// ---- rendering --------------------------------------------------------------------------------
function render() {
  const page = PAGES[location.pathname];
  if (!page) return;
  if (!S) return;
  $("who").textContent = me === "operator" ? "Operator" : me === "table" ? "Table view" : (me || "") + (readOnly ? " (watching)" : "");
  const focused = document.activeElement && document.activeElement.id;
  const wanted = me === "operator" ? "operator" : me === "table" ? "table" : "player";
  if (page !== wanted && !(page === "table")) { location.replace(wanted === "player" ? "/play" : "/" + wanted); return; }
  const parts = page === "table" ? tablePage() : page === "operator" ? operatorPage() : playerPage();
  document.body.classList.toggle("tvpage", page === "table");
  $("app").replaceChildren(...parts.flat().filter((part) => part != null)); // a null would print "null"
  if (focused && $(focused)) $(focused).focus();
}
async function start() {
  $("home").addEventListener("click", () => store.set("seat", null)); // the way to another seat
  if (!PAGES[location.pathname]) {
    const seat = store.get("seat");
    if (seat && await rejoin()) { location.replace(seat === "operator" ? "/operator" : seat === "table" ? "/table" : "/play"); return; }
    $("who").textContent = "";
    $("conn").textContent = "";
    message = store.get("why") || "";
    $("app").replaceChildren(...joinPage(null));
    return;
  }
  if (await loadState()) { render(); connect(); }
}
start();
