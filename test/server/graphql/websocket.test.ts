/**
 * GraphQL over WebSocket with the real graphql-ws client, on both listeners' API paths:
 * subscriptions streaming committed changes, queries and mutations over the same socket,
 * credentials from connection_init or the upgrade, refusals (wrong credentials, a foreign page's
 * origin), and exact 64-bit integers on the wire.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { BASIC, serveFixture } from './serve-fixture.js';

const served = serveFixture({ servers: [{ corsOrigins: ['https://app.example.com'] }] });

const ws = (base: string, path: string) => `${base.replace(/^http/, 'ws')}${path}`;

function client(url: string, params?: Record<string, unknown>, socket: typeof WebSocket = WebSocket): Client {
  return createClient({ url, webSocketImpl: socket, connectionParams: params, retryAttempts: 0, lazy: true });
}

/** Runs one operation to completion and returns what it produced (or its error). */
function once(c: Client, query: string): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const out: unknown[] = [];
    c.subscribe({ query }, { next: (v) => out.push(v), error: reject, complete: () => resolve(out) });
  });
}

test('a subscription streams committed inserts, updates and deletes; queries and mutations share the socket', async () => {
  const c = client(ws(served.urls.gsql, '/api/graphql/gsql/Social'), { Authorization: BASIC });
  try {
    const events: unknown[] = [];
    let done: () => void = () => {};
    const three = new Promise<void>((resolve) => (done = resolve));
    const stop = c.subscribe(
      {
        query:
          'subscription { city_changed(where: {population: {_gt: 1000}}) { op id node { name population } } }',
      },
      {
        next: (v) => {
          events.push(v);
          if (events.length === 3) done();
        },
        error: (e) => assert.fail(String(e)),
        complete: () => {},
      },
    );
    // The subscription is live once the server acknowledged it: a query on the same socket answers after it.
    assert.deepEqual(await once(c, '{ Social { school { name } } }'), [
      { data: { Social: { school: [{ name: 'Stanford' }] } } },
    ]);
    assert.deepEqual(
      await once(
        c,
        'mutation { Social { insert_city(objects: [{id: "oslo", name: "Oslo", population: 700000}]) { id } } }',
      ),
      [{ data: { Social: { insert_city: [{ id: 'oslo' }] } } }],
    );
    await served.db.write((tx) =>
      tx.upsertVertex('city', 'hamlet', { population: { value: 12, op: 'set' } }),
    );
    await served.db.write((tx) =>
      tx.upsertVertex('city', 'oslo', { population: { value: 710000, op: 'set' } }),
    );
    await served.db.write((tx) => tx.deleteVertex('city', 'oslo'));
    await three;
    stop();
    assert.deepEqual(events, [
      { data: { city_changed: { op: 'insert', id: 'oslo', node: { name: 'Oslo', population: 700000 } } } },
      { data: { city_changed: { op: 'update', id: 'oslo', node: { name: 'Oslo', population: 710000 } } } },
      { data: { city_changed: { op: 'delete', id: 'oslo', node: { name: 'Oslo', population: 710000 } } } },
    ]);
  } finally {
    await c.dispose();
  }
});

test('credentials from the upgrade request work on the one-graph listener too', async () => {
  class WithAuth extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { authorization: BASIC } });
    }
  }
  const c = client(ws(served.urls.graphql, '/graphql'), undefined, WithAuth as typeof WebSocket);
  try {
    assert.deepEqual(await once(c, '{ Social { badge { label } } }'), [
      { data: { Social: { badge: [{ label: 'gold' }] } } },
    ]);
  } finally {
    await c.dispose();
  }
});

test('wrong credentials close the connection with 4403; a foreign origin is refused at the upgrade', async () => {
  const wrong = client(ws(served.urls.gsql, '/graphql/Social'), {
    Authorization: `Basic ${Buffer.from('tigergraph:nope').toString('base64')}`,
  });
  await assert.rejects(once(wrong, '{ Social { __typename } }'), (e: { code?: number; reason?: string }) => {
    assert.equal(e.code, 4403);
    assert.equal(e.reason, 'Forbidden');
    return true;
  });
  await wrong.dispose();
  const foreign = await new Promise<number>((resolve) => {
    const sock = new WebSocket(ws(served.urls.gsql, '/graphql/Social'), 'graphql-transport-ws', {
      origin: 'https://evil.example',
      headers: { authorization: BASIC },
    });
    sock.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    sock.on('open', () => resolve(101));
    sock.on('error', () => {});
  });
  assert.equal(foreign, 403);
  const listed = await new Promise<number>((resolve) => {
    const sock = new WebSocket(ws(served.urls.gsql, '/graphql/Social'), 'graphql-transport-ws', {
      origin: 'https://app.example.com',
    });
    sock.on('open', () => {
      sock.close();
      resolve(101);
    });
    sock.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
  });
  assert.equal(listed, 101);
});

test('the wire carries 64-bit integers exactly', async () => {
  const text = await new Promise<string>((resolve, reject) => {
    const sock = new WebSocket(ws(served.urls.gsql, '/api/graphql/gsql/Social'), 'graphql-transport-ws');
    sock.on('open', () =>
      sock.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: BASIC } })),
    );
    sock.on('message', (m) => {
      const msg = String(m);
      if (msg.includes('connection_ack')) {
        sock.send(
          JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ Social { badge { big } } }' } }),
        );
      } else if (msg.includes('"next"')) {
        sock.close();
        resolve(msg);
      }
    });
    sock.on('error', reject);
  });
  assert.equal(
    text,
    '{"id":"1","type":"next","payload":{"data":{"Social":{"badge":[{"big":18446744073709551615}]}}}}',
  );
});
