// The LLM's speed in the browser against wllama (llama.cpp compiled to wasm, npm
// @wllama/wllama 3.8.1, its own wasm) on the same GGUF in the same headless Chromium:
// decode tokens/s on WebGPU (SwiftShader here) and on the CPU (one thread each: the site
// is not cross-origin isolated, so neither gets threads), plus gatepath's wasm memory and
// GPU buffer bytes. Prints numbers, asserts nothing. Run after `trunk build`:
//   node scripts/browser_llm_bench.mjs [tokens-on-webgpu] [tokens-on-cpu]

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApp } from '../tests/browser/harness.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WLLAMA = path.join(ROOT, 'node_modules', '@wllama', 'wllama', 'esm');
const MODEL = 'models/smollm2-135m-instruct-q4_1/SmolLM2-135M-Instruct.Q4_1.gguf';
const N_WEBGPU = Number(process.argv[2] ?? 16);
const N_CPU = Number(process.argv[3] ?? 64);
const FIXTURE = JSON.parse(await readFile(path.join(ROOT, 'tests/fixtures/smollm2-135m-q4_1.llamacpp.json'), 'utf8'));
// A chat prompt of the fixture: the same text for both.
const PROMPT = FIXTURE.cases.find((c) => c.prompt.includes('<|im_start|>'))?.prompt ?? FIXTURE.cases[0].prompt;

/** Serves wllama's module and wasm under /wllama/ on the page's own origin. */
async function routeWllama(session) {
  await session.context.route(`${session.url}wllama/**`, async (route) => {
    const name = new URL(route.request().url()).pathname.replace(/^\/wllama\//, '');
    const file = path.join(WLLAMA, path.normalize(name));
    if (!file.startsWith(WLLAMA)) return route.fulfill({ status: 404 });
    const type = file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript';
    return route.fulfill({ body: await readFile(file), headers: { 'content-type': type } });
  });
}

async function gatepath(webgpu, tokens) {
  const session = await openApp({ webgpu, gpuProbe: webgpu });
  try {
    await session.page.getByTestId('selfcheck').waitFor({ timeout: 180_000 });
    const run = () => session.evaluate(([p, n]) => window.gatepathLlm([p], { tokens: n }), [PROMPT, tokens]);
    const first = await run(); // loads the model and compiles the kernels
    const reply = await run();
    const gpu = webgpu ? await session.probe('bytes') : null;
    return {
      name: `gatepath (${reply.backend}, ${reply.precision})`,
      loadMillis: first.loadMillis,
      decode: (reply.decoded / reply.decodeMillis) * 1000,
      memory: `wasm ${(reply.wasmMemoryBytes / 2 ** 20).toFixed(0)} MiB` +
        (gpu ? `, GPU buffers peak ${(gpu.peak / 2 ** 20).toFixed(0)} MiB` : ''),
      text: reply.cases[0].text,
    };
  } finally {
    await session.close();
  }
}

async function wllama(webgpu, tokens) {
  const session = await openApp({ webgpu });
  try {
    await routeWllama(session);
    return await session.evaluate(async ([model, prompt, n, gpu]) => {
      const { Wllama } = await import(new URL('./wllama/index.js', location.href).href);
      const quiet = { debug() {}, log() {}, info() {}, warn() {}, error: console.error };
      const w = new Wllama({ default: new URL('./wllama/wasm/wllama.wasm', location.href).href }, { logger: quiet });
      const started = performance.now();
      await w.loadModelFromUrl(new URL(model, location.href).href, {
        n_threads: 1, n_ctx: 512, n_gpu_layers: gpu ? 999 : 0, useCache: false,
      });
      const loadMillis = performance.now() - started;
      const complete = () => w.createCompletion({ prompt, max_tokens: n, temperature: 0 });
      await complete(); // warm-up, as for gatepath
      const out = await complete();
      await w.exit();
      return {
        name: `wllama 3.8.1 (${gpu ? 'webgpu' : 'cpu'})`,
        loadMillis,
        decode: out.timings?.predicted_per_second ?? NaN,
        memory: 'in its worker (not measured)',
        text: out.choices?.[0]?.text ?? '',
      };
    }, [MODEL, PROMPT, tokens, webgpu]);
  } finally {
    await session.close();
  }
}

console.log(`prompt: ${JSON.stringify(PROMPT.slice(-60))}; ${N_WEBGPU} tokens on WebGPU, ${N_CPU} on the CPU`);
for (const [webgpu, tokens] of [[false, N_CPU], [true, N_WEBGPU]]) {
  const ours = await gatepath(webgpu, tokens);
  const peer = await wllama(webgpu, tokens);
  for (const r of [ours, peer]) {
    console.log(`${r.name}: load ${Math.round(r.loadMillis)} ms, decode ${r.decode.toFixed(2)} tokens/s; ${r.memory}; ` +
      `text ${JSON.stringify(r.text.slice(0, 50))}`);
  }
  console.log(`${webgpu ? 'WebGPU' : 'CPU'}: gatepath / wllama decode = ${(ours.decode / peer.decode).toFixed(2)}x`);
}
