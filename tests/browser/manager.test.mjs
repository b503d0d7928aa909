// The model manager: which models are in use, another model from a URL checked before
// anything is downloaded (size from the server, header from a Range request, what it
// will take on this backend), refused with the numbers when it cannot fit, otherwise
// downloaded → verified → loaded → warmed up, kept across a reload (from the cache, not
// the network) and used by the next question; the shipped model back with one click.
//
// The "other" models are served by the same static server under dist/custom/: the
// engine's tiny Llama GGUF (a real, different model), the shipped MiniLM files under
// another path, a text file named .gguf, and a sparse 5 GB GGUF whose header describes
// a 70B-class Llama.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, link, mkdir, open, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS, DIST, openApp } from './harness.mjs';
import { askLyme, reload } from './lyme.mjs';
import { expectChecked } from './selfcheck.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CUSTOM = path.join(DIST, 'custom');
const TINY = path.join(ROOT, 'tests', 'fixtures', 'tiny-llama.gguf');
const MINILM = path.join(ROOT, 'models', 'all-minilm-l6-v2');
const HUGE_BYTES = 5_000_000_000;

/** A hard link where the file system allows one (no copy of 90 MB), else a copy. */
async function place(from, to) {
  await link(from, to).catch(() => copyFile(from, to));
}

/** GGUF metadata and tensor directory, little-endian, as the format lays them out. */
function ggufHeader({ metadata, tensors }) {
  const parts = [];
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); parts.push(b); };
  const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); parts.push(b); };
  const str = (s) => { u64(Buffer.byteLength(s)); parts.push(Buffer.from(s)); };
  parts.push(Buffer.from('GGUF'));
  u32(3);
  u64(tensors.length);
  u64(metadata.length);
  for (const [key, kind, value] of metadata) {
    str(key);
    u32(kind);
    if (kind === 8) str(value);
    else if (kind === 4) u32(value);
    else if (kind === 6) { const b = Buffer.alloc(4); b.writeFloatLE(value); parts.push(b); }
  }
  for (const { name, dims, type } of tensors) {
    str(name);
    u32(dims.length);
    for (const d of dims) u64(d);
    u32(type);
    u64(0);
  }
  return Buffer.concat(parts);
}

before(async () => {
  await mkdir(path.join(CUSTOM, 'minilm'), { recursive: true });
  await place(TINY, path.join(CUSTOM, 'tiny-llama.gguf'));
  for (const name of ['config.json', 'model.safetensors', 'tokenizer.json']) {
    await place(path.join(MINILM, name), path.join(CUSTOM, 'minilm', name));
  }
  await writeFile(path.join(CUSTOM, 'not-a-model.gguf'), 'hello, this is text\n');
  // Llama with hidden 8192, 80 layers, feed-forward 28672, 32000 tokens: its f32
  // weights alone are ~275 GB. One Q8_0 tensor; the rest of the file is a hole.
  const header = ggufHeader({
    metadata: [
      ['general.architecture', 8, 'llama'],
      ['general.name', 8, 'Huge Llama'],
      ['llama.embedding_length', 4, 8192],
      ['llama.attention.head_count', 4, 64],
      ['llama.attention.head_count_kv', 4, 8],
      ['llama.vocab_size', 4, 32000],
      ['llama.feed_forward_length', 4, 28672],
      ['llama.block_count', 4, 80],
      ['llama.context_length', 4, 4096],
      ['llama.attention.layer_norm_rms_epsilon', 6, 1e-5],
    ],
    tensors: [{ name: 'token_embd.weight', dims: [8192, 32000], type: 8 }],
  });
  const huge = await open(path.join(CUSTOM, 'huge.gguf'), 'w');
  await huge.write(header, 0);
  await huge.truncate(HUGE_BYTES);
  await huge.close();
});

after(async () => {
  await rm(CUSTOM, { recursive: true, force: true });
});

const inspection = (page) => page.getByTestId('model-inspection');

/** Types an address into the form and checks it; resolves to the inspection element. */
async function check(page, url, { role = 'llm', pooling = null } = {}) {
  const form = page.getByTestId('another-model');
  if ((await form.getAttribute('open')) === null) await form.locator('summary').click();
  await page.getByTestId('model-role').selectOption(role);
  if (pooling) await page.getByTestId('model-pooling').selectOption(pooling);
  await page.getByTestId('model-url').fill(url);
  await page.getByTestId('model-check').click();
  const found = inspection(page);
  await found.waitFor({ timeout: 60_000 });
  await page.locator('[data-testid="model-check"]:not([disabled])').waitFor({ timeout: 60_000 });
  return found;
}

/** The models in use, by role: `{ name, origin, cached }`. */
async function inUse(page) {
  await page.locator('[data-testid="models-in-use"][data-state="ready"]').waitFor({ timeout: 60_000 });
  const out = {};
  for (const li of await page.locator('[data-testid="models-in-use"] li').all()) {
    out[await li.getAttribute('data-role')] = {
      name: await li.getAttribute('data-name'),
      origin: await li.getAttribute('data-origin'),
      cached: (await li.getAttribute('data-cached')) === 'true',
    };
  }
  return out;
}

