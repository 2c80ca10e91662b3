// vecgames serve: the page. Plain JS, no build step. The server holds every game; this page
// shows what the server sends (only what the seat may see) and posts moves it offers.
"use strict";

const SUITS = { h: "♥", d: "♦", c: "♣", s: "♠" };
const HANABI_COLORS = { R: "#d33", Y: "#e0b000", G: "#2a2", W: "#bbb", B: "#36c" };
let GAMES = null;          // /api/games
let timer = null;          // the page's one poll / autoplay timer

// ------------------------------------------------------------------ helpers

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function svg(tag, attrs, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

function showError(text) {
  const box = document.getElementById("error");
  box.textContent = text || "";
  box.hidden = !text;
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method, headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) {
    showError(data.error || `HTTP ${res.status}`);
    const err = new Error(data.error || `HTTP ${res.status}`);
    err.status = res.status;
    throw err;
  }
  showError("");
  return data;
}

function fmt(x) {
  if (x === null || x === undefined) return "–";
  const v = Math.round(x * 100) / 100;
  return (v > 0 ? "+" : "") + v;
}

function stopTimer() { if (timer) { clearTimeout(timer); timer = null; } }

// ------------------------------------------------------------------ pieces

function cardEl(c) {
  if (!c) return h("div", { class: "card back", title: "face down" });
  const red = c.s === "h" || c.s === "d";
  const rank = c.r === "T" ? "10" : c.r;  // one convention on every table: Da Yaoguai says 10
  return h("div", { class: `card ${red ? "red" : "black"}`, "data-card": c.card,
                    title: rank + (SUITS[c.s] || "") },
           h("span", { class: "rank" }, rank), h("span", { class: "suit" }, SUITS[c.s] || ""));
}

function cards(list, count) {
  if (list) return h("div", { class: "cards" }, list.map(cardEl));
  return h("div", { class: "cards" }, Array.from({ length: count }, () => cardEl(null)));
}

const PIPS = { 1: [[25, 25]], 2: [[14, 14], [36, 36]], 3: [[13, 13], [25, 25], [37, 37]],
  4: [[14, 14], [36, 14], [14, 36], [36, 36]],
  5: [[13, 13], [37, 13], [25, 25], [13, 37], [37, 37]],
  6: [[14, 12], [36, 12], [14, 25], [36, 25], [14, 38], [36, 38]] };

function die(face, size) {
  const s = size || 34;
  return svg("svg", { class: "die", width: s, height: s, viewBox: "0 0 50 50", "data-face": face },
    svg("rect", { x: 2, y: 2, width: 46, height: 46, rx: 9, fill: "#fff", stroke: "#333",
                  "stroke-width": 2 }),
    (PIPS[face] || []).map(([x, y]) => svg("circle", { cx: x, cy: y, r: 5,
                                                       fill: face === 1 ? "#c22" : "#222" })));
}

function hiddenDie() {
  return svg("svg", { class: "die", width: 34, height: 34, viewBox: "0 0 50 50" },
    svg("rect", { x: 2, y: 2, width: 46, height: 46, rx: 9, fill: "#456", stroke: "#233",
                  "stroke-width": 2 }));
}

function chips(n, label) {
  return h("span", { class: "chips", title: label || "chips" },
           h("span", { class: "chip" }), h("b", {}, n));
}

function hanabiCard(slot) {
  const c = slot.card;
  const k = slot.know || {};
  const color = c ? HANABI_COLORS[c.color] : (k.color ? HANABI_COLORS[k.color] : "#777");
  const face = c ? `${c.rank}` : (k.rank ? `${k.rank}` : "?");
  const hint = `${k.color || "?"}${k.rank || "?"}`;
  const ruledOut = [...(k.not_colors || []), ...(k.not_ranks || [])];
  const slotNo = slot.slot === undefined ? "" : h("span", { class: "slot-no", title: "slot" }, slot.slot);
  return h("div", { class: "hslot" }, slotNo,
           h("div", { class: `hcard ${c ? "" : "hidden"}`, style: `--c:${color}`,
                      "data-card": c ? c.card : null, "data-slot": slot.slot,
                      title: c ? `${c.color}${c.rank}` : "your card" },
             h("span", { class: "hrank" }, face),
             h("span", { class: "hint", title: "what its holder knows from hints" }, hint)),
           ruledOut.length ? h("span", { class: "not", title: "ruled out by hints" },
                               `not ${ruledOut.join("")}`) : "");
}

// ------------------------------------------------------------------ tables per game

function seatBox(msg, p, body) {
  const t = msg.table;
  const turn = msg.status === "playing" && t.player === p;
  const you = msg.seat === p;
  return h("div", { class: `seat${turn ? " turn" : ""}${you ? " you" : ""}`, "data-seat": p },
           h("div", { class: "seat-name" }, `seat ${p} · ${msg.labels[p]}`), body);
}

