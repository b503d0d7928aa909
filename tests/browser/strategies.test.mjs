// Each strategy picked in the app and its own view, on the paper's Lyme-in-pregnancy
// sample (CPU backend, the shipped sentence embedder): CLAIMS' layered summaries as a
// tree opened from each claim of interest outward, AMG's confidences on the graph's
// edges and its traces, IKR's multi-level readout, ReGraM's region, mode and hops. Gating
// applies inside every strategy: doxycycline stays blocked by pregnancy and the answer
// is amoxicillin. Flipping a chip re-gates within the chosen strategy.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCheckedApp } from './selfcheck.mjs';

/** Picks `strategy`, asks, and returns the strategy's view once it is shown. */
async function askWith(session, strategy, timeout = 300_000) {
  const { page } = session;
  await page.getByTestId('strategy').selectOption(strategy);
  await page.getByTestId('ask-button').click();
  const panel = page.locator(`[data-testid="strategy-view"][data-strategy="${strategy}"]`);
  await panel.waitFor({ timeout });
  const answer = page.getByTestId('answer');
  assert.equal((await answer.getAttribute('data-answer')).toLowerCase(), 'amoxicillin', session.report());
  const blocked = await page.locator('[data-testid="graph-edge"][data-state="blocked"]')
    .evaluateAll((els) => els.map((e) => `${e.dataset.subject} ${e.dataset.object} ${e.dataset.condition}`));
  assert.ok(blocked.some((b) => /doxycycline/i.test(b) && /pregnan/i.test(b)), JSON.stringify(blocked));
  return panel;
}

test('each strategy answers with its own view, gated', { timeout: 900_000 }, async (t) => {
  const session = await openCheckedApp({ webgpu: false, backend: 'cpu' });
  const { page } = session;
  try {
    await page.locator('[data-testid="sample"][data-sample="p3"]').click();
    // The picker offers every strategy bench runs.
    const offered = await page.getByTestId('strategy').locator('option').evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(offered.sort(), ['amg', 'cgr', 'cgr-nogate', 'cgr-nomatch', 'claims', 'ikr', 'regram', 'regram-nogate']);

    // CLAIMS: claims of interest, each a tree whose children lie one layer further out.
    let panel = await askWith(session, 'claims');
    const interests = panel.getByTestId('claim-of-interest');
    const count = await interests.count();
    assert.ok(count >= 1 && count <= 10, `${count} claims of interest`);
    const summaries = await panel.getByTestId('interest-summary').allTextContents();
    assert.ok(summaries.every((s) => s.trim().length > 0), JSON.stringify(summaries));
    // Open every fold, then check the tree: each node's children are one layer out.
    await panel.locator('details').evaluateAll((ds) => ds.forEach((d) => { d.open = true; }));
    const layering = await panel.locator('.summary-node').evaluateAll((nodes) => nodes.map((n) => {
      const layer = Number(n.dataset.layer);
      const kids = [...n.querySelectorAll(':scope > ul > li > .summary-node')].map((k) => Number(k.dataset.layer));
      return { layer, kids };
    }));
    assert.ok(layering.every(({ layer, kids }) => kids.every((k) => k === layer + 1)), JSON.stringify(layering));
    const deepest = Math.max(...layering.map((n) => n.layer));
    assert.ok(deepest >= 1, 'a claim of interest has claims around it');
    // The first claim of interest's root is layer 0 and its summary starts with its claim.
    const root = panel.locator('.interest').first().locator('.summary-node').first();
    assert.equal(await root.getAttribute('data-layer'), '0');
    const rootClaim = (await root.getByTestId('claim').first().textContent()).trim();
    assert.ok(summaries[0].startsWith(rootClaim), `${summaries[0]} / ${rootClaim}`);
    // No claim comes from an edge the gate closed: doxycycline's treatment edge for
    // Lyme disease is never said without "not during pregnancy".
    const claims = await panel.getByTestId('claim').allTextContents();
    assert.ok(!claims.some((c) => /treated with doxycycline\.?$/i.test(c.trim())), JSON.stringify(claims));
    t.diagnostic(`claims: ${count} claim(s) of interest, ${layering.length} nodes, deepest layer ${deepest}; first summary: ${summaries[0]}`);
    await panel.scrollIntoViewIfNeeded();
    await session.screenshot('strategy-claims-tree');

    // AMG: every kept edge of the graph carries a confidence; the traces list what
    // each term reached at or above 0.5.
    panel = await askWith(session, 'amg');
    const confidences = await page.locator('[data-testid="graph-edge"][data-state="kept"]')
      .evaluateAll((els) => els.map((e) => Number(e.dataset.confidence)));
    assert.ok(confidences.length > 0 && confidences.every((c) => c > 0 && c <= 1), JSON.stringify(confidences));
    const reached = await panel.locator('[data-confidence]').evaluateAll((els) => els.map((e) => Number(e.dataset.confidence)));
    assert.ok(reached.length > 0 && reached.every((c) => c >= 0.5 && c <= 1), JSON.stringify(reached));
    t.diagnostic(`amg: edge confidences ${JSON.stringify(confidences)}; ${reached.length} nodes reached`);
    await panel.scrollIntoViewIfNeeded();
    await session.screenshot('strategy-amg');

    // IKR: the readout starts at the top entity; indices nest one level per depth.
    panel = await askWith(session, 'ikr');
    const lines = await panel.getByTestId('readout-line').evaluateAll((els) => els.map((e) => ({
      depth: Number(e.dataset.depth), text: e.textContent,
    })));
    assert.equal(lines[0].depth, 0);
    assert.ok(lines.slice(1).every((l) => l.depth >= 1 && new RegExp(`^(\\d+\\.){${l.depth}} `).test(l.text)), JSON.stringify(lines));
    t.diagnostic(`ikr: ${lines.map((l) => l.text).join(' | ')}`);
    await panel.scrollIntoViewIfNeeded();
    await session.screenshot('strategy-ikr');

    // ReGraM: the domain, the mode that produced the answer, and the region's facts.
    panel = await askWith(session, 'regram');
    const mode = await panel.getByTestId('region-mode').textContent();
    const facts = await panel.getByTestId('region').locator('li').count();
    assert.equal(mode, facts >= 10 ? 'KG-STRICT' : facts > 0 ? 'HYBRID' : 'LLM-GUESS');
    // The Evidence Map: the topic, the patient (pregnancy), the kind asked for
    // (antibiotic); each hop's mode follows its own facts (K = 15 at most each).
    const hops = await panel.getByTestId('hop').evaluateAll((els) => els.map((e) => ({
      kind: e.dataset.kind,
      mode: e.dataset.mode,
      facts: Number(e.dataset.facts),
      question: e.querySelector('.hop-question').textContent,
      answers: e.querySelector('[data-testid="hop-answers"]').textContent,
    })));
    assert.deepEqual(hops.map((h) => h.kind), ['topic', 'patient', 'kind'], JSON.stringify(hops));
    assert.equal(hops[0].question, 'What antibiotic is recommended for Lyme disease?');
    assert.match(hops[1].question, /pregnant/);
    for (const h of hops) {
      assert.ok(h.facts <= 15, JSON.stringify(h));
      assert.equal(h.mode, h.facts >= 10 ? 'KG-STRICT' : h.facts > 0 ? 'HYBRID' : 'LLM-GUESS', JSON.stringify(h));
    }
    assert.ok(facts <= 15 * hops.length && facts >= Math.max(...hops.map((h) => h.facts)));
    assert.match(hops[1].answers.toLowerCase(), /amoxicillin/, JSON.stringify(hops));
    // No language model in this path: no hypotheses and no guess.
    assert.equal(await panel.locator('.hypothesis').count(), 0);
    assert.equal(await panel.getByTestId('hop-guess').count(), 0);
    t.diagnostic(`regram: domain ${await panel.getByTestId('region-domain').textContent()}, mode ${mode}, ${facts} facts; hops ${hops.map((h) => `${h.kind} ${h.mode} ${h.facts} → ${h.answers}`).join(' | ')}`);
    await panel.locator('[data-testid="hop"] details').first().evaluate((d) => { d.open = true; });
    await panel.scrollIntoViewIfNeeded();
    await session.screenshot('strategy-regram');

    // A chip flip re-gates within the strategy: the region is rebuilt, doxycycline wins.
    await page.locator('[data-testid="chip"][data-phrase*="pregnan"]').click();
    await page.locator('[data-testid="chip"][data-phrase*="pregnan"][data-truth="false"]').waitFor({ timeout: 60_000 });
    assert.equal((await page.getByTestId('answer').getAttribute('data-answer')).toLowerCase(), 'doxycycline');
    assert.equal(await page.locator('[data-testid="strategy-view"]').getAttribute('data-strategy'), 'regram');

    assert.deepEqual(session.foreignRequests, [], session.report());
    assert.deepEqual(session.errors, [], session.report());
  } finally {
    await session.close();
  }
});

