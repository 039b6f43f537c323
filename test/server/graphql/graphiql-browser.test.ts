/**
 * GraphiQL in headless Chromium, logged in the way a person logs in: the browser meets the page's
 * Basic challenge and answers it with the user's credentials (Playwright's httpCredentials stand in
 * for the login dialog; no Authorization header is set by the test). The offline page then loads
 * (every request stays on our server), Run answers a query, the Docs explorer reads the schema,
 * and the Schema button shows the SDL — the API lying in the path space the browser authenticated,
 * so none of its requests meets a 401. Skipped when Chromium is absent.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { scaled } from '../../timing.js';
import { serveFixture } from './serve-fixture.js';

const CHROMIUM = '/usr/bin/chromium';
/** The little of the browser's DOM the page functions use (the test compiles without the DOM lib). */
interface Dom {
  document: { querySelector(selector: string): unknown };
}
interface Editor {
  CodeMirror: { setValue(v: string): void; getValue(): string };
}

const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed`;

let browser: Browser;

// The browser's hooks come first, so it closes before the servers do.
before(async () => {
  if (skip) return;
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
});
const served = serveFixture({ skip: skip !== false });

for (const listener of ['graphql', 'gsql'] as const) {
  test(
    `GraphiQL on the ${listener} listener runs a query and shows the SDL`,
    { skip, timeout: scaled(60_000) },
    async () => {
      const base = served.urls[listener];
      const page_ = listener === 'graphql' ? `${base}/` : `${base}/graphql/Social`;
      const context = await browser.newContext({
        httpCredentials: { username: 'tigergraph', password: 'tigergraph' },
      });
      const page = await context.newPage();
      const foreign: string[] = [];
      /** Requests as sent: method, path, status, and whether the credentials went with the first try. */
      const sent: Promise<string>[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(base) && !r.url().startsWith('data:')) foreign.push(r.url());
      });
      page.on('requestfinished', (r) =>
        sent.push(
          (async () => {
            const auth = (await r.allHeaders()).authorization === undefined ? 'without' : 'with';
            return `${r.method()} ${new URL(r.url()).pathname} ${(await r.response())?.status()} ${auth}`;
          })(),
        ),
      );
      const pageErrors: string[] = [];
      page.on('pageerror', (e) => pageErrors.push(e.message));
      try {
        const loaded = await page.goto(page_);
        assert.equal(loaded?.status(), 200);
        await page.waitForSelector('.graphiql-query-editor .CodeMirror', { timeout: scaled(30_000) });
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
          { timeout: scaled(30_000) },
        );
        assert.deepEqual(JSON.parse(String(await result.jsonValue())), {
          data: { Social: { city: [{ name: 'san jose' }] } },
        });
        await page.click('button[aria-label="Show Documentation Explorer"]');
        await page.waitForSelector('.graphiql-doc-explorer :text("Social")', { timeout: scaled(30_000) });
        await page.click('button[aria-label="Show Schema"]');
        const sdl = await page.waitForSelector('[data-testid="sdl"]:has-text("type Query")', {
          timeout: scaled(30_000),
        });
        const text = await sdl.textContent();
        assert.match(text ?? '', /^type Query \{\n {2}Social: Social\n\}/);
        assert.match(text ?? '', /\ntype born_in \{\n {2}birthday: Datetime\n/);
        assert.deepEqual(foreign, [], 'GraphiQL loads nothing from outside the server');
        assert.deepEqual(pageErrors, []);
        // Every call of the API (the schema's introspection, Run) went out with the credentials
        // of the login at once: the API lies in the path space the browser authenticated.
        const api = listener === 'graphql' ? '/graphql' : '/graphql/Social';
        const calls = (await Promise.all(sent)).filter((x) => x.startsWith(`POST ${api} `));
        assert.ok(calls.length >= 2, `Run and the introspection: ${calls.join(', ')}`);
        assert.deepEqual(new Set(calls), new Set([`POST ${api} 200 with`]));
      } finally {
        await context.close();
      }
    },
  );
}