const TABLES = {
  zhajinhua(msg) {
    const t = msg.table;
    const seats = t.seats.map((s, p) => seatBox(msg, p, [
      cards(s.cards, 3),
      h("div", { class: "seat-info" },
        chips(s.paid, "paid"), " ", s.in ? (s.seen ? "seen" : "blind") : "out",
        s.hand ? ` · ${s.hand}` : "", s.last ? ` · ${s.last}` : "")]));
    const center = h("div", { class: "center" },
      h("div", { class: "pot" }, "pot ", chips(t.pot, "pot")),
      h("div", {}, `round ${t.round}/${t.max_rounds} · minimum bet ${t.min_bet} · ${t.phase} phase`));
    return layout(msg, seats, center);
  },
  holdem(msg) {
    const t = msg.table;
    const seats = t.seats.map((s, p) => seatBox(msg, p, [
      cards(s.cards, 2),
      h("div", { class: "seat-info" }, chips(s.stack, "stack"),
        s.bet ? [" bet ", chips(s.bet, "bet")] : "", ` ${s.status}`,
        t.button === p ? h("span", { class: "button-chip", title: "dealer button" }, "D") : "",
        t.blinds && t.blinds.small === p ?
          h("span", { class: "button-chip blind", title: "small blind" }, "SB") : "",
        t.blinds && t.blinds.big === p ?
          h("span", { class: "button-chip blind", title: "big blind" }, "BB") : "")]));
    const center = h("div", { class: "center" },
      h("div", { class: "board" }, cards(t.board, 0),
        Array.from({ length: 5 - t.board.length }, () => h("div", { class: "card slot" }))),
      h("div", { class: "pot" }, "pot ", chips(t.pot, "pot"), ` · ${t.street}`,
        msg.your_turn ? ` · to call ${t.to_call}` : ""));
    return layout(msg, seats, center);
  },
  liars_dice(msg) {
    const t = msg.table;
    const seats = t.seats.map((s, p) => seatBox(msg, p, [
      h("div", { class: "dice" }, s.dice ? s.dice.map((f) => die(f)) :
        Array.from({ length: s.count }, hiddenDie)),
      h("div", { class: "seat-info" }, `penalty points ${s.penalty}`)]));
    const bid = t.last_bid;
    const center = h("div", { class: "center" },
      h("div", {}, `round ${t.round}/${t.rounds}`),
      h("div", { class: "bid" }, bid ? [`last bid: ${bid.count} × `, die(bid.face, 28),
        ` (${bid.mode}) by seat ${t.bidder}`] : "no bid yet"),
      t.last_round ? h("div", { class: "last-round" },
        `last round: ${t.last_round.bid ? t.last_round.bid.text : ""} — ` +
        `${t.last_round.actual} counted, seat ${t.last_round.loser} lost`) : "");
    return layout(msg, seats, center);
  },
  hanabi(msg) {
    const t = msg.table;
    const seats = t.seats.map((s, p) => seatBox(msg, p, [
      h("div", { class: "cards" }, s.slots.map(hanabiCard))]));
    const fireworks = h("div", { class: "fireworks" }, t.fireworks.map((f) =>
      h("div", { class: "firework", style: `--c:${HANABI_COLORS[f.color]}`,
                 "data-color": f.color }, h("span", {}, f.height))));
    const tokens = h("div", { class: "tokens" },
      h("span", { class: "token-label", id: "hint-tokens" }, `hints ${t.info}/${t.max_info}`),
      Array.from({ length: t.max_info }, (_, k) =>
        h("span", { class: `token info${k < t.info ? "" : " used"}`, title: "hint token" })),
      h("span", { class: "token-label", id: "lives" }, `lives ${t.life}/${t.max_life}`),
      Array.from({ length: t.max_life }, (_, k) =>
        h("span", { class: `token life${k < t.life ? "" : " used"}`, title: "life" })));
    const discards = h("div", { class: "discards" }, "discards: ",
      t.discards.length ? t.discards.map((c) => hanabiCard({ card: c, know: {} })) : "none");
    const center = h("div", { class: "center" }, fireworks, tokens,
      h("div", {}, `score ${t.score} · deck ${t.deck} · turn ${t.turn}`),
      t.last ? h("div", { class: "small" }, `last: ${t.last}`) : "", discards);
    return layout(msg, seats, center);
  },
  dayaoguai(msg) {
    const t = msg.table;
    // a hidden hand: the cards it picked up (everyone saw them) face up, the rest face down
    const seats = t.seats.map((s, p) => seatBox(msg, p, [
      s.hand ? cards(s.hand) : h("div", { class: "cards" }, s.known.map(cardEl),
        Array.from({ length: s.count - s.known.length }, () => cardEl(null))),
      h("div", { class: "seat-info" }, chips(s.beans, "beans"),
        ` ${s.count} card${s.count === 1 ? "" : "s"}`, s.place ? ` · finished #${s.place}` : "",
        !s.hand && s.known.length ? ` · ${s.known.length} picked up, shown` : "")]));
    const center = h("div", { class: "center" },
      h("div", { class: "board" }, t.table.length ? cards(t.table, 0) : "empty table: a lead"),
      h("div", {}, `step ${t.step}`));
    return layout(msg, seats, center);
  },
};

