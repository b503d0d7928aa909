// The worker's IndexedDB cache in a real browser profile (ask.test.mjs checks that a
// reload reads models, extraction and embeddings from it on both backends): a cached
// weight damaged on purpose fails its sha256 check, is fetched again and the answer is
// unchanged; a storage quota that is full still yields the answer and the page says
// so; a drug lexicon that fails its check leaves the question answered without it,
// with the reason shown; the storage panel lists what is kept and clears it. On the CPU fallback (the
// cache does not depend on the backend).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DIST } from './harness.mjs';
import { openCheckedApp } from './selfcheck.mjs';
import { askLyme, reload } from './lyme.mjs';

const WEIGHTS = '/models/all-minilm-l6-v2/model.safetensors';

/** Flips one byte in the middle of the cached copy of the file with this sha256. */
async function damageCachedFile(page, sha256) {
  return page.evaluate(async (key) => {
    const done = (request) => new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const db = await done(indexedDB.open('gatepath'));
    const tx = db.transaction('files', 'readwrite');
    const store = tx.objectStore('files');
    const record = await done(store.get(key));
    if (!record) return false;
    record.bytes[record.bytes.length >> 1] ^= 0xff;
    store.put(record, key);
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    db.close();
    return true;
  }, sha256);
}

test('a damaged cached weight fails its sha256 check and is fetched again; the storage panel clears the cache', { timeout: 1_500_000 }, async () => {
  const manifest = JSON.parse(await readFile(path.join(DIST, 'models', 'manifest.json'), 'utf8'));
  const weights = manifest.models.find((m) => m.id === 'all-minilm-l6-v2').files
    .find((f) => f.name === 'model.safetensors');
  const session = await openCheckedApp({ webgpu: false, backend: 'cpu' });
  const { page } = session;
  try {
    // Empty cache: everything is fetched and read.
    const cold = await askLyme(session);
    assert.equal(cold.answer, 'amoxicillin');
    assert.deepEqual([cold.filesFetched, cold.filesCached], [3, 0], session.report());
    assert.equal(cold.extractionCached, false);
    assert.ok(cold.embedded > 0);
    assert.ok(session.requests.includes(WEIGHTS), `the weights were fetched: ${session.requests}`);

    // A damaged cached weight fails its sha256 check and is fetched again.
    assert.equal(await damageCachedFile(page, weights.sha256), true, 'the weights are cached');
    await reload(session, 'cpu');
    const repaired = await askLyme(session);
    assert.equal(repaired.answer, 'amoxicillin');
    assert.deepEqual([repaired.filesRepaired, repaired.filesFetched, repaired.filesCached], [1, 1, 2]);
    assert.deepEqual(session.requests.filter((r) => r.startsWith('/models/all-minilm-l6-v2/')), [WEIGHTS]);

    // The storage panel lists what is kept, and clears it.
    await page.getByTestId('storage-refresh').click();
    const storage = page.locator('[data-testid="storage"][data-state="ready"]');
    await storage.waitFor();
    const kept = Number(await storage.getAttribute('data-entries'));
    assert.ok(kept >= 3 + 1 + cold.embedded, `entries kept: ${kept}`);
    assert.match(await storage.textContent(), /model\.safetensors/);
    await page.getByTestId('answer').scrollIntoViewIfNeeded();
    await session.screenshot('cache-storage-panel');
    await page.getByTestId('storage-clear').click();
    await page.locator('[data-testid="storage"][data-entries="0"]').waitFor();

    assert.deepEqual(session.foreignRequests, [], session.report());
    assert.deepEqual(session.errors, [], session.report());
  } finally {
    await session.close();
  }
});

/** Runs in the worker first: every write to IndexedDB fails as a full quota does. */
function fullStorage() {
  const full = () => {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  };
  IDBObjectStore.prototype.put = full;
  IDBObjectStore.prototype.add = full;
}

test('a full storage quota still yields the answer, and the page says so', { timeout: 900_000 }, async () => {
  const session = await openCheckedApp({ webgpu: false, backend: 'cpu', workerPrelude: fullStorage });
  const { page } = session;
  try {
    const result = await askLyme(session);
    assert.equal(result.answer, 'amoxicillin');
    assert.equal(result.filesFetched, 3);
    assert.match(result.note ?? '', /storage for this site is full/, session.report());
    await page.getByTestId('storage-refresh').click();
    await page.getByTestId('storage-note').waitFor();
    assert.match(await page.getByTestId('storage-note').textContent(), /full/);
    assert.equal(await page.getByTestId('storage').getAttribute('data-entries'), '0');
    await session.screenshot('cache-quota-full');
    assert.deepEqual(session.errors, [], session.report());
  } finally {
    await session.close();
  }
});

/** Runs in the worker first: the site serves something else as the drug lexicon. */
function wrongLexicon() {
  const fetch = self.fetch.bind(self);
  self.fetch = (input, init) => (String(input.url ?? input).includes('models/lexicons/drugs.tsv')
    ? Promise.resolve(new Response('not a lexicon\n', { status: 200 }))
    : fetch(input, init));
}

test('a drug lexicon that fails its check still yields the answer, and the page says why', { timeout: 900_000 }, async () => {
  const session = await openCheckedApp({ webgpu: false, backend: 'cpu', workerPrelude: wrongLexicon });
  try {
    const result = await askLyme(session);
    assert.equal(result.answer, 'amoxicillin');
    assert.match(result.languageNote ?? '', /drugs\.tsv/, session.report());
    assert.equal(result.languageFetched, 0);
    await session.screenshot('cache-wrong-lexicon');
    assert.deepEqual(session.errors, [], session.report());
  } finally {
    await session.close();
  }
});
