// A Web Worker that runs the simulation off the main thread. The page sends the URLs of
// its own wasm-bindgen module and wasm file first (see boot.js); the worker loads the same
// module (from the browser's cache) and hands the message port to the Rust side, which
// answers run requests (src/ui/worker.rs). Messages that arrive while the module loads are
// kept and passed on in order.
let pending = [];
let ready = null;
self.onmessage = async (event) => {
  if (ready) {
    ready(event.data);
    return;
  }
  if (event.data && event.data.labInit) {
    const { js, wasm } = event.data.labInit;
    const module = await import(js);
    await module.default({ module_or_path: wasm });
    ready = module.worker_message;
    module.worker_ready();
    for (const m of pending) ready(m);
    pending = [];
    return;
  }
  pending.push(event.data);
};