// A game without a layout of its own: each seat's cards and figures, the table's public
// cards and figures, read from the plain fields of its JSON view (cards: lists of cards).
function plainTable(msg) {
  const t = msg.table;
  const figures = (o) => Object.entries(o)
    .filter(([k, v]) => !["player", "count"].includes(k) && v !== null && typeof v !== "object")
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`).join(" · ");
  const seats = t.seats.map((s, p) => seatBox(msg, p, [
    "cards" in s ? cards(s.cards, s.count || 1) : "",
    h("div", { class: "seat-info" }, figures(s))]));
  const center = h("div", { class: "center" },
    t.board ? h("div", { class: "board" }, t.board.length ? cards(t.board, 0) : "") : "",
    h("div", {}, figures(t)));
  return layout(msg, seats, center);
}

function tableOf(msg) {
  return (TABLES[msg.game] || plainTable)(msg);
}

function layout(msg, seats, center) {
  const mine = msg.seat === null ? [] : [seats[msg.seat]];
  const others = seats.filter((_, p) => p !== msg.seat);
  return h("div", { class: "felt" }, h("div", { class: "row" }, others), center,
           h("div", { class: "row" }, mine));
}

// ------------------------------------------------------------------ moves

// A move's button: its label, or ``face`` (a die) with the label as its tooltip.
function moveButton(msg, m, face) {
  return h("button", { class: face ? "move face" : "move", "data-action": m.action,
                       "data-group": m.group, title: face ? m.label : m.short,
                       onclick: () => sendMove(msg, { action: m.action }) },
           face || m.label);
}

const BID_MODES = { fei: "飞 fei (ones wild)", zhai: "斋 zhai (ones count as ones)" };

// Liar's Dice: the challenge, and a bid picked as mode, count and face (not one button per
// bid): only the legal counts of the chosen mode, then that count's legal faces as dice.
function bidPicker(msg) {
  const bids = {};  // mode -> count -> its legal bids, in the server's (face) order
  const panel = h("div", { class: "moves", id: "moves" });
  for (const m of msg.moves) {
    if (m.group === "challenge") {
      panel.append(h("div", { class: "move-group", "data-group": "challenge" },
        h("span", { class: "group-name" }, "challenge"),
        h("div", { class: "buttons" }, moveButton(msg, m))));
      continue;
    }
    const [mode, count] = m.short.split(" ");
    const byCount = (bids[mode] = bids[mode] || {});
    (byCount[count] = byCount[count] || []).push(m);
  }
  const modes = Object.keys(bids);
  if (!modes.length) return panel;
  const modeSel = h("select", { id: "bid-mode" },
    modes.map((md) => h("option", { value: md }, BID_MODES[md] || md)));
  const countSel = h("select", { id: "bid-count" });
  const faces = h("div", { class: "buttons", id: "bid-faces" });
  const drawFaces = () => faces.replaceChildren(...bids[modeSel.value][countSel.value].map((m) =>
    moveButton(msg, m, die(Number(m.short.split(" ")[2]), 26))));
  const drawCounts = () => {
    countSel.replaceChildren(...Object.keys(bids[modeSel.value]).map((c) =>
      h("option", { value: c }, c)));
    drawFaces();
  };
  modeSel.addEventListener("change", drawCounts);
  countSel.addEventListener("change", drawFaces);
  drawCounts();
  panel.append(h("div", { class: "move-group bid-picker", "data-group": "bid" },
    h("span", { class: "group-name" }, "bid"), modeSel, h("label", {}, " count ", countSel),
    h("span", {}, " × face: "), faces));
  return panel;
}

function movesPanel(msg) {
  if (!msg.your_turn) return h("div", { class: "moves waiting" },
    msg.status === "playing" ? `seat ${msg.to_act} to act…` : "");
  if (msg.game === "liars_dice") return bidPicker(msg);
  const groups = {};
  for (const m of msg.moves) (groups[m.group] = groups[m.group] || []).push(m);
  const panel = h("div", { class: "moves", id: "moves" });
  for (const [group, list] of Object.entries(groups)) {
    panel.append(h("div", { class: "move-group", "data-group": group },
                   h("span", { class: "group-name" }, group),
                   h("div", { class: "buttons" }, list.map((m) => moveButton(msg, m)))));
  }
  const r = msg.game === "holdem" ? msg.table.raise : null;
  if (r) {
    const out = h("output", { id: "raise-value" }, r.min);
    const slider = h("input", { type: "range", id: "raise-slider", min: r.min, max: r.max,
                                step: 1, value: r.min,
                                oninput: (e) => { out.textContent = e.target.value; } });
    // A bet opens the street's betting; once anyone has bet (a blind counts) it is a raise.
    const faced = msg.table.seats.some((s) => s.bet > 0);
    panel.append(h("div", { class: "move-group raise" }, h("span", { class: "group-name" },
      faced ? "raise to" : "bet"), slider, out, h("button", { class: "move", id: "raise-button",
      onclick: () => sendMove(msg, { kind: 2, amount: Number(slider.value) }) },
      faced ? "Raise" : "Bet")));
  }
  return panel;
}

let moveInFlight = false;

// The second click of a double-click (the browser counts it: event.detail 2) is never a move:
// the server may have answered the first already, and the click would land on a new button.
document.addEventListener("click", (e) => {
  if (e.detail > 1 && e.target instanceof Element && e.target.closest("#moves")) {
    e.stopPropagation();
  }
}, true);

// One move at a time: the buttons are disabled until the server answers (a double-click plays
// once, see above), and the move names the version it was chosen on, so the server refuses (409) a move
// made on a table that has changed since; the page then shows the table as it is now.
async function sendMove(msg, body) {
  if (moveInFlight) return;
  moveInFlight = true;
  document.querySelectorAll("#moves button, #moves input, #moves select").forEach((b) => { b.disabled = true; });
  try {
    const next = await api("POST", `/api/sessions/${msg.id}/action`, { ...body, version: msg.version });
    renderSession(next);
  } catch (e) {
    if (e.status === 409) {
      try {
        renderSession(await api("GET", `/api/sessions/${msg.id}`));
        showError("the table changed before your move arrived: here it is now, move again");
      } catch (e2) { /* shown in the error banner */ }
    } else {
      document.querySelectorAll("#moves button, #moves input, #moves select").forEach((b) => { b.disabled = false; });
    }
  } finally {
    moveInFlight = false;
  }
}

// ------------------------------------------------------------------ a session page

// Moves are numbered explicitly so that a game separator does not use up a number. A line
// may carry its number (``no``: a replay's move number; null: a further line of that move).
function logPanel(lines) {
  let n = 0;
  const item = (l) => {
    if (l.seat === null) return h("li", { class: "sep" }, l.text);
    if (l.no === null) return h("li", { class: "more" }, l.text);
    n = l.no === undefined ? n + 1 : l.no;
    return h("li", { value: n }, l.text);
  };
  const list = h("ol", { class: "log", id: "log" }, lines.map(item));
  setTimeout(() => { list.scrollTop = list.scrollHeight; }, 0);
  return list;
}

function scorePanel(msg) {
  return h("table", { class: "score", id: "score" },
    h("tr", {}, h("th", {}, "seat"), h("th", {}, "player"), h("th", {}, "match score")),
    msg.labels.map((label, p) => h("tr", { class: msg.seat === p ? "you" : "" },
      h("td", {}, p), h("td", {}, label),
      h("td", { "data-score": msg.score[p], class: "num" }, fmt(msg.score[p])))));
}

function resultPanel(msg) {
  if (!msg.result) return "";
  const box = h("div", { class: "result", id: "result", "data-rewards":
                         JSON.stringify(msg.result.rewards) },
    h("h3", {}, msg.games > 1 ? `Game ${msg.game_no} of ${msg.games} over` : "Game over",
      msg.status === "finished" && msg.games > 1 ? ": the match is over" : ""),
    h("pre", {}, msg.result.text));
  if (msg.status === "over") {
    const next = msg.mode === "watch" ? () => stepWatch(msg) : async () => {
      renderSession(await api("POST", `/api/sessions/${msg.id}/next`));
    };
    box.append(h("button", { id: "next-game", onclick: next }, "Next game"));
  } else {
    box.append(h("a", { href: "#/", class: "again" }, "New game"));
  }
  return box;
}

let watchState = { id: null, reveal: false, auto: false };

function watchControls(msg) {
  const reveal = h("input", { type: "checkbox", id: "reveal", checked: watchState.reveal,
    onchange: async (e) => {
      watchState.reveal = e.target.checked;
      renderSession(await api("GET", `/api/sessions/${msg.id}?reveal=${watchState.reveal ? 1 : 0}`));
    } });
  const auto = h("button", { id: "autoplay", onclick: () => {
    watchState.auto = !watchState.auto; stopTimer(); renderSession(msg);
  } }, watchState.auto ? "Pause" : "Play");
  return h("div", { class: "controls" },
    h("button", { id: "step", onclick: () => stepWatch(msg),
                  disabled: msg.status === "finished" }, "Next move"),
    auto, msg.game === "hanabi" ? h("span", { class: "small" },
      "Hanabi cards face outward: you see every hand, each player sees all but their own")
      : h("label", {}, reveal, " show all hands"));
}

async function stepWatch(msg) {
  try {
    renderSession(await api("POST",
      `/api/sessions/${msg.id}/step?reveal=${watchState.reveal ? 1 : 0}`));
  } catch (e) { watchState.auto = false; }
}

function renderSession(msg) {
  stopTimer();
  const main = document.getElementById("main");
  const table = tableOf(msg);
  const title = msg.mode === "watch" ? `Watching ${msg.title}` : `${msg.title}: you are seat ${msg.seat}`;
  main.replaceChildren(h("section", { id: "game", "data-game": msg.game,
                                      "data-version": msg.version, "data-status": msg.status },
    h("h2", {}, title, h("small", {}, ` · game ${msg.game_no} of ${msg.games} · seed ${msg.seed === null ? "shown when the match ends" : msg.seed}`)),
    msg.mode === "watch" ? watchControls(msg) : "",
    howToPlay(msg.game),
    h("div", { class: "play-area" },
      h("div", { class: "table-col" }, table, movesPanel(msg), resultPanel(msg)),
      h("aside", {}, h("h3", {}, "Score"), scorePanel(msg), h("h3", {}, "Moves"),
        logPanel(msg.log)))));
  if (msg.mode === "watch" && watchState.auto && msg.status !== "finished") {
    timer = setTimeout(() => stepWatch(msg), 600);
  }
}

// ------------------------------------------------------------------ lobby

// "How to play": the rules and the terms the table uses, folded (GAMES may not be loaded yet on
// a page opened from a link: the route loads it first).
function howToPlay(name, open) {
  const game = GAMES && GAMES.find((g) => g.name === name);
  if (!game) return "";
  return h("details", { class: "how-to-play", id: "how-to-play", open: !!open },
    h("summary", {}, `How to play ${game.title}`),
    h("dl", {}, game.how_to_play.flatMap(([term, text]) => [h("dt", {}, term), h("dd", {}, text)])));
}

function optionInput(name, value, doc) {
  if (doc && doc.choices) return h("select", { name }, doc.choices.map((c) =>
    h("option", { value: c, selected: c === value }, c)));
  if (typeof value === "boolean") return h("input", { type: "checkbox", name, checked: value });
  if (typeof value === "number") {
    return h("input", { type: "number", name, value, min: doc && doc.min, max: doc && doc.max });
  }
  // an option whose default is "decided by the game" (null): empty, or a number
  return h("input", { type: "number", name, value: value === null ? "" : value,
                      placeholder: value === null ? "auto" : "", min: 0 });
}

// A rule option: its label, its input (a list where the values are a fixed few) and a line of
// help; the library's name is in the tooltip.
function optionField(game, name, value) {
  const doc = (game.option_docs || {})[name] || { label: name, help: "", choices: null };
  const input = name === "num_players"
    ? h("input", { type: "number", name, value, min: game.num_players_range[0],
                   max: game.num_players_range[1] })
    : optionInput(name, value, doc);
  return h("label", { class: "option", title: `${name}: ${doc.help}`, "data-option": name },
    h("span", { class: "option-label" }, doc.label), " ", input,
    doc.help ? h("small", { class: "help" }, doc.help) : "");
}

function readOptions(form, game) {
  const out = {};
  for (const [name, def] of Object.entries(game.options)) {
    const el = form.querySelector(`[name="${name}"]`);
    if (!el) continue;
    let v;
    if (typeof def === "boolean") v = el.checked;
    else if (typeof def === "number") v = Number(el.value);
    else if (el.value === "") v = null;
    else v = /^-?\d+$/.test(el.value.trim()) ? Number(el.value) : el.value;  // e.g. first_player
    if (v !== def) out[name] = v;
  }
  return out;
}

function playerSelect(game, name, value) {
  const names = [...Object.keys(game.players), ...game.checkpoints];
  return h("select", { name, class: "player" }, names.map((n) =>
    h("option", { value: n, selected: n === value, title: game.players[n] || "checkpoint" }, n)));
}

// The game list, and a notice while the server still compiles its kernels (first run only):
// the lobby works meanwhile, a first move may wait for its game's kernels.
async function loadGames() {
  const data = await api("GET", "/api/games");
  const note = document.getElementById("warming");
  if (note) {
    note.hidden = !data.warming;
    if (data.warming) setTimeout(loadGames, 3000);
  }
  return data.games;
}

async function lobby(watch) {
  GAMES = GAMES || await loadGames();
  const main = document.getElementById("main");
  const gameSel = h("select", { id: "game-select" }, GAMES.map((g) =>
    h("option", { value: g.name }, g.title)));
  const body = h("div");
  const form = h("form", { id: "lobby", onsubmit: (e) => e.preventDefault() },
    h("label", {}, "Game ", gameSel), body);
  const draw = () => {
    const game = GAMES.find((g) => g.name === gameSel.value);
    const opts = h("fieldset", { class: "options" }, h("legend", {}, "Rules"),
      Object.entries(game.options).map(([k, v]) => optionField(game, k, v)));
    const seats = h("fieldset", { class: "seats" }, h("legend", {}, watch ? "Players" : "Opponents"));
    let drawn = null;  // the table size and your seat the seat list was drawn for
    const drawSeats = () => {
      // the table size kept to the game's legal range: no 98 dropdowns for 99 players
      const [lo, hi] = game.num_players_range;
      const sizeInput = form.querySelector('[name="num_players"]');
      const n = Math.min(hi, Math.max(lo, Math.round(Number(sizeInput.value)) || lo));
      if (String(n) !== sizeInput.value) sizeInput.value = n;
      const yourSeat = watch ? null : Number(form.querySelector('[name="seat"]').value || 0);
      if (drawn === `${n}/${yourSeat}`) return;  // a change event that changed neither
      drawn = `${n}/${yourSeat}`;
      const chosen = {};  // keep the players already picked for the seats that stay
      for (const el of seats.querySelectorAll("select.player")) chosen[el.name] = el.value;
      seats.replaceChildren(h("legend", {}, watch ? "Players" : "Opponents"));
      for (let p = 0; p < n; p++) {
        if (p === yourSeat) { seats.append(h("div", {}, `seat ${p}: you`)); continue; }
        seats.append(h("label", {}, `seat ${p} `,
                       playerSelect(game, `seat-${p}`, chosen[`seat-${p}`] || game.default)));
      }
    };
    const extra = h("fieldset", {}, h("legend", {}, "Match"),
      watch ? "" : h("label", {}, "your seat ", h("input", { type: "number", name: "seat", value: 0,
                                                               min: 0, onchange: drawSeats })),
      h("label", {}, "games ", h("input", { type: "number", name: "games", value: 1, min: 1 })),
      h("label", {}, "seed ", h("input", { type: "number", name: "seed", placeholder: "random" })));
    body.replaceChildren(howToPlay(game.name), opts, extra, seats,
      h("button", { id: "start", type: "button", onclick: () => start(game, watch) },
        watch ? "Watch" : "Play"));
    form.querySelector('[name="num_players"]').addEventListener("change", drawSeats);
    drawSeats();
  };
  gameSel.addEventListener("change", draw);
  main.replaceChildren(h("h2", {}, watch ? "Watch the computer play" : "Play against the computer"),
                       form);
  draw();

  async function start(game, watchMode) {
    const options = readOptions(form, game);
    const n = Number(form.querySelector('[name="num_players"]').value);
    const seat = watchMode ? null : Number(form.querySelector('[name="seat"]').value || 0);
    const opponents = [];
    for (let p = 0; p < n; p++) {
      if (p !== seat) opponents.push(form.querySelector(`[name="seat-${p}"]`).value);
    }
    const seedText = form.querySelector('[name="seed"]').value;
    const req = { game: game.name, seat, opponents, options,
                  games: Number(form.querySelector('[name="games"]').value || 1) };
    if (seedText !== "") req.seed = Number(seedText);
    try {
      const msg = await api("POST", "/api/sessions", req);
      watchState = { id: msg.id, reveal: false, auto: false };
      location.hash = `#/${watchMode ? "watch" : "play"}/${msg.id}`;
    } catch (e) { /* shown */ }
  }
}

