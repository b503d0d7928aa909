// The paper's Lyme-in-pregnancy sample asked in the app, and what the answer shows
// about it (answer, model work, where its inputs came from); shared by the ask and
// cache tests.

import assert from 'node:assert/strict';
import { expectChecked } from './selfcheck.mjs';

/** Asks the paper's Lyme-in-pregnancy sample and returns what the answer shows. */
export async function askLyme(session) {
  const { page } = session;
  await page.locator('[data-testid="sample"][data-sample="p3"]').click();
  const started = Date.now();
  await page.getByTestId('ask-button').click();
  const answer = page.getByTestId('answer');
  await answer.waitFor({ timeout: 600_000 });
  const millis = Date.now() - started;
  assert.equal(await answer.getAttribute('data-state'), 'answered', session.report());
  const cache = page.getByTestId('answer-cache');
  const attr = async (name) => cache.getAttribute(`data-${name}`);
  return {
    millis,
    answer: (await answer.getAttribute('data-answer')).toLowerCase(),
    embedded: Number(await page.getByTestId('answer-summary').getAttribute('data-embedded')),
    filesCached: Number(await attr('files-cached')),
    filesFetched: Number(await attr('files-fetched')),
    filesRepaired: Number(await attr('files-repaired')),
    extractionCached: (await attr('extraction-cached')) === 'true',
    embeddingsCached: Number(await attr('embeddings-cached')),
    languageCached: Number(await attr('language-cached')),
    languageFetched: Number(await attr('language-fetched')),
    languageNote: (await page.getByTestId('language-note').count()) > 0
      ? await page.getByTestId('language-note').textContent()
      : null,
    note: (await page.getByTestId('cache-note').count()) > 0
      ? await page.getByTestId('cache-note').textContent()
      : null,
  };
}

export async function reload(session, backend) {
  session.requests.length = 0;
  await session.page.reload();
  await expectChecked(session, backend);
}
