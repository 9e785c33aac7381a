// xo's page: how it asks xo's core (issue 45 split it from index.html's script, which uses it,
// as do study.js and editor.js): the server (`xo serve`), or the core in WebAssembly in a Web
// Worker (worker.js), with the opening books the static copy carries. A classic script, loaded
// before the page's own; what it calls of the page's ($, S, heaps, showError, ASKED, REPLIES)
// runs only once the page has started.
"use strict";

// ---------- the core: the server, or xo's core in WebAssembly in a worker ----------
// Every question goes to one of the two, which answer alike (the same typed request, the same
// JSON): the browser's core when there is no server (a static copy, `xo page --out`) and for
// small positions; the server for books, databases and big searches when there is one.
// `serverless`: no server when the page was loaded (a static copy), so books are the browser's.
const CORE = { server: false, serverless: false, wasm: true, worker: null, queue: [], running: null, last: "" };
// The page's own budget for a search in the browser, in seconds (a server has its own).
const PAGE_BUDGET = 20;
// The computer's budget for its move, in seconds, in the browser and on a server: the exact best
// move when found within it, else the core's look-ahead's move, said to be one. With the
// worker's start when a search had to be stopped for it, and the look-ahead, its reply comes
// within 2 s.
const AI_BUDGET = 0.8;
function abortError() { const e = new Error("stopped"); e.name = "AbortError"; return e; }
// The core compiled once, on the page, for every worker (they share its compiled code, so a
// helper started late runs code as fast as the page's worker's), or null when it cannot be
// (each worker then compiles its own).
let MODULE = null;
function coreModule() {
  if (!MODULE) {
    MODULE = (async () => {
      try { return await WebAssembly.compileStreaming(fetch("xo_wasm_bg.wasm")); } catch (err) {
        try { return await WebAssembly.compile(await (await fetch("xo_wasm_bg.wasm")).arrayBuffer()); } catch (e) { return null; }
      }
    })();
  }
  return MODULE;
}
function coreWorker() {
  const w = new Worker("worker.js#shared");
  coreModule().then((module) => {
    // A browser that cannot hand a module over: the worker compiles its own.
    try { w.postMessage({ kind: "module", module }); } catch (err) { w.postMessage({ kind: "module", module: null }); }
  });
  return w;
}
function startWorker() {
  const w = coreWorker();
  w.onmessage = (ev) => {
    const job = CORE.running;
    CORE.running = null;
    if (job) { if (ev.data.error) { CORE.wasm = false; job.reject(new Error(ev.data.error)); } else job.resolve(ev.data); }
    pump();
  };
  w.onerror = (ev) => {
    ev.preventDefault();
    CORE.wasm = false;
    const job = CORE.running;
    CORE.running = null;
    if (job) job.reject(new Error("the browser's core failed: " + (ev.message || "no WebAssembly")));
    for (const j of CORE.queue.splice(0)) j.reject(new Error("the browser's core failed"));
  };
  CORE.worker = w;
  // A worker started again (a search stopped) gets the books the one before had, first.
  for (const bytes of BOOK.loaded) CORE.queue.unshift({ kind: "book", bytes, resolve() {}, reject() {} });
}
function pump() {
  if (!CORE.running && !CORE.queue.length && POOL.warm) {
    POOL.warm = false;
    setTimeout(readyHelpers, 0);
  }
  if (CORE.running || !CORE.queue.length) return;
  const job = CORE.queue.shift();
  CORE.running = job;
  CORE.worker.postMessage({ kind: job.kind, text: job.text, bytes: job.bytes });
}
// Jobs go first after the books of a worker just started: the computer's move before searches.
function queueFirst(...jobs) {
  let i = 0;
  while (i < CORE.queue.length && CORE.queue[i].kind === "book") i++;
  CORE.queue.splice(i, 0, ...jobs);
}
// One question to the worker; aborting it drops it from the queue, or ends the worker running
// it (a search in WebAssembly cannot be interrupted otherwise) and starts another. An urgent
// one (the computer's move) goes first, and a search under way is stopped for it and asked
// again after it.
function runLocal(kind, text, signal, bytes, urgent) {
  return new Promise((resolve, reject) => {
    const job = { kind, text, bytes, urgent, resolve, reject };
    if (signal) {
      if (signal.aborted) { reject(abortError()); return; }
      signal.addEventListener("abort", () => {
        const i = CORE.queue.indexOf(job);
        if (i >= 0) CORE.queue.splice(i, 1);
        else if (CORE.running === job) { CORE.running = null; CORE.worker.terminate(); startWorker(); pump(); }
        reject(abortError());
      }, { once: true });
    }
    const running = CORE.running;
    if (urgent && running && running.kind === "ask" && !running.urgent) {
      CORE.running = null;
      CORE.worker.terminate();
      startWorker();
      queueFirst(job, running);
    } else if (urgent) queueFirst(job);
    else CORE.queue.push(job);
    pump();
  }).then((m) => { const r = JSON.parse(m.out); return { status: r.status, body: r.body }; });
}
async function runServer(path, body, signal) {
  let resp;
  const init = body === undefined ? { signal } : { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" }, signal };
  try { resp = await fetch(path, init); } catch (err) {
    if (err.name === "AbortError") throw err;
    const e = new Error("cannot reach the server (" + err.message + ")");
    e.network = true;
    throw e;
  }
  let parsed = null;
  try { parsed = await resp.json(); } catch (e) { parsed = null; }
  if (!parsed) throw new Error("the server answered " + resp.status + " " + resp.statusText + ", not JSON");
  return { status: resp.status, body: parsed };
}
// Whether the browser answers `req` when there is a server too: play questions, and searches
// of small positions (the server is asked again when the browser's budget runs out).
const PLAY_QUESTIONS = ["moves", "after", "check"];
function inBrowser(req) {
  if (!CORE.wasm) return false;
  if (!CORE.server) return true;
  if (PLAY_QUESTIONS.includes(req.question)) return true;
  const d = S.desc;
  if (!d || d.name !== req.game) return false;
  if (d.kind === "octal") return heaps(req.position || "").reduce((a, b) => a + b, 0) <= 40;
  // Empty cells the browser searches in well under a second (measured natively, one thread:
  // lol:12 0.1 s but lol:16 10 s; mnk:4,4,4 0.1 s; treblecross:20 0.01 s).
  const empty = (req.position || d.empty).split("").filter((ch) => ch === ".").length;
  const most = d.marks === "shared" ? 12 : d.marks === "same" ? 40 : 16;
  return empty <= most;
}
// ---------- opening books, for the browser's core alone ----------
// With no server, a game whose core consults a book xo ships (Connect Four's, 2.9 MB, written
// beside the page by `xo page`; the core names the file) has it fetched when the game is first
// asked about, once per page (the browser's HTTP cache keeps the file between visits), and its
// bytes handed to the worker's core, which reads them with the core's own reader and prepares
// every request with the book as the server does. Its questions wait for it; a book that cannot
// be had is said once, and the positions are searched without it.
const BOOK = { of: new Map(), files: new Map(), loaded: [] };
function bookFile(name) {
  if (!BOOK.files.has(name)) {
    BOOK.files.set(name, (async () => {
      let resp;
      try { resp = await fetch(name); } catch (err) { throw new Error("cannot fetch " + name + " (" + err.message + ")"); }
      if (!resp.ok) throw new Error(name + ": " + resp.status + " " + resp.statusText);
      const bytes = await resp.arrayBuffer();
      const r = await runLocal("book", "", null, bytes);
      checked(r);
      BOOK.loaded.push(bytes);
      POOL.warm = true;
      return r.body;
    })());
  }
  return BOOK.files.get(name);
}
function bookReady(game) {
  if (!CORE.serverless || !CORE.wasm || !game) return Promise.resolve(null);
  if (!BOOK.of.has(game)) {
    BOOK.of.set(game, runLocal("book_for", game).then(checked).then((r) => (r.book ? bookFile(r.book) : null))
      .catch((err) => {
        showError("The opening book could not be loaded (" + err.message + "): positions are searched without it.");
        return null;
      }));
  }
  return BOOK.of.get(game);
}
window.xoBook = bookReady;
function checked(r) {
  if (r.status >= 400 && r.status !== 422) throw new Error((r.body && r.body.error) || "error " + r.status);
  return r.body;
}
// ---------- a search shared out among workers ----------
// With no server, a Connect Four position past the book (10 stones or more) searches each of
// its moves, one after another in one worker. Where the browser has several cores, the core
// shares such a search out (xo_wasm::split: the score question of the position after each
// move), helper workers (as many as the cores, at most 7, each with the books) answer those
// questions, and the page's worker answers the request told the scores they found
// (xo_wasm::join): the core's answer to the request, byte for byte. A helper's question that
// fails is searched by the join itself; with one core, nothing is shared out.
const POOL = { helpers: [], warm: false };
// `window.xoWorkers`, when set, in place of the cores (the browser test compares 1 and 2).
function poolSize() {
  const cores = window.xoWorkers || navigator.hardwareConcurrency || 1;
  return cores >= 2 ? Math.min(cores, 7) : 0;
}
function helperPump(h) {
  if (h.running || !h.queue.length) return;
  h.running = h.queue.shift();
  h.worker.postMessage({ kind: h.running.kind, text: h.running.text, bytes: h.running.bytes });
}
// A helper worker: started, or started again (its jobs failed) after a stop or an error.
function startHelper(h) {
  if (h.worker) h.worker.terminate();
  const lost = (h.running ? [h.running] : []).concat(h.queue || []);
  Object.assign(h, { worker: coreWorker(), queue: [], running: null, books: 0 });
  for (const job of lost) job.reject(new Error("the helper worker was stopped"));
  helperBooks(h);
  h.worker.onmessage = (ev) => {
    const job = h.running;
    h.running = null;
    if (job) { if (ev.data.error) job.reject(new Error(ev.data.error)); else job.resolve(ev.data); }
    helperPump(h);
  };
  // A helper that cannot run is dropped (its jobs searched by the join), and replaced at the
  // next search shared out.
  h.worker.onerror = (ev) => {
    ev.preventDefault();
    h.failed = true;
    const lost = (h.running ? [h.running] : []).concat(h.queue);
    h.running = null;
    h.queue = [];
    for (const job of lost) job.reject(new Error("the helper worker failed"));
  };
  return h;
}
// The books a helper has not had yet, first in its queue.
function helperBooks(h) {
  for (; h.books < BOOK.loaded.length; h.books++) h.queue.push({ kind: "book", bytes: BOOK.loaded[h.books], resolve() {}, reject() {} });
  helperPump(h);
}
// The helpers, started with the books: when the page's worker is first idle after a book is
// read (a worker's start and its reading of the book take about 0.3 s, not to be taken from
// the first answers), or at the first search shared out.
function readyHelpers() {
  const size = poolSize();
  if (size < 2 || !CORE.serverless) return;
  POOL.helpers = POOL.helpers.filter((h) => !h.failed);
  while (POOL.helpers.length < size) POOL.helpers.push(startHelper({}));
  for (const h of POOL.helpers) helperBooks(h);
}
function helperAsk(h, text) {
  helperBooks(h);
  return new Promise((resolve, reject) => { h.queue.push({ kind: "ask", text, resolve, reject }); helperPump(h); });
}
// The answer to `text` (a request, its budget in it) shared out among the helpers, or null
// when the core answers it better whole.
async function sharedAsk(text, signal) {
  const size = poolSize();
  if (size < 2 || !CORE.serverless || !BOOK.loaded.length) return null;
  const children = checked(await runLocal("split", text, signal)).children;
  if (!children || !children.length) return null;
  readyHelpers();
  const known = [];
  await new Promise((resolve, reject) => {
    const todo = children.slice();
    let left = todo.length;
    const busy = new Set();
    const stop = () => { for (const h of busy) startHelper(h); todo.length = 0; reject(abortError()); };
    if (signal) {
      if (signal.aborted) { reject(abortError()); return; }
      signal.addEventListener("abort", stop, { once: true });
    }
    const next = (h) => {
      const child = todo.shift();
      if (!child) return;
      busy.add(h);
      const done = (score) => {
        busy.delete(h);
        if (typeof score === "number") known.push([child.position, score]);
        if (--left === 0) { if (signal) signal.removeEventListener("abort", stop); resolve(); } else next(h);
      };
      if (h.failed) { done(null); return; }
      helperAsk(h, JSON.stringify(child)).then((m) => {
        const r = JSON.parse(m.out);
        done(r.status === 200 ? r.body.score : null);
      }, () => { if (!signal || !signal.aborted) done(null); });
    };
    for (const h of POOL.helpers) next(h);
  });
  return runLocal("join", JSON.stringify({ request: JSON.parse(text), known }), signal);
}

// Answers one request (the fields of the core's Request); a 422 answer (over budget) is
// returned marked unknown, any other refusal thrown with the core's reason.
async function coreAsk(req, signal, urgent) {
  await bookReady(req.game);
  // Which side answered (`state.last`, which the tests read): noted for the questions that may
  // go to either, not for play questions, which stay in the browser and may end after them.
  const by = (where, r) => {
    if (!PLAY_QUESTIONS.includes(req.question)) CORE.last = where;
    return checked(r);
  };
  if (inBrowser(req)) {
    try {
      const text = JSON.stringify(Object.assign({ timeout: PAGE_BUDGET }, req));
      // Only every move's score is shared out (the core decides which; the computer's urgent
      // move never waits for the question).
      const all = (!req.question || req.question === "solve") && !req.value_only && !req.no_moves && !req.line;
      const r = (!urgent && all && (await sharedAsk(text, signal))) || (await runLocal("ask", text, signal, undefined, urgent));
      if (r.status !== 422 || !CORE.server) return by("browser", r);
    } catch (err) { if (err.name === "AbortError" || CORE.wasm) throw err; }
  }
  try { return by("server", await runServer("api/ask", req, signal)); } catch (err) {
    if (!err.network || !CORE.wasm) throw err;
    CORE.server = false;
    showCore();
    return by("browser", await runLocal("ask", JSON.stringify(Object.assign({ timeout: PAGE_BUDGET }, req)), signal, undefined, urgent));
  }
}
async function coreGame(name) {
  if (CORE.server) { try { return checked(await runServer("api/game?game=" + encodeURIComponent(name))); } catch (err) { if (!err.network) throw err; CORE.server = false; showCore(); } }
  return checked(await runLocal("game", name));
}
// Whether a server is there the page itself says, with no request: `xo serve` marks the page
// it serves (the meta element xo-server, "yes"); a static copy keeps the file's "no".
async function coreGames() {
  const mark = document.querySelector('meta[name="xo-server"]');
  if (mark && mark.content === "yes") {
    try {
      const r = await runServer("api/games");
      if (r.status === 200 && r.body.games) { CORE.server = true; showCore(); return r.body.games; }
    } catch (err) { /* the server is gone: the browser answers */ }
  } else CORE.serverless = true;
  CORE.server = false;
  showCore();
  return checked(await runLocal("games", "")).games;
}
function showCore() {
  document.body.dataset.core = CORE.server ? "server" : "browser";
  $("core").textContent = CORE.server ? "Solved by the server, and small positions in this browser." : "Solved in this browser (WebAssembly): no server.";
}
// For tests and the curious: the page's one way to ask, and how many searches are under way.
// `workers`: how many share out a search past the book (1: the page's worker alone).
window.xoCore = { ask: coreAsk, state: CORE, searches: () => ASKED.size, replies: () => REPLIES, workers: () => Math.max(1, poolSize()) };
