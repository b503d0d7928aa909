// The site serves the shipped models from its own models/ path, and the page lists them
// with their download sizes from models/manifest.json.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DIST, openApp } from './harness.mjs';

test('the page lists the shipped models and the site serves every file at its manifest size', { timeout: 300_000 }, async () => {
  const manifest = JSON.parse(await readFile(path.join(DIST, 'models', 'manifest.json'), 'utf8'));
  assert.equal(manifest.schema, 1);
  const session = await openApp({ webgpu: false });
  try {
    const list = session.page.getByTestId('models');
    await session.page.locator('[data-testid="models"][data-state="ready"]').waitFor({ timeout: 60_000 });
    for (const model of manifest.models) {
      const item = list.locator(`li[data-model="${model.id}"]`);
      const total = model.files.reduce((sum, f) => sum + f.size, 0);
      assert.equal(Number(await item.getAttribute('data-size')), total);
      assert.match(await item.textContent(), new RegExp(`${model.name}.*\\d+\\.\\d MB`));
      for (const file of model.files) {
        // Fetched from the page, relative to it, as the app's model manager will.
        const length = await session.page.evaluate(async (url) => {
          const r = await fetch(url, { method: 'HEAD' });
          return r.ok ? Number(r.headers.get('content-length')) : -r.status;
        }, `models/${model.id}/${file.name}`);
        assert.equal(length, file.size, `models/${model.id}/${file.name}`);
      }
    }
    assert.deepEqual(session.foreignRequests, [], session.report());
    assert.deepEqual(session.errors, [], session.report());
    await session.screenshot('models');
  } finally {
    await session.close();
  }
});
