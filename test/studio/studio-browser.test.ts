/**
 * Ocelot Studio in headless Chromium, as a new user would use it: log in, pick a graph, see every
 * vertex type in the schema view, run a query, see the same ids in the Table and Graph views,
 * expand a vertex, browse and load data, log out — with no console error and no request leaving
 * loopback (every request is intercepted and checked). Skipped when Chromium is absent.
 * With STUDIO_SCREENSHOTS=<dir>, a PNG of each view is written there (the README's pictures).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { runScript } from '../../src/shell/run-script.js';
import { startServers, type RunningServers } from '../../src/server/start.js';
import { openFixture, type Fixture } from '../graphql/fixture.js';

const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed`;
const SHOTS = process.env.STUDIO_SCREENSHOTS;
const WAIT = { timeout: 20_000 };

const SETUP = `
CREATE GRAPH Empty()
USE GRAPH Social
CREATE LOADING JOB load_schools FOR GRAPH Social {
  DEFINE FILENAME schools;
  LOAD schools TO VERTEX school VALUES ($0, $1) USING header="true", separator=",";
}
`;

const QUERY = `INTERPRET QUERY () FOR GRAPH Social {
  SetAccum<EDGE> @@born;
  People = {person.*};
  Cities = SELECT c FROM People:p -(born_in:e)-> city:c ACCUM @@born += e;
  PRINT People;
  PRINT Cities;
  PRINT @@born;
}`;

// Playwright's launch gives the browser a fresh temporary profile (user data directory) each time.
let f: Fixture | undefined;
let s: RunningServers | undefined;
let browser: Browser | undefined;

before(async () => {
  if (skip) return;
  const fixture = await openFixture();
  f = fixture;
  let out = '';
  const code = await runScript(fixture.db, SETUP, { user: 'tigergraph' }, (t) => (out += t));
  if (code !== 0) throw new Error(`setup failed: ${out}`);
  s = await startServers({ database: fixture.db, restppPort: 0, gsqlPort: 0, adminPort: 0, log: () => {} });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  if (SHOTS) await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  if (skip) return;
  // Whatever started is stopped, even when a start-up step failed.
  await browser?.close();
  await s?.close();
  await f?.close();
});

/** A picture of the page, or of one part of it (the README's pictures). */
async function shot(page: Page, name: string, part?: Locator): Promise<void> {
  if (!SHOTS) return;
  const path = join(SHOTS, `studio-${name}.png`);
  await (part ? part.screenshot({ path }) : page.screenshot({ path }));
}

/** `type id` of every vertex row of the Table view's tables. */
async function tableVertices(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const table of await page.getByTestId('result-table').all()) {
    const headers = await table.locator('thead th').allTextContents();
    const t = headers.indexOf('v_type');
    const i = headers.indexOf('v_id');
    if (t < 0 || i < 0) continue;
    for (const row of await table.locator('tbody tr').all()) {
      const cells = await row.locator('td').allTextContents();
      out.push(`${cells[t]} ${cells[i]}`);
    }
  }
  return [...new Set(out)].sort();
}

async function drawnVertices(page: Page): Promise<string[]> {
  return (await page.getByLabel('Vertices in the drawing').locator('option').allTextContents()).sort();
}

