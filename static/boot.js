// Starts the app. Trunk writes the hashed names of the wasm-bindgen module and the wasm
// file into this script's data attributes (Trunk.toml, pattern_script); a file rather than
// an inline script, so the page runs under a Content-Security-Policy without
// 'unsafe-inline'. The names are kept on `window.labBoot` for the Web Workers, which load
// the same module (one download, then the browser's cache).
const tag = document.querySelector("script[data-lab-boot]");
const js = new URL(tag.dataset.js, tag.src).href;
const wasm = new URL(tag.dataset.wasm, tag.src).href;
window.labBoot = { js, wasm, worker: new URL("worker.js", tag.src).href };
const init = await import(js);
await init.default({ module_or_path: wasm });
