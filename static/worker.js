// A Web Worker that runs the simulation off the main thread. The page sends the URLs of
// its own wasm-bindgen module and wasm file first (see boot.js); the worker loads the same
// module (from the browser's cache) and hands the message port to the Rust side, which
// answers run requests (src/ui/worker.rs). Messages that arrive while the module loads are
// kept and passed on in order; if it cannot load, the page is told and runs them itself.
let pending = [];
let ready = null;
self.onmessage = async (event) => {
  if (ready) {
    ready(event.data);
    return;
  }
  if (event.data && event.data.labInit) {
    const { js, wasm } = event.data.labInit;
    let module;
    try {
      module = await import(js);
      await module.default({ module_or_path: wasm });
    } catch (e) {
      // The module did not start here: a browser may refuse a new wasm memory when its
      // tab's address space for them is taken (by pages long gone and not yet collected,
      // say). The page then runs its work itself (src/ui/runs.rs); this worker ends.
      self.postMessage({ labFailed: String(e) });
      self.close();
      return;
    }
    ready = module.worker_message;
    module.worker_ready();
    for (const m of pending) ready(m);
    pending = [];
    return;
  }
  pending.push(event.data);
};
