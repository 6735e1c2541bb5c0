// Drives the lab page in Debian's Chromium for tests/lab_page.rs: opens the lab, changes the
// depth and the random seed, types a FEN, clicks a move on the board and steps with the keys.
// After each action it waits until the page shows the trace of its address, and records what
// the page shows (counters, lit pseudocode line, sentence, address). It checks nothing itself:
// the Rust test compares every record with the API's trace of the same request.
//
// usage: node lab_page.mjs URL OUT.json [SCREENSHOT.png]
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [url, out, screenshot] = process.argv.slice(2);
const profile = mkdtempSync(join(tmpdir(), 'brudno-lab-profile-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.BRUDNO_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1400, height: 1000 },
});
const records = [];
const failures = [];
try {
  const page = context.pages()[0] || await context.newPage();
  page.on('pageerror', (e) => failures.push('page error: ' + e.message));
  // The suite runs its tests side by side; on a loaded 2-core machine the page can take
  // longer than Playwright's 30 s default to settle, which is load, not a failure.
  page.setDefaultTimeout(120000);

  const ready = async () => {
    await page.waitForFunction(() => document.body.dataset.state === 'error' || (document.body.dataset.state === 'ready' &&
      document.body.dataset.query === location.search.slice(1)), null, { timeout: 60000 });
    const state = await page.evaluate(() => [document.body.dataset.state, document.getElementById('lab-status').textContent, location.search]);
    if (state[0] === 'error') throw new Error('the page shows an error for ' + state[2] + ': ' + state[1]);
  };
  const blur = () => page.evaluate(() => document.activeElement && document.activeElement.blur());
  const record = async (action) => {
    // the address keeps the step a moment after it changes
    await page.waitForFunction(() => {
      const n = document.getElementById('step-number').textContent;
      return n === '0' ? !/step=[1-9]/.test(location.hash) : location.hash === '#step=' + n;
    }, null, { timeout: 10000 });
    records.push(await page.evaluate((action) => {
      const text = (id) => document.getElementById(id).textContent;
      return {
        action,
        search: location.search.slice(1),
        hash: location.hash,
        step: Number(text('step-number')),
        steps: Number(text('step-count')),
        visited: text('visited'),
        leaves: text('leaves'),
        pruned: text('pruned'),
        alpha: text('alpha'),
        beta: text('beta'),
        sentence: text('step-text'),
        lit: Array.from(document.querySelectorAll('.code-line.lit')).map((d) => Number(d.dataset.line)),
        pieces: Array.from(document.querySelectorAll('#board [data-piece]')).length,
      };
    }, action));
  };
  const keys = async (key, times) => {
    await blur();
    for (let i = 0; i < times; i++) await page.keyboard.press(key);
  };

  // 1. open the lab: the textbook tree
  await page.goto(url);
  await ready();
  await record('open');
  await keys('ArrowRight', 6);
  await record('open, 6 steps with the right arrow');

  // 2. a random tree; change its depth, then its seed
  await page.click('#src-random');
  await ready();
  await page.selectOption('#lab-depth', '4');
  await ready();
  await keys('ArrowRight', 9);
  await record('random tree, depth 4, 9 steps');
  const before = await page.evaluate(() => location.search);
  await page.click('#lab-new-seed');
  await page.waitForFunction((b) => location.search !== b, before);
  await ready();
  await keys('End', 1);
  await record('new seed, End');

  // 3. type a FEN
  await page.click('#src-chess');
  await ready();
  await page.selectOption('#lab-depth', '2');
  await ready();
  await page.fill('#lab-fen', 'rnb1kbnr/pppp1ppp/8/4q3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3');
  await page.press('#lab-fen', 'Enter');
  await page.waitForFunction(() => location.search.includes('fen='));
  await ready();
  await keys('ArrowRight', 12);
  await record('typed FEN, depth 2, 12 steps');

  // 4. click a move on the board: the knight takes the queen (f3 to e5)
  await page.waitForSelector('#board [data-square="f3"]');
  await page.click('#board [data-square="f3"]', { force: true });
  await page.click('#board [data-square="e5"]', { force: true });
  await page.waitForFunction(() => location.search.includes('moves='));
  await ready();
  await keys('ArrowRight', 5);
  await keys('ArrowLeft', 2);
  await record('board click Nxe5, 5 right, 2 left');

  // 5. the engine as it plays, its technique counts, and the last step
  await page.selectOption('#lab-algorithm', 'engine');
  await ready();
  await keys('End', 1);
  await record('engine, End');
  await keys('Home', 1);
  await keys('ArrowRight', 3);
  await record('engine, Home, 3 steps');

  if (screenshot) {
    await page.selectOption('#lab-example', '0');
    await ready();
    await page.evaluate(() => { location.hash = '#step=60'; });
    await page.waitForFunction(() => document.getElementById('step-number').textContent === '60');
    await page.waitForTimeout(300);
    await page.screenshot({ path: screenshot, clip: { x: 0, y: 0, width: 1400, height: 1000 } });
  }
} catch (e) {
  failures.push(String(e && e.stack || e));
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
writeFileSync(out, JSON.stringify({ records, failures }, null, 1));
