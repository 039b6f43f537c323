/**
 * GraphiQL in headless Chromium: the offline page loads (every request stays on our server), runs
 * a query against the service, and its Schema button shows the SDL. Skipped when Chromium is absent.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { startServers, type RunningServers } from '../../../src/server/start.js';
import { openFixture, type Fixture } from '../../graphql/fixture.js';

const CHROMIUM = '/usr/bin/chromium';
const BASIC = `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}`;
/** The little of the browser's DOM the page functions use (the test compiles without the DOM lib). */
interface Dom {
  document: { querySelector(selector: string): unknown };
}
interface Editor {
  CodeMirror: { setValue(v: string): void; getValue(): string };
}

const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed`;

let f: Fixture;
let s: RunningServers;
let browser: Browser;

before(async () => {
  if (skip) return;
  f = await openFixture();
  s = await startServers({
    database: f.db,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    graphqlPort: 0,
    graphqlGraph: 'Social',
    log: () => {},
  });
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
});
after(async () => {
  if (skip) return;
  await browser.close();
  await s.close();
  await f.close();
});

for (const listener of ['graphql', 'gsql'] as const) {
  test(
    `GraphiQL on the ${listener} listener runs a query and shows the SDL`,
    { skip, timeout: 20_000 },
    async () => {
      const base = s.urls[listener];
      const page_ = listener === 'graphql' ? `${base}/` : `${base}/graphql/Social`;
      const context = await browser.newContext({ extraHTTPHeaders: { authorization: BASIC } });
      const page = await context.newPage();
      const foreign: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(base) && !r.url().startsWith('data:')) foreign.push(r.url());
      });
      const pageErrors: string[] = [];
      page.on('pageerror', (e) => pageErrors.push(e.message));
      try {
        await page.goto(page_);
        await page.waitForSelector('.graphiql-query-editor .CodeMirror', { timeout: 10_000 });
        const query = '{ Social { city(order_by: {population: desc}, limit: 1) { name } } }';
        await page.evaluate((q) => {
          const el = (globalThis as unknown as Dom).document.querySelector(
            '.graphiql-query-editor .CodeMirror',
          ) as Editor;
          el.CodeMirror.setValue(q);
        }, query);
        await page.click('.graphiql-execute-button');
        const result = await page.waitForFunction(
          () => {
            const el = (globalThis as unknown as Dom).document.querySelector(
              '.graphiql-response .CodeMirror',
            ) as Editor | null;
            const v = el?.CodeMirror.getValue() ?? '';
            return v.includes('"data"') ? v : false;
          },
          undefined,
          { timeout: 10_000 },
        );
        assert.deepEqual(JSON.parse(String(await result.jsonValue())), {
          data: { Social: { city: [{ name: 'san jose' }] } },
        });
        await page.click('button[aria-label="Show Schema"]');
        const sdl = await page.waitForSelector('[data-testid="sdl"]:has-text("type Query")', {
          timeout: 10_000,
        });
        const text = await sdl.textContent();
        assert.match(text ?? '', /^type Query \{\n {2}Social: Social\n\}/);
        assert.match(text ?? '', /\ntype born_in \{\n {2}birthday: Datetime\n/);
        assert.deepEqual(foreign, [], 'GraphiQL loads nothing from outside the server');
        assert.deepEqual(pageErrors, []);
      } finally {
        await context.close();
      }
    },
  );
}