// ------------------------------------------------------------------ replays

async function replayList() {
  const data = await api("GET", "/api/replays");
  const main = document.getElementById("main");
  const upload = h("input", { type: "file", id: "replay-file", accept: ".json",
    onchange: async (e) => {
      const file = e.target.files[0];
      if (!file) return;
      try {
        const doc = await api("POST", "/api/replays", JSON.parse(await file.text()));
        location.hash = `#/replay/${doc.id}`;
      } catch (err) { showError(String(err.message || err)); }
    } });
  main.replaceChildren(h("h2", {}, "Replays"),
    h("p", {}, "Open a replay file (from the arena page, or vecgames.arena.replay): ", upload),
    data.replays.length ? h("table", { class: "list", id: "replays" },
      h("tr", {}, ["game", "players", "deal", "moves", "result", ""].map((x) => h("th", {}, x))),
      data.replays.map((r) => h("tr", {}, h("td", {}, r.title), h("td", {}, r.players.join(" | ")),
        h("td", {}, r.deal), h("td", {}, r.moves), h("td", {}, r.rewards.map(fmt).join(" ")),
        h("td", {}, h("a", { href: `#/replay/${r.id}` }, "open")))))
      : h("p", {}, "No replays yet: run an arena and open one of its games."));
}

// A replay's frames come in windows of FRAME_WINDOW from /frames, fetched as the position
// reaches them (a 10,000-move replay is never sent whole); the move log shows the moves of
// the window before the position and its own.
const FRAME_WINDOW = 200;

