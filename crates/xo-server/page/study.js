// xo's study tools (issue 45), beside the page's main script in index.html, whose state (S),
// core (coreAsk, after) and helpers ($, curPos, isOctal, moveLabel, showError, update) they
// use: the game record in and out, each move's principal variation, the count and check of the
// position shown, and an octal game's nim-sequence. Every answer is the core's, as the server
// and the command give it; a request the core refuses shows its message.
"use strict";

// Gravity games of at most 9 columns write their record as the command takes it (`4453`).
function compactRecord() { return !!(S.desc && S.desc.gravity && S.desc.width <= 9); }
// The moves from the history's start to the position shown.
function studyRecord() {
  const moves = S.hist.slice(1, S.cur + 1).map((h) => h.move);
  return moves.join(compactRecord() ? "" : " ");
}
// Called by the page's update(): the record follows the position, answers about another
// position are cleared, the nim-sequence is offered for octal games.
function studyUpdate() {
  if (!S.desc) return;
  const rec = $("record");
  if (document.activeElement !== rec) rec.value = studyRecord();
  $("grundytool").hidden = !isOctal();
  $("threats").hidden = !S.desc.gravity;
  const out = $("studyout");
  if (out.dataset.position !== curPos() || out.dataset.game !== S.desc.name) {
    // An answer about another position is not needed any more: its search is stopped.
    if (STUDY.ctl) { STUDY.ctl.abort(); STUDY.ctl = null; }
    out.textContent = "";
    delete out.dataset.kind;
  }
}
const STUDY = { ctl: null };
// A record typed or pasted: its moves played from the history's start, each by the core; the
// first that cannot be played is named and nothing changes.
async function playRecord() {
  const text = $("record").value.trim();
  // One character a move when run together (gravity games of at most 9 columns).
  const moves = compactRecord() && !/[\s,;]/.test(text) ? text.split("") : text.split(/[\s,;]+/).filter(Boolean);
  const start = S.hist[0];
  const hist = [start];
  let pos = start.pos;
  for (let i = 0; i < moves.length; i++) {
    try { pos = await after(pos, moves[i]); } catch (err) {
      showError("Move " + (i + 1) + " of the record (" + moves[i] + ") cannot be played: " + err.message);
      return;
    }
    hist.push({ pos, ply: start.ply + i + 1, move: moves[i] });
  }
  S.hist = hist;
  S.cur = hist.length - 1;
  S.notice = "";
  update();
}
async function copyRecord() {
  const text = studyRecord();
  let ok = false;
  try { await navigator.clipboard.writeText(text); ok = true; } catch (e) { ok = false; }
  $("copied").textContent = ok ? "Record copied." : "Select the record and copy it.";
  if (!ok) $("record").select();
}

// ---------- answers about the position shown ----------
function fieldText(v) {
  if (v === null || v === undefined) return "none";
  if (Array.isArray(v)) return v.join(", ");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}
// The answer's fields, labelled, each marked with its name (data-field) for tests.
function fieldList(answer, skip) {
  const dl = document.createElement("dl");
  for (const [k, v] of Object.entries(answer)) {
    if (skip.includes(k)) continue;
    const dt = document.createElement("dt");
    dt.textContent = k.replace(/_/g, " ");
    const dd = document.createElement("dd");
    dd.dataset.field = k;
    dd.textContent = fieldText(v);
    dl.append(dt, dd);
  }
  return dl;
}
// Asks the core `req` about the position shown and shows the answer under `title` when it is
// still the position shown; a refusal shows the core's message.
async function study(kind, title, req, show) {
  const pos = curPos(), game = S.desc.name, out = $("studyout");
  out.dataset.position = pos;
  out.dataset.game = game;
  out.dataset.kind = kind + "-asking";
  out.textContent = title + ": asking…";
  if (STUDY.ctl) STUDY.ctl.abort();
  const ctl = new AbortController();
  STUDY.ctl = ctl;
  let answer;
  try { answer = await coreAsk(Object.assign({ game }, req), ctl.signal); } catch (err) {
    if (err.name === "AbortError" || curPos() !== pos) return;
    out.dataset.kind = kind + "-error";
    out.textContent = title + ": " + err.message;
    return;
  }
  if (STUDY.ctl === ctl) STUDY.ctl = null;
  if (curPos() !== pos || S.desc.name !== game) return;
  out.textContent = "";
  const h = document.createElement("h3");
  h.textContent = answer.value === "unknown" ? title + ": over budget (" + (answer.reason || "no answer in time") + ")" : title;
  out.append(h);
  if (answer.value !== "unknown") show(out, answer);
  out.dataset.kind = kind;
}
function showLines() {
  study("lines", "Each move's line of perfect play", { position: curPos(), line: true }, (out, r) => {
    const ol = document.createElement("ol");
    for (const m of r.moves || []) {
      const li = document.createElement("li");
      li.dataset.move = m.move;
      li.dataset.line = (m.line || []).join(" ");
      li.className = "v-" + m.value;
      li.textContent = moveLabel(m.move) + " — " + m.value + (m.remoteness == null ? "" : " in " + m.remoteness) + ": " + (m.line || []).map(moveLabel).join(", ");
      ol.append(li);
    }
    out.append(ol);
  });
}
// Each side's threats and who holds the parity (gravity games), with the value (the fastest
// search that gives the answer its threats).
function showThreats() {
  study("threats", "Threats and parity", { position: curPos(), threats: true, value_only: true }, (out, r) => {
    const t = r.threats || {};
    for (const [side, who] of [["first", "First player (X)"], ["second", "Second player (O)"]]) {
      const s = t[side] || { cells: [], playable: [], odd: 0, even: 0 };
      const p = document.createElement("p");
      p.dataset.field = side;
      p.dataset.cells = s.cells.join(" ");
      p.textContent = who + ": " + (s.cells.length ? s.cells.join(" ") + " (" + s.odd + " on odd rows, " + s.even + " on even rows; playable now: " + (s.playable.join(" ") || "none") + ")" : "no threat");
      out.append(p);
    }
    if (t.parity) {
      const p = document.createElement("p");
      p.dataset.field = "parity";
      p.textContent = "Parity (the first player's threats on odd rows, the second's on even rows): " + t.parity + ".";
      out.append(p);
    }
  });
}
function showCount() {
  study("count", "Games from here, by outcome", { position: curPos(), question: "count" }, (out, r) => out.append(fieldList(r, ["game", "position"])));
}
function showCheck() {
  study("check", "Can this position arise in a legal game?", { position: curPos(), question: "check" }, (out, r) => out.append(fieldList(r, ["game", "position"])));
}
function showGrundy() {
  const text = $("upto").value.trim(), upto = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(upto)) { showError("Nim-sequence: up to a whole number of tokens, not " + JSON.stringify(text) + "."); return; }
  study("grundy", "Nim-sequence of " + S.desc.name, { question: "grundy", upto }, (out, r) => {
    const seq = document.createElement("p");
    seq.className = "seq";
    seq.dataset.field = "values";
    seq.textContent = (r.values || []).join(" ");
    out.append(seq, fieldList(r, ["game", "values"]));
  });
}

$("playrecord").addEventListener("click", playRecord);
$("record").addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); playRecord(); } });
$("copyrecord").addEventListener("click", copyRecord);
$("lines").addEventListener("click", showLines);
$("threats").addEventListener("click", showThreats);
$("count").addEventListener("click", showCount);
$("check").addEventListener("click", showCheck);
$("grundy").addEventListener("click", showGrundy);
studyUpdate();