// ReGraM with the language model (CPU): the shipped SmolLM2 proposes hypotheses for
// the HYBRID hops, held to the region's entities and the schema's relations, and the
// Reviewer — the engine's, running in this page — accepts only what the graph, the
// gate and the documents support. The answer is still the documents'.
test('ReGraM with the language model: hypotheses reviewed in the page', { timeout: 1_200_000 }, async (t) => {
  const session = await openCheckedApp({ webgpu: false, backend: 'cpu' });
  const { page } = session;
  try {
    await page.locator('[data-testid="sample"][data-sample="p3"]').click();
    await page.getByTestId('with-llm').check();
    const started = Date.now();
    const panel = await askWith(session, 'regram', 840_000);
    t.diagnostic(`answered with the language model in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.match(await panel.getByTestId('strategy-llm').textContent(), /SmolLM2/);
    const facts = (await panel.getByTestId('region').locator('li').allTextContents()).join(' ');
    const hypotheses = await panel.locator('.hypothesis').evaluateAll((els) => els.map((e) => ({
      accepted: e.dataset.accepted === 'true',
      triple: e.querySelector('code').textContent,
      text: e.textContent,
    })));
    t.diagnostic(`hypotheses: ${hypotheses.map((h) => h.text).join(' | ')}`);
    assert.ok(hypotheses.length > 0, 'the model proposed no hypothesis');
    for (const h of hypotheses) {
      const [head, relation, tail] = h.triple.replace(/^⟨|⟩$/g, '').split(', ');
      // Closed world: both entities are in the region, and the verdict follows s ≥ 0.5.
      assert.ok(facts.includes(head) && facts.includes(tail), `${h.triple} outside ${facts}`);
      assert.match(relation, /^[a-z_]+$/);
      const score = Number(/s = ([0-9.]+)/.exec(h.text)[1]);
      assert.equal(h.accepted, score >= 0.5, h.text);
      // The pair pregnancy closed never comes back.
      if (/doxycycline/i.test(h.triple) && /lyme/i.test(h.triple)) assert.equal(h.accepted, false, h.text);
    }
    await panel.locator('.hypothesis').first().scrollIntoViewIfNeeded();
    await session.screenshot('strategy-regram-llm');
    assert.deepEqual(session.foreignRequests, [], session.report());
    assert.deepEqual(session.errors, [], session.report());
  } finally {
    await session.close();
  }
});