async function replayView(id) {
  let reveal = true;
  let windows = new Map();  // window number -> its frames
  const frameWindow = async (w) => {
    if (!windows.has(w)) {
      const page = await api("GET", `/api/replays/${id}/frames?start=${w * FRAME_WINDOW}` +
                                    `&count=${FRAME_WINDOW}&reveal=${reveal ? 1 : 0}`);
      windows.set(w, page);
    }
    return windows.get(w);
  };
  const first = await frameWindow(0);
  const steps = first.steps;
  let k = 0;
  const main = document.getElementById("main");
  const go = async (to) => {
    k = Math.max(0, Math.min(steps, to));
    await draw();
  };
  const draw = async () => {
    const w = Math.floor(k / FRAME_WINDOW);
    const here = await frameWindow(w);
    const before = w > 0 ? (await frameWindow(w - 1)).frames : [];
    const f = here.frames[k - w * FRAME_WINDOW];
    const msg = { game: first.game, seat: null, labels: first.players,
                  status: f.done ? "over" : "playing", table: f.table, your_turn: false };
    const shown = [...before, ...here.frames].filter((fr) => fr.step >= 1 && fr.step <= k);
    const log = shown.flatMap((fr) => fr.lines.map((text, i) =>
      ({ seat: fr.seat, text, no: i === 0 ? fr.step : null })));
    main.replaceChildren(h("section", { id: "replay", "data-step": k, "data-steps": steps },
      h("h2", {}, `Replay: ${first.title}`,
        h("small", {}, ` · ${first.players.join(" | ")} · deal ${first.deal}`)),
      h("div", { class: "controls" },
        h("button", { id: "first", onclick: () => go(0) }, "|◀ first"),
        h("button", { id: "back", disabled: k === 0, onclick: () => go(k - 1) }, "◀ Back"),
        h("span", { id: "position" }, `move ${k} / ${steps}`),
        h("button", { id: "forward", disabled: k === steps, onclick: () => go(k + 1) },
          "Forward ▶"),
        h("button", { id: "last", onclick: () => go(steps) }, "last ▶|"),
        h("label", {}, h("input", { type: "checkbox", id: "reveal", checked: reveal,
          onchange: async (e) => {
            reveal = e.target.checked;
            windows = new Map();
            await draw();
          } }), " show all hands"),
        h("a", { href: `/api/replays/${id}/file`, download: "" }, "download")),
      howToPlay(first.game),
      h("div", { class: "play-area" },
        h("div", { class: "table-col" }, tableOf({ ...msg, game: first.game }),
          h("div", { class: "now", id: "now" }, k ? f.lines.join(" · ") : "the deal")),
        h("aside", {}, h("h3", {}, "Moves"), logPanel(log)))));
  };
  await draw();
  document.onkeydown = (e) => {
    if (!document.getElementById("replay")) return;
    if (e.key === "ArrowRight" && k < steps) go(k + 1);
    if (e.key === "ArrowLeft" && k > 0) go(k - 1);
  };
}

