// xo's core in WebAssembly (crates/xo-wasm), answering the page's questions off its main
// thread: one message {kind, text} (or {kind: "book", bytes}: a book file's bytes) at a time,
// answered with {out, ms} (out: the JSON the server would answer, with its status) or {error}.
// Started as worker.js#shared, it waits for the page's {kind: "module", module}: the core
// compiled once for all the page's workers (their compiled code shared), or null, when it
// compiles its own as it does otherwise. The page ends a search by ending this worker.
"use strict";
importScripts("xo_wasm.js");
let handed;
const given = self.location.hash === "#shared" ? new Promise((resolve) => { handed = resolve; }) : Promise.resolve(null);
const ready = given.then((module) => wasm_bindgen({ module_or_path: module || "xo_wasm_bg.wasm" }));
onmessage = async (ev) => {
  if (ev.data.kind === "module") { handed(ev.data.module); return; }
  try {
    await ready;
    const t0 = performance.now();
    // A book's bytes (an ArrayBuffer) go to the core's own reader; every other call is text.
    const out = ev.data.kind === "book" ? wasm_bindgen.book(new Uint8Array(ev.data.bytes)) : wasm_bindgen.xo(ev.data.kind, ev.data.text);
    postMessage({ out, ms: performance.now() - t0 });
  } catch (err) {
    postMessage({ error: "the browser's core failed: " + (err && err.message ? err.message : String(err)) });
  }
};