/** Presses "Download and use" and waits for the report (or the error). */
async function use(page, button = page.getByTestId('model-use')) {
  await button.click();
  const done = page.locator('[data-testid="model-used"], [data-testid="model-error"]');
  await done.first().waitFor({ timeout: 600_000 });
  return done.first();
}

test('another language model from a URL: checked first, refused when it cannot fit, else downloaded, verified, loaded, warmed up and kept', { timeout: 900_000 }, async (t) => {
  const session = await openApp({ webgpu: false, query: '?backend=cpu' });
  const { page } = session;
  try {
    await expectChecked(session, 'cpu');
    const shipped = await inUse(page);
    assert.equal(shipped.llm.name, 'SmolLM2-135M-Instruct');
    assert.equal(shipped.llm.origin, 'shipped');
    assert.equal(shipped.llm.cached, false);
    assert.equal(shipped.embedder.name, 'all-MiniLM-L6-v2');

    // Wrong files are named for what is wrong with them; nothing is switched.
    let found = await check(page, 'custom/not-a-model.gguf');
    assert.equal(await found.getAttribute('data-state'), 'error');
    assert.match(await found.textContent(), /not a GGUF file/);
    found = await check(page, 'custom/missing.gguf');
    assert.match(await found.textContent(), /HTTP 404/);
    found = await check(page, 'models/manifest.json');
    assert.match(await found.textContent(), /not a GGUF file's name/);

    // A model too big for a browser tab: the numbers, and no download.
    session.requestLog.length = 0;
    found = await check(page, 'custom/huge.gguf');
    assert.equal(await found.getAttribute('data-state'), 'too-big', await found.textContent());
    assert.equal(Number(await found.getAttribute('data-size')), HUGE_BYTES);
    assert.equal(await found.getAttribute('data-architecture'), 'llama');
    const problem = await page.getByTestId('model-problem').first().textContent();
    assert.match(problem, /GB of this tab's memory, more than the 3\.9 GB a WebAssembly page can use/);
    assert.equal(await page.getByTestId('model-use').isDisabled(), true);
    const hugeRequests = session.requestLog.filter((r) => r.path.endsWith('/huge.gguf'));
    assert.ok(hugeRequests.length >= 2, JSON.stringify(hugeRequests));
    for (const r of hugeRequests) {
      assert.ok(r.method === 'HEAD' || /^bytes=0-\d+$/.test(r.range ?? ''), `a full download: ${JSON.stringify(r)}`);
    }
    await session.screenshot('manager-too-big');

    // A model that fits: its size before the download, then the four steps.
    const tinyBytes = (await stat(TINY)).size;
    found = await check(page, 'custom/tiny-llama.gguf');
    assert.equal(await found.getAttribute('data-state'), 'fits', await found.textContent());
    assert.equal(Number(await found.getAttribute('data-size')), tinyBytes);
    assert.equal(Number(await found.getAttribute('data-download')), tinyBytes);
    assert.ok(Number(await found.getAttribute('data-parameters')) > 0);
    assert.match(await found.textContent(), /1 layer, hidden 32/);
    session.requestLog.length = 0;
    const used = await use(page);
    assert.equal(await used.getAttribute('data-testid'), 'model-used', await used.textContent());
    assert.equal(await used.getAttribute('data-name'), 'tiny-llama');
    assert.equal(Number(await used.getAttribute('data-downloaded')), tinyBytes);
    assert.match(await used.textContent(), /download [\d.]+ s · verify [\d.]+ s · upload [\d.]+ s · warm-up [\d.]+ s/);
    assert.match(await used.textContent(), /Warm-up: .*→/);
    // Downloaded once, whole (the header was read with Range requests).
    const gets = session.requestLog.filter((r) => r.path.endsWith('/tiny-llama.gguf') && r.method === 'GET' && !r.range);
    assert.equal(gets.length, 1, JSON.stringify(session.requestLog));
    let models = await inUse(page);
    assert.deepEqual(models.llm, { name: 'tiny-llama', origin: 'url', cached: true });
    await session.screenshot('manager-another-llm');

    // After a reload the choice stands and the file comes from the cache.
    await reload(session, 'cpu');
    models = await inUse(page);
    assert.deepEqual(models.llm, { name: 'tiny-llama', origin: 'url', cached: true });
    assert.deepEqual(session.requests.filter((p) => p.endsWith('.gguf')), []);

    // Back to the shipped model: downloaded from this site, verified, warmed up.
    const back = await use(page, page.getByTestId('model-reset-llm'));
    assert.equal(await back.getAttribute('data-testid'), 'model-used', await back.textContent());
    assert.equal(await back.getAttribute('data-name'), 'SmolLM2-135M-Instruct');
    assert.equal(Number(await back.getAttribute('data-downloaded')), 98_362_432);
    t.diagnostic(`shipped LLM back (CPU): ${await back.textContent()}`);
    models = await inUse(page);
    assert.deepEqual(models.llm, { name: 'SmolLM2-135M-Instruct', origin: 'shipped', cached: true });

    assert.deepEqual(session.foreignRequests, [], session.report());
    assert.deepEqual(session.errors, [], session.report());
  } finally {
    await session.close();
  }
});

test('a language model from a file on this computer is read here, never fetched, and kept', { timeout: 600_000 }, async () => {
  const session = await openApp({ webgpu: false, query: '?backend=cpu' });
  const { page } = session;
  try {
    await expectChecked(session, 'cpu');
    await page.getByTestId('another-model').locator('summary').click();
    await page.getByTestId('model-files').setInputFiles(TINY);
    await page.getByTestId('model-check').click();
    const found = inspection(page);
    await found.waitFor({ timeout: 60_000 });
    const tinyBytes = (await stat(TINY)).size;
    assert.equal(await found.getAttribute('data-state'), 'fits', await found.textContent());
    assert.equal(Number(await found.getAttribute('data-size')), tinyBytes);
    session.requestLog.length = 0;
    const used = await use(page);
    assert.equal(await used.getAttribute('data-testid'), 'model-used', await used.textContent());
    assert.equal(await used.getAttribute('data-name'), 'tiny-llama');
    assert.match(await used.textContent(), /10\.1 kB read from this computer/);
    assert.deepEqual(await inUse(page).then((m) => m.llm), { name: 'tiny-llama', origin: 'local', cached: true });
    // Nothing went over the network for it: it was read from the file, then cached.
    assert.deepEqual(session.requestLog.filter((r) => r.path.includes('tiny-llama')), []);
    await reload(session, 'cpu');
    assert.deepEqual(await inUse(page).then((m) => m.llm), { name: 'tiny-llama', origin: 'local', cached: true });
    assert.deepEqual(session.foreignRequests, [], session.report());
    assert.deepEqual(session.errors, [], session.report());
  } finally {
    await session.close();
  }
});

test('another sentence embedder from a URL ranks the next answer, from its own files', { timeout: 900_000 }, async (t) => {
  const session = await openApp({ webgpu: false, query: '?backend=cpu' });
  const { page } = session;
  try {
    await expectChecked(session, 'cpu');
    const found = await check(page, 'custom/minilm/', { role: 'embedder', pooling: 'mean' });
    assert.equal(await found.getAttribute('data-state'), 'fits', await found.textContent());
    assert.equal(await found.getAttribute('data-architecture'), 'bert');
    assert.equal(Number(await found.getAttribute('data-size')), 90_868_376 + 466_247 + 612);
    // MiniLM-L6: 22.7 M parameters (its safetensors header, read alone).
    assert.equal(Number(await found.getAttribute('data-parameters')), 22_713_216);
    const used = await use(page);
    assert.equal(await used.getAttribute('data-testid'), 'model-used', await used.textContent());
    assert.equal(await used.getAttribute('data-name'), 'minilm');
    assert.match(await used.textContent(), /a vector of 384 values/);
    t.diagnostic(`embedder from a URL (CPU): ${await used.textContent()}`);
    const models = await inUse(page);
    assert.deepEqual(models.embedder, { name: 'minilm', origin: 'url', cached: true });

    session.requests.length = 0;
    const result = await askLyme(session);
    assert.equal(result.answer, 'amoxicillin');
    assert.match(await page.getByTestId('answer-summary').textContent(), /embedded by minilm@53aa51172d14/);
    // The chosen embedder was already loaded: no model file was requested at all (the
    // language resources are read with the first question, from this site).
    assert.deepEqual(session.requests.filter((p) => (p.includes('/models/') && !p.includes('/models/lexicons'))
      || p.includes('/custom/')), []);
    await session.screenshot('manager-another-embedder');
    assert.deepEqual(session.foreignRequests, [], session.report());
    assert.deepEqual(session.errors, [], session.report());
  } finally {
    await session.close();
  }
});

test('on WebGPU the check compares the largest buffer with the GPU\'s own limit', { timeout: 600_000 }, async () => {
  const session = await openApp({ webgpu: true });
  const { page } = session;
  try {
    await expectChecked(session, 'webgpu');
    const found = await check(page, 'models/smollm2-135m-instruct-q4_1/SmolLM2-135M-Instruct.Q4_1.gguf');
    assert.equal(await found.getAttribute('data-state'), 'fits', await found.textContent());
    const text = await found.textContent();
    // The tied output projection at 8 bits: 28.3 M values, a scale and an offset per 32.
    assert.match(text, /Here \(webgpu, 8-bit weights\).*largest buffer 35\.4 MB \(token_embd\.weight\) of the [\d.]+ [MG]B one buffer may hold/);
    assert.equal(Number(await found.getAttribute('data-size')), 98_362_432);
    assert.deepEqual(session.errors, [], session.report());
  } finally {
    await session.close();
  }
});