// ------------------------------------------------------------------ arena

async function arenaForm() {
  GAMES = GAMES || await loadGames();
  const main = document.getElementById("main");
  const gameSel = h("select", { id: "arena-game" }, GAMES.map((g) => h("option", { value: g.name }, g.title)));
  const players = h("fieldset", { id: "arena-players" });
  const opts = h("fieldset", { class: "options" });
  const draw = () => {
    const game = GAMES.find((g) => g.name === gameSel.value);
    players.replaceChildren(h("legend", {}, "Players"),
      ...[...Object.keys(game.arena_players), ...game.checkpoints].map((n, i) => h("label",
        { title: game.arena_players[n] || "checkpoint" },
        h("input", { type: "checkbox", name: "player", value: n, checked: i < 3 }), ` ${n}`)));
    opts.replaceChildren(h("legend", {}, "Rules"), ...Object.entries(game.options).map(([k, v]) =>
      optionField(game, k, v)));
  };
  gameSel.addEventListener("change", draw);
  const games = h("input", { type: "number", id: "arena-games", value: 400, min: 8 });
  const seed = h("input", { type: "number", id: "arena-seed", value: 0 });
  const form = h("form", { id: "arena-form", onsubmit: (e) => e.preventDefault() },
    h("label", {}, "Game ", gameSel), players, opts,
    h("label", {}, "games per seat assignment ", games), h("label", {}, "seed ", seed),
    h("button", { id: "arena-start", type: "button", onclick: async () => {
      const game = GAMES.find((g) => g.name === gameSel.value);
      const chosen = [...players.querySelectorAll("input:checked")].map((x) => x.value);
      try {
        const job = await api("POST", "/api/arena", { game: game.name, players: chosen,
          games: Number(games.value), seed: Number(seed.value), options: readOptions(opts, game) });
        location.hash = `#/arena/${job.id}`;
      } catch (e) { /* shown */ }
    } }, "Run arena"));
  main.replaceChildren(h("h2", {}, "Arena"), form);
  draw();
}

