// The harness must be able to fail: console errors, uncaught exceptions and requests to
// other hosts are all caught, and a foreign request never reaches the network. The
// page's own Content-Security-Policy refuses a foreign fetch before the network sees
// it; a navigation (which the policy does not govern) shows the harness's own block.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './harness.mjs';

test('the harness records console errors, uncaught exceptions and foreign requests', { timeout: 120_000 }, async () => {
  const session = await openApp({ webgpu: false });
  try {
    await session.page.getByTestId('selfcheck').waitFor({ timeout: 60_000 });
    assert.deepEqual(session.errors, [], session.report());
    const reached = await session.page.evaluate(async () => {
      console.error('harness probe: console error');
      setTimeout(() => {
        throw new Error('harness probe: uncaught');
      });
      try {
        await fetch('http://example.invalid/probe');
        return true;
      } catch {
        return false;
      }
    });
    await session.page.waitForTimeout(200);
    assert.equal(reached, false, 'a foreign request went through');
    assert.ok(session.errors.some((e) => e.includes('example.invalid') && e.includes('Content Security Policy')),
      `the Content-Security-Policy refused the fetch\n${session.report()}`);
    const other = await session.context.newPage();
    const navigated = await other.goto('http://example.invalid/probe').then(() => true, () => false);
    await other.close();
    assert.equal(navigated, false, 'a foreign navigation went through');
    assert.deepEqual(session.foreignRequests, ['http://example.invalid/probe']);
    assert.ok(session.errors.some((e) => e.includes('harness probe: console error')), session.report());
    assert.ok(session.errors.some((e) => e.includes('[pageerror] harness probe: uncaught')), session.report());
  } finally {
    await session.close();
  }
});
