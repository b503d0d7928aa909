// The benchmark viewer on a committed results bundle (tests/data/results/bundle.json.gz,
// made by `gatepath bench-all`; cli/tests/bench.rs keeps it equal to a fresh run),
// with the site served under a sub-path as a static host publishing it in a folder
// would: the table and its sorting, the scores per category, the question list and its
// filters, and a drill-down that replays a stored answer in the gated-path and strategy
// views. No worker starts and no model loads.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApp } from './harness.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RESULTS = path.join(ROOT, 'tests', 'data', 'results');
const BUNDLE_FILE = path.join(RESULTS, 'bundle.json.gz');
const BASE = '/published/gatepath/';

const bundle = JSON.parse(gunzipSync(readFileSync(BUNDLE_FILE)).toString('utf8'));
const fmt = (x) => x.toFixed(1);
/** A run's row label, as the viewer writes it: the strategy, then what is not default. */
const label = (r) => r.strategy + (r.embedder !== 'lexical' ? ` · ${r.embedder}` : '') + (r.llm ? ` · ${r.llm}` : '');

/** Values of a column of the score table, top to bottom. */
async function column(page, index) {
  return page.getByTestId('result-row').evaluateAll(
    (rows, i) => rows.map((r) => Number(r.querySelectorAll('[data-testid="cell"]')[i].dataset.em)),
    index,
  );
}

const sortedDown = (xs) => xs.every((x, i) => i === 0 || xs[i - 1] >= x);
const sortedUp = (xs) => xs.every((x, i) => i === 0 || xs[i - 1] <= x);