function dfTable(rows, columns, id) {
  return h("table", { class: "list", id }, h("tr", {}, columns.map((c) => h("th", {}, c))),
    rows.map((r) => h("tr", {}, columns.map((c) => h("td", { class: typeof r[c] === "number" ? "num" : "" },
      typeof r[c] === "number" ? (Math.round(r[c] * 100) / 100) : r[c])))));
}

async function arenaView(id) {
  const job = await api("GET", `/api/arena/${id}`);
  const main = document.getElementById("main");
  const s = job.latest;
  const progress = h("progress", { id: "arena-progress", max: job.stage_count, value: job.stages.length });
  const parts = [h("h2", {}, `Arena: ${job.players.join(", ")}`),
    h("p", { id: "arena-status", "data-status": job.status },
      `${job.status} · stage ${job.stages.length}/${job.stage_count} `, progress,
      s ? ` · ${s.games} games per assignment (${s.total_games} in all, ${s.seconds} s), unit ${s.unit}` : "",
      job.error ? ` · ${job.error}` : "",
      job.status === "running" ? h("button", { id: "arena-cancel", onclick: async () => {
        try { await api("DELETE", `/api/arena/${id}`); arenaView(id); } catch (e) { /* shown */ }
      } }, "Cancel") : "")];
  if (s && s.ratings) {
    parts.push(h("h3", {}, "Ratings"), dfTable(s.ratings, ["player", "rating", "ci_low", "ci_high", "elo", "games"], "ratings"));
    const m = s.matrix;
    parts.push(h("h3", {}, "Pairwise means (row player against column player)"),
      h("table", { class: "list matrix", id: "pairwise" }, h("tr", {}, h("th", {}, ""), m.players.map((p) => h("th", {}, p))),
        m.rows.map((row, i) => h("tr", {}, h("th", {}, m.players[i]), row.map((v) =>
          h("td", { class: "num", style: v === null ? "" : `background:${heat(v, m.rows)}` },
            v === null ? "" : Math.round(v * 100) / 100))))));
  }
  if (s && s.selfplay) {
    parts.push(h("h3", {}, "Self-play"), dfTable(s.selfplay, ["player", "games", "mean", "ci_low", "ci_high", "perfect_rate"], "ratings"));
    if (s.crossplay.length) parts.push(h("h3", {}, "Cross-play"), dfTable(s.crossplay, ["player", "partner", "games", "mean"], "pairwise"));
  }
  if (job.games.length) {
    parts.push(h("h3", {}, "Watch a game of this arena"), h("ul", { id: "arena-games" }, job.games.map((g) =>
      h("li", {}, h("a", { href: "javascript:void 0", "data-row": g.row, onclick: async () => {
        try {
          const doc = await api("POST", `/api/arena/${id}/replay`, { row: g.row });
          location.hash = `#/replay/${doc.id}`;
        } catch (e) { /* shown */ }
      } }, `${g.assignment}, deal ${g.deal}`)))));
  }
  main.replaceChildren(...parts);
  if (job.status === "running") timer = setTimeout(() => arenaView(id), 700);
}