test(
  'a new user logs in, sees the schema, runs a query and explores it as a graph',
  { skip, timeout: 120_000 },
  async () => {
    assert.ok(s && browser);
    const origin = s.urls.gsql;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    // Every request the page makes passes here; one for anywhere but this server is stopped.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      requests.push(url);
      return url.startsWith(`${origin}/`) ? route.continue() : route.abort();
    });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    try {
      await page.goto(`${origin}/studio/`);
      await page.getByLabel('Username').fill('tigergraph');
      await page.getByLabel('Password').fill('tigergraph');
      await shot(page, 'login', page.locator('form'));
      await page.getByRole('button', { name: 'Log in' }).click();

      // The graph chooser offers the graphs with a role; pick one.
      const chooser = page.getByLabel('Graph', { exact: true });
      await chooser.waitFor(WAIT);
      assert.deepEqual((await chooser.locator('option').allTextContents()).sort(), ['Empty', 'Social']);
      await chooser.selectOption('Social');

      // Schema: every vertex type, drawn and listed; choosing one shows its details.
      await page.getByTestId('schema-type').first().waitFor(WAIT);
      await page.waitForFunction(
        () => {
          const doc = (
            globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
          ).document;
          return doc.querySelectorAll('[data-testid="schema-type"]').length === 5;
        },
        undefined,
        WAIT,
      );
      const types = (await page.getByTestId('schema-type').allTextContents()).map((t) =>
        t.replace(/[\d,]+$/, ''),
      );
      assert.deepEqual(types, ['person', 'city', 'company', 'school', 'badge']);
      assert.match(
        (await page.getByTestId('schema-diagram').getAttribute('aria-label')) ?? '',
        /Schema diagram of graph Social: 5 vertex types and 6 edge types/,
      );
      assert.ok((await page.getByTestId('schema-diagram').locator('canvas').count()) > 0);
      await page.getByTestId('schema-type').filter({ hasText: 'city' }).click();
      const details = page.getByRole('region', { name: 'Vertex type city' });
      await details.waitFor(WAIT);
      assert.match(
        (await details.textContent()) ?? '',
        /Primary idid STRING \(also an attribute\)Vertices3Indexesnone/,
      );
      await shot(page, 'schema');

      // GSQL, by keyboard: the view tabs move with the arrow keys; Ctrl+Enter runs.
      await page.getByRole('tab', { name: 'Schema' }).focus();
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.getByRole('tab', { name: 'GSQL' }).getAttribute('aria-selected'), 'true');
      const editor = page.getByRole('textbox', { name: 'GSQL' });
      await editor.click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.insertText(QUERY);
      await page.keyboard.press('ControlOrMeta+Enter');
      await page
        .getByRole('status')
        .filter({ hasText: /^Ran in \d+ ms\.$/ })
        .waitFor(WAIT);
      const json = JSON.parse((await page.getByTestId('result-json').textContent()) ?? '');
      assert.deepEqual(Object.keys(json[0]), ['People']);
      await shot(page, 'gsql');

      // The same vertices in the Table view and the Graph view.
      await page.getByRole('tab', { name: 'Table' }).click();
      const fromTable = await tableVertices(page);
      assert.deepEqual(fromTable, [
        'city mountain view',
        'city palo alto',
        'person Emily',
        'person Jenny',
        'person Kevin',
        'person Smith',
      ]);
      await shot(page, 'table', page.getByRole('region', { name: 'Result' }));
      await page.getByRole('tab', { name: 'Graph' }).click();
      await page.waitForFunction(
        (n) => {
          const doc = (
            globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
          ).document;
          return doc.querySelectorAll('#graph-vertices option').length === n;
        },
        fromTable.length,
        WAIT,
      );
      assert.deepEqual(await drawnVertices(page), fromTable);
      assert.match(
        (await page.getByTestId('result-graph').getAttribute('aria-label')) ?? '',
        /^Result graph: 6 vertices and 3 edges\./,
      );
      const legend = await page.getByRole('list', { name: 'Legend' }).textContent();
      assert.match(legend ?? '', /person\s*4.*city\s*2.*born_in\s*3/);

      // Choose a vertex: its attributes. Expand it: its neighbours through REST++.
      await page.getByLabel('Vertices in the drawing').selectOption({ label: 'person Jenny' });
      const selection = page.getByRole('region', { name: 'person Jenny' });
      await selection.waitFor(WAIT);
      assert.match((await selection.textContent()) ?? '', /birthYear1995/);
      await page.getByRole('button', { name: 'Expand' }).click();
      // Jenny's friends were drawn already; her badge and the friendships are new.
      await page.getByText('Added 1 vertex and 4 edges around person Jenny.').waitFor(WAIT);
      const expanded = await drawnVertices(page);
      assert.deepEqual(
        expanded.filter((v) => !fromTable.includes(v)),
        ['badge 7'],
      );
      assert.match(
        (await page.getByTestId('result-graph').getAttribute('aria-label')) ?? '',
        /^Result graph: 7 vertices and 7 edges\./,
      );
      await shot(page, 'graph', page.getByRole('region', { name: 'Result' }));

      // Data: browse with a filter and sorting; load a CSV through a loading job.
      await page.getByRole('tab', { name: 'Data' }).click();
      await page.getByLabel('Vertex type').selectOption('person');
      await page.getByRole('button', { name: 'Add a filter' }).click();
      await page.getByLabel('Attribute of filter 1').selectOption('birthYear');
      await page.getByLabel('Comparison of filter 1').selectOption('>');
      await page.getByLabel('Value of filter 1').fill('1980');
      await page.getByLabel('Sort by').selectOption('birthYear');
      await page.getByLabel('Descending').check();
      await page.getByRole('button', { name: 'Show vertices' }).click();
      const browse = page.getByRole('region', { name: 'Browse vertices' }).getByTestId('result-table');
      await browse.waitFor(WAIT);
      const ids = await browse.locator('tbody tr td:nth-child(2)').allTextContents();
      assert.deepEqual(ids, ['Emily', 'Jenny', 'Kevin']);
      await page.getByLabel('Loading job').selectOption('load_schools');
      assert.equal(await page.getByLabel('Filename variable').inputValue(), 'schools');
      await page.getByLabel('CSV file', { exact: true }).setInputFiles({
        name: 'schools.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('id,name\ns2,MIT\ns3,CMU\n'),
      });
      await page.getByRole('button', { name: 'Load', exact: true }).click();
      await page.getByText('Loaded schools.csv through load_schools.').waitFor(WAIT);
      const stats = await page.getByRole('table', { name: 'Loading statistics' }).textContent();
      assert.match(stats ?? '', /Valid lines2Rejected lines0Vertices school2/);
      await shot(page, 'data');

      // Reopening the Schema view reads the counts again (3 schools now).
      await page.getByRole('tab', { name: 'Schema' }).click();
      await page
        .getByTestId('schema-type')
        .filter({ hasText: /^school3$/ })
        .waitFor(WAIT);

      await page.getByRole('button', { name: 'Log out' }).click();
      await page.getByRole('button', { name: 'Log in' }).waitFor(WAIT);

      assert.deepEqual(consoleErrors, []);
      assert.ok(requests.length > 10);
      assert.deepEqual(
        requests.filter((u) => !u.startsWith('http://127.0.0.1:')),
        [],
        'every request stays on loopback',
      );
    } finally {
      await context.close();
    }
  },
);

