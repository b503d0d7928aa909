// gatepath's worker: load the wasm (worker.js is wasm-bindgen's no-modules glue), and
// keep the page's first messages until the wasm has installed its handler.
importScripts('./worker.js');
const early = [];
self.onmessage = (event) => early.push(event);
wasm_bindgen('./worker_bg.wasm')
  .then(() => {
    for (const event of early) self.onmessage(event);
  })
  .catch((error) => {
    self.postMessage({ kind: 'error', id: 0, body: JSON.stringify(`the worker could not load: ${error}`) });
  });