function heat(v, rows) {
  const max = Math.max(1e-9, ...rows.flat().filter((x) => x !== null).map(Math.abs));
  const a = Math.min(1, Math.abs(v) / max) * 0.6;
  return v >= 0 ? `rgba(40,90,200,${a})` : `rgba(200,60,40,${a})`;
}

// ------------------------------------------------------------------ router

async function route() {
  stopTimer();
  showError("");
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  try {
    GAMES = GAMES || await loadGames();
    if (parts[0] === "play" && parts[1]) {
      renderSession(await api("GET", `/api/sessions/${parts[1]}`));
    } else if (parts[0] === "watch" && parts[1]) {
      if (watchState.id !== parts[1]) watchState = { id: parts[1], reveal: false, auto: false };
      renderSession(await api("GET", `/api/sessions/${parts[1]}?reveal=${watchState.reveal ? 1 : 0}`));
    } else if (parts[0] === "watch") {
      await lobby(true);
    } else if (parts[0] === "replays") {
      await replayList();
    } else if (parts[0] === "replay" && parts[1]) {
      await replayView(parts[1]);
    } else if (parts[0] === "arena" && parts[1]) {
      await arenaView(parts[1]);
    } else if (parts[0] === "arena") {
      await arenaForm();
    } else {
      await lobby(false);
    }
  } catch (e) {
    document.getElementById("main").replaceChildren(h("p", {}, "Could not load this page. ",
      h("a", { href: "#/" }, "Back to the start")));
  }
}

window.addEventListener("hashchange", route);
route();
