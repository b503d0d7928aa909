// The ask flow in a real browser, on WebGPU (SwiftShader) and on the CPU fallback: the
// paper's Lyme-in-pregnancy sample, answered in the worker with the shipped sentence
// embedder; the answer cites its sentence (a click shows it in its document); the
// gated-path view draws doxycycline's edge blocked by pregnancy; flipping the pregnancy
// chip to false re-gates without a model and changes the answer; after a reload the
// same question is answered from the cache (no model file fetched, nothing embedded). Nothing may leave
// 127.0.0.1 and the page must report no error (a Content-Security-Policy violation is
// one).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCheckedApp } from './selfcheck.mjs';
import { askLyme, reload } from './lyme.mjs';

async function flow(t, { webgpu, backend }) {
  const session = await openCheckedApp({ webgpu, backend });
  const { page } = session;
  try {
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    assert.match(csp, /connect-src 'self'/);
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval' 'sha256-/);

    await page.locator('[data-testid="sample"][data-sample="p3"]').click();
    assert.equal(await page.getByTestId('document').count(), 2);
    assert.match(await page.getByTestId('question').inputValue(), /Lyme disease in a pregnant patient/);

    const cold = await askLyme(session);
    assert.equal(cold.answer, 'amoxicillin');
    assert.deepEqual([cold.filesFetched, cold.filesCached], [3, 0], session.report());
    assert.ok(session.requests.includes('/models/all-minilm-l6-v2/model.safetensors'),
      `the weights were fetched: ${session.requests}`);
    // The tagger and drug lexicon are read as bench reads them, fetched from this site.
    assert.equal(cold.languageNote, null, session.report());
    assert.deepEqual([cold.languageFetched, cold.languageCached], [2, 0], session.report());
    assert.ok(session.requests.includes('/models/lexicons/drugs.tsv'), `${session.requests}`);
    const answer = page.getByTestId('answer');
    t.diagnostic(`${backend}: first answer (empty cache) after ${cold.millis} ms: ` +
      `${await page.getByTestId('answer-summary').textContent()}`);
    assert.equal(await page.getByTestId('embedder-note').count(), 0, 'the neural embedder loaded');

    // A citation opens its document with the sentence marked.
    const citations = page.getByTestId('citation');
    assert.ok((await citations.count()) >= 1);
    await citations.first().click();
    const mark = await page.getByTestId('source-mark').textContent();
    assert.match(mark, /Amoxicillin/i);

    // Doxycycline's edge is drawn blocked by pregnancy.
    const blocked = page.locator('[data-testid="graph-edge"][data-state="blocked"]');
    const blockedEdges = await blocked.evaluateAll((els) => els.map((e) => ({
      subject: e.dataset.subject, object: e.dataset.object, condition: e.dataset.condition,
    })));
    assert.ok(blockedEdges.some((e) => /doxycycline/i.test(`${e.subject} ${e.object}`) && /pregnan/i.test(e.condition)),
      JSON.stringify(blockedEdges));
    const answerNode = page.locator('[data-testid="graph-node"][data-role="answer"]');
    assert.match(await answerNode.getAttribute('data-label'), /amoxicillin/i);
    const doxy = blocked.filter({ has: page.locator('text') }).first();
    // Details follow the pointer or the keyboard focus; focus is what a test can aim.
    await doxy.focus();
    assert.match(await page.getByTestId('edge-details').textContent(), /Blocked/);
    await session.screenshot(`ask-${backend}-lyme`);

    // Flip pregnancy to false: re-gated in the worker without a model call.
    const chip = page.locator('[data-testid="chip"][data-phrase*="pregnan"]');
    assert.equal(await chip.getAttribute('data-truth'), 'true');
    const flipStarted = Date.now();
    await chip.click();
    await page.locator('[data-testid="chip"][data-phrase*="pregnan"][data-truth="false"]').waitFor({ timeout: 60_000 });
    const flipMillis = Date.now() - flipStarted;
    assert.equal((await answer.getAttribute('data-answer')).toLowerCase(), 'doxycycline');
    assert.equal(await page.getByTestId('answer-summary').getAttribute('data-embedded'), '0');
    t.diagnostic(`${backend}: re-gated in ${flipMillis} ms, no model call`);
    await session.screenshot(`ask-${backend}-lyme-not-pregnant`);

    // Reload: the model files, the documents' extraction and every embedding come from
    // IndexedDB; no model file is fetched again.
    await reload(session, backend);
    const warm = await askLyme(session);
    assert.equal(warm.answer, 'amoxicillin');
    assert.deepEqual([warm.filesFetched, warm.filesCached], [0, 3], session.report());
    assert.deepEqual([warm.languageFetched, warm.languageCached], [0, 2], session.report());
    assert.ok(!session.requests.some((r) => r.startsWith('/models/lexicons/')), `${session.requests}`);
    assert.equal(warm.extractionCached, true);
    assert.equal(warm.embedded, 0, 'every embedding came from the cache');
    assert.equal(warm.embeddingsCached, cold.embedded);
    assert.equal(warm.note, null);
    // Only the two small manifests that pin the files' sha256 are read again.
    const manifests = ['/models/manifest.json', '/models/lexicons.json'];
    assert.deepEqual(session.requests.filter((r) => r.startsWith('/models/') && !manifests.includes(r)), [],
      'no model file is fetched again');
    t.diagnostic(`${backend}: first answer after a reload (models and embeddings cached) after ${warm.millis} ms`);

    // The patient described apart from the question overrides it: "not pregnant".
    await page.getByTestId('patient').fill('The patient is not pregnant.');
    await page.getByTestId('ask-button').click();
    await page.locator('[data-testid="chip"][data-phrase*="pregnan"][data-truth="false"]').waitFor({ timeout: 120_000 });
    assert.equal((await answer.getAttribute('data-answer')).toLowerCase(), 'doxycycline');

    assert.deepEqual(session.foreignRequests, [], `requests left 127.0.0.1\n${session.report()}`);
    assert.deepEqual(session.errors, [], `the page reported errors\n${session.report()}`);
  } finally {
    await session.close();
  }
}

test('CPU fallback: Lyme in pregnancy → amoxicillin, doxycycline blocked; flipping pregnancy re-gates', { timeout: 900_000 }, (t) =>
  flow(t, { webgpu: false, backend: 'cpu' }));

test('WebGPU: Lyme in pregnancy → amoxicillin, doxycycline blocked; flipping pregnancy re-gates', { timeout: 900_000 }, (t) =>
  flow(t, { webgpu: true, backend: 'webgpu' }));