test(
  'errors are marked at their line and column; Install, then RUN QUERY with a parameter form',
  { skip, timeout: 120_000 },
  async () => {
    assert.ok(s && browser);
    const origin = s.urls.gsql;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route('**/*', (route) =>
      route.request().url().startsWith(`${origin}/`) ? route.continue() : route.abort(),
    );
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    try {
      await page.goto(`${origin}/studio/`);
      await page.getByLabel('Username').fill('tigergraph');
      await page.getByLabel('Password').fill('tigergraph');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByLabel('Graph', { exact: true }).selectOption('Social');
      await page.getByRole('tab', { name: 'GSQL' }).click();
      const editor = page.getByRole('textbox', { name: 'GSQL' });
      const write = async (text: string) => {
        await editor.click();
        await page.keyboard.press('ControlOrMeta+a');
        await page.keyboard.insertText(text);
      };

      // A syntax error: shown with its position, and marked in the editor at that place.
      await write('INTERPRET QUERY () FOR GRAPH Social {\n  S = {person.*}\n  PRINT S;\n}');
      await page.getByRole('button', { name: 'Run' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor(WAIT);
      assert.match(
        (await alert.textContent()) ?? '',
        /^Line 3, column 3: Syntax Error: line 3, column 3: expected ";" but found "PRINT"/,
      );
      const marked = page.locator('.cm-lintRange-error');
      await marked.waitFor(WAIT);
      assert.equal(await marked.textContent(), 'PRINT');

      // Install a CREATE QUERY text; it is listed; choosing it builds a form from its signature.
      await write(
        'CREATE QUERY born_after(INT year, STRING note = "x") FOR GRAPH Social {\n' +
          '  S = SELECT p FROM person:p WHERE p.birthYear > year;\n  PRINT S;\n}',
      );
      assert.equal(await page.locator('.cm-lintRange-error').count(), 0);
      await page.getByRole('button', { name: 'Install' }).click();
      const listed = page
        .getByRole('list', { name: 'Installed queries' })
        .getByRole('button', { name: 'born_after', exact: true });
      await listed.waitFor(WAIT);
      await listed.click();
      assert.equal(await editor.textContent(), 'RUN QUERY born_after()');
      const form = page.getByRole('group', { name: 'Parameters of born_after' });
      await form.waitFor(WAIT);
      await form.getByLabel('year').fill('1992');
      await page.getByRole('button', { name: 'Run' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /^Ran in \d+ ms\.$/ })
        .waitFor(WAIT);
      await page.getByRole('tab', { name: 'Table' }).click();
      const table = page.getByTestId('result-table');
      await table.waitFor(WAIT);
      assert.deepEqual((await table.locator('tbody tr td:nth-child(2)').allTextContents()).sort(), [
        'Emily',
        'Jenny',
      ]);
      // The history lists both runs, newest first.
      const history = await page.getByRole('list', { name: 'History' }).getByRole('button').allTextContents();
      assert.match(history[0], /^RUN QUERY born_after\(\)Ran born_after in \d+ ms/);
      assert.ok(
        history.some((h) => h.startsWith('CREATE QUERY born_after') && h.includes('Installed born_after')),
      );
      assert.ok(history.some((h) => h.includes('Failed: Syntax Error')));
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  },
);