test('the viewer shows, sorts, filters and replays a results bundle from a sub-path', { timeout: 180_000 }, async () => {
  const session = await openApp({ webgpu: false, base: BASE, mounts: { 'results/': RESULTS }, query: '#/results' });
  const { page } = session;
  try {
    const state = page.locator('[data-testid="results-state"][data-state="ready"]');
    await state.waitFor({ timeout: 60_000 });
    assert.equal(await state.getAttribute('data-runs'), String(bundle.runs.length));
    assert.equal(await page.locator('main[hidden]').count(), 1, 'the ask view is hidden');
    assert.equal(await page.getByTestId('nav-results').getAttribute('aria-current'), 'page');

    // The table: one row per configuration in the bundle's order, a column per dataset,
    // each cell the run's EM.
    const labels = [...new Set(bundle.runs.map(label))];
    const rows = page.getByTestId('result-row');
    assert.deepEqual(await rows.evaluateAll((rs) => rs.map((r) => r.dataset.label)), labels);
    for (const [c, dataset] of bundle.datasets.entries()) {
      const expected = labels.map((l) => fmt(bundle.runs.find((r) => label(r) === l && r.data === dataset.path).em));
      assert.deepEqual((await column(page, c)).map(fmt), expected, dataset.name);
    }
    // PubMedQA is scored as accuracy: one sortable header, no F1.
    const pubmed = bundle.datasets.findIndex((d) => d.format === 'pubmedqa');
    assert.match(await page.getByTestId(`sort-${pubmed}-em`).textContent(), /accuracy/);
    assert.equal(await page.getByTestId(`sort-${pubmed}-f1`).count(), 0);

    // Sorting: best first, then the other way, then by name.
    await page.getByTestId('sort-0-em').click();
    assert.equal(await page.getByTestId('sort-0-em').getAttribute('data-sort'), 'descending');
    const down = await column(page, 0);
    assert.ok(sortedDown(down), JSON.stringify(down));
    assert.ok(down[0] > down[down.length - 1], 'the runs differ on the first dataset');
    await page.getByTestId('sort-0-em').click();
    assert.equal(await page.getByTestId('sort-0-em').getAttribute('data-sort'), 'ascending');
    assert.ok(sortedUp(await column(page, 0)));
    await page.getByTestId('sort-label').click();
    assert.deepEqual(await rows.evaluateAll((rs) => rs.map((r) => r.dataset.label)), [...labels].sort());
    await page.getByTestId('sort-0-f1').click();
    assert.equal(await page.getByTestId('sort-0-em').getAttribute('data-sort'), 'none');
    await session.screenshot('results-table');

    // Per category: the first dataset's categories, each cell the run's own figure.
    const cgr = bundle.runs.find((r) => label(r) === 'cgr' && r.data === bundle.datasets[0].path);
    const cells = page.getByTestId('category-table').first().getByTestId('category-cell');
    const firstRow = await cells.evaluateAll((cs) => cs.map((c) => [c.dataset.category, c.dataset.em]));
    const categories = Object.keys(cgr.categories).sort();
    assert.deepEqual(
      firstRow.slice(0, categories.length),
      categories.map((c) => [c, fmt(cgr.categories[c].em)]),
    );

    // The question list: every question of the first run, then filtered.
    const questions = page.getByTestId('result-question');
    const count = page.getByTestId('question-count');
    assert.equal(await questions.count(), cgr.items.length);
    const nogateIndex = bundle.runs.findIndex((r) => label(r) === 'cgr-nogate' && r.data === cgr.data);
    const nogate = bundle.runs[nogateIndex];
    await page.getByTestId('list-run').selectOption(String(nogateIndex));
    await page.getByTestId('filter-wrong').check();
    const wrong = nogate.items.filter((i) => i.em < 1).map((i) => i.id);
    assert.ok(wrong.length > 0, 'the ablation gets some wrong');
    assert.deepEqual(await questions.evaluateAll((qs) => qs.map((q) => q.dataset.id)), wrong);
    assert.match(await count.textContent(), new RegExp(`^${wrong.length} of ${nogate.items.length} questions`));
    await page.getByTestId('filter-wrong').uncheck();
    // Disagreement: the runs on this dataset do not all give the same answer.
    await page.getByTestId('filter-disagree').check();
    const onData = bundle.runs.filter((r) => r.data === cgr.data);
    // The answers as the scores compare them (engine::eval::metrics::normalize).
    const norm = (p) => (p ?? '').toLowerCase().replace(/[!-/:-@[-`{-~]/g, '')
      .split(/\s+/).filter((w) => w && !['a', 'an', 'the'].includes(w)).join(' ');
    const disagree = nogate.items
      .filter((item) => new Set(onData.map((r) => norm(r.items.find((i) => i.id === item.id)?.prediction))).size > 1)
      .map((i) => i.id);
    assert.ok(disagree.length > 0);
    assert.deepEqual(await questions.evaluateAll((qs) => qs.map((q) => q.dataset.id)), disagree);
    // A category on top of it.
    const category = nogate.items.find((i) => disagree.includes(i.id)).category;
    await page.getByTestId('filter-category').selectOption(category);
    const both = await questions.evaluateAll((qs) => qs.map((q) => [q.dataset.id, q.dataset.category]));
    assert.ok(both.length > 0 && both.every(([id, c]) => c === category && disagree.includes(id)), JSON.stringify(both));

    // Drill-down: a question the ablation gets wrong and the gated runs right.
    const id = wrong.find((w) => disagree.includes(w) && cgr.items.find((i) => i.id === w).em === 1) ?? wrong[0];
    await page.getByTestId('filter-category').selectOption('');
    await page.getByTestId('filter-disagree').uncheck();
    await page.getByTestId('list-run').selectOption(String(bundle.runs.indexOf(cgr)));
    await page.locator(`[data-testid="result-question"][data-id="${id}"]`).click();
    const drill = page.getByTestId('drilldown');
    await drill.waitFor();
    assert.equal(await drill.getAttribute('data-id'), id);
    assert.equal(await drill.getAttribute('data-run'), 'cgr');
    const item = cgr.items.find((i) => i.id === id);
    assert.equal(await page.getByTestId('drill-gold').textContent(), item.gold);
    assert.equal(await page.getByTestId('replay').getAttribute('data-answer'), item.prediction ?? '');
    // Every run's prediction for it.
    assert.deepEqual(
      await drill.getByTestId('drill-run').evaluateAll((rs) => rs.map((r) => r.dataset.label)),
      onData.map(label),
    );
    // The gated-path view as the page drew it: blocked edges with their conditions.
    const blocked = drill.locator('[data-testid="graph-edge"][data-state="blocked"]');
    assert.ok(await blocked.count() > 0, 'the gated run shows blocked edges');
    const storedBlocked = item.view.edges.filter((e) => e.blocked).length;
    assert.equal(await blocked.count(), storedBlocked);
    // Chips are shown, not clickable: nothing can re-gate a stored answer.
    assert.equal(await drill.locator('button[data-testid="chip"]').count(), 0);
    assert.equal(await drill.locator('span[data-testid="chip"]').count(), item.view.table.length);
    await session.screenshot('results-drilldown');

    // The same question under CLAIMS: its summaries view; under the ablation: nothing blocked.
    await drill.locator('[data-testid="drill-run"][data-label="claims"] button').click();
    await page.locator('[data-testid="drilldown"][data-run="claims"]').waitFor();
    await drill.locator('[data-testid="strategy-view"][data-strategy="claims"] [data-testid="claims-tree"]').waitFor();
    await drill.locator('[data-testid="drill-run"][data-label="cgr-nogate"] button').click();
    await page.locator('[data-testid="drilldown"][data-run="cgr-nogate"]').waitFor();
    assert.equal(await drill.locator('[data-testid="graph-edge"][data-state="blocked"]').count(), 0);
    assert.equal(
      await page.getByTestId('drill-prediction').textContent(),
      nogate.items.find((i) => i.id === id).prediction ?? 'insufficient evidence',
    );
    await page.getByTestId('drill-close').click();
    assert.equal(await page.getByTestId('drilldown').count(), 0);

    // Nothing but the site's own files under its sub-path; no worker, no model.
    assert.ok(session.requests.every((p) => p.startsWith(BASE)), JSON.stringify(session.requests));
    assert.ok(!session.requests.some((p) => /worker|models\//.test(p)), JSON.stringify(session.requests));
    assert.equal(session.worker ?? null, null);
    assert.deepEqual(session.errors, [], session.report());
    assert.deepEqual(session.foreignRequests, []);
  } finally {
    await session.close();
  }
});

test('a missing bundle is explained, and a bundle file can be opened instead', { timeout: 120_000 }, async () => {
  const session = await openApp({ webgpu: false, query: '#/results?bundle=results/none.json' });
  const { page } = session;
  try {
    const error = page.locator('[data-testid="results-state"][data-state="error"]');
    await error.waitFor({ timeout: 60_000 });
    assert.match(await error.textContent(), /No results are published with this site \(results\/none\.json/);
    // The browser logs the 404 itself; nothing else may fail.
    assert.deepEqual(session.errors.filter((e) => !/404/.test(e)), [], session.report());

    // A file that is not a bundle is refused with the reason.
    await page.getByTestId('bundle-file').setInputFiles(path.join(ROOT, 'tests', 'data', 'pubmedqa-mini.json'));
    await page.locator('[data-testid="results-state"][data-state="error"]', { hasText: 'names no schema' }).waitFor();
    // The committed bundle, opened from disk.
    await page.getByTestId('bundle-file').setInputFiles(BUNDLE_FILE);
    const ready = page.locator('[data-testid="results-state"][data-state="ready"]');
    await ready.waitFor();
    assert.match(await ready.textContent(), /^bundle\.json\.gz · made /);
    assert.equal(await page.getByTestId('result-row').count(), new Set(bundle.runs.map(label)).size);
    assert.deepEqual(session.errors.filter((e) => !/404/.test(e)), [], session.report());
  } finally {
    await session.close();
  }
});

test('the questions run again in this browser agree with the native run of the same embedder', { timeout: 900_000 }, async () => {
  const session = await openApp({ webgpu: false, base: BASE, mounts: { 'results/': RESULTS }, query: '?backend=cpu#/results' });
  const { page } = session;
  try {
    await page.locator('[data-testid="results-state"][data-state="ready"]').waitFor({ timeout: 60_000 });
    const runButton = page.getByTestId('live-run');
    const idle = page.locator('[data-testid="live-run"]:not([disabled])');
    const report = page.getByTestId('live-report');
    const attrs = () => report.evaluate((r) => ({ ...r.dataset }));
    const native = (data) => bundle.runs.find((r) => r.data === data && r.strategy === 'cgr' && r.embedder !== 'lexical');

    // Stopped after a few questions: what was answered is kept and compared.
    await page.getByTestId('live-dataset').selectOption('0');
    await page.getByTestId('live-strategy').selectOption('cgr');
    await runButton.click();
    await page.locator('[data-testid="live-report"][data-n="2"]').waitFor({ timeout: 600_000 });
    await page.getByTestId('live-stop').click();
    await idle.waitFor({ timeout: 300_000 });
    const stopped = await attrs();
    const total = bundle.datasets[0].questions.length;
    assert.ok(Number(stopped.n) >= 2 && Number(stopped.n) < total, JSON.stringify(stopped));
    assert.equal(await page.getByTestId('live-backend').getAttribute('data-backend'), 'cpu');

    // The whole set: the browser's MiniLM on the CPU gives the native MiniLM run's answers.
    await runButton.click();
    await page.locator(`[data-testid="live-report"][data-n="${total}"]`).waitFor({ timeout: 600_000 });
    await idle.waitFor({ timeout: 60_000 });
    const full = await attrs();
    const cgr = native(bundle.datasets[0].path);
    const differences = await page.getByTestId('live-difference').allTextContents();
    assert.equal(full.errors, '0', session.report());
    assert.equal(full.same, String(total), JSON.stringify(differences));
    assert.equal(full['nativeEm'], fmt(cgr.em));
    assert.equal(full.em, fmt(cgr.em));
    await session.screenshot('results-live');

    // PubMedQA's verdicts (yes / no / maybe) are read in the browser as bench reads them.
    const pubmed = bundle.datasets.findIndex((d) => d.format === 'pubmedqa');
    await page.getByTestId('live-dataset').selectOption(String(pubmed));
    await runButton.click();
    const n = bundle.datasets[pubmed].questions.length;
    await page.locator(`[data-testid="live-report"][data-n="${n}"]`).waitFor({ timeout: 300_000 });
    await idle.waitFor({ timeout: 60_000 });
    const verdicts = await attrs();
    assert.equal(verdicts.same, String(n), JSON.stringify(await page.getByTestId('live-difference').allTextContents()));
    assert.equal(verdicts['nativeEm'], fmt(native(bundle.datasets[pubmed].path).em));

    assert.deepEqual(session.errors, [], session.report());
    assert.deepEqual(session.foreignRequests, []);
  } finally {
    await session.close();
  }
});
