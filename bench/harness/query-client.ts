/**
 * Runs an installed GSQL query the fastest way the server offers: REST++ `GET /query/{g}/{q}` when
 * it is served, otherwise `RUN QUERY` through the gsql shell transport (and says so, since that
 * path adds a text round trip the HTTP endpoint does not have).
 */
import { Agent, get } from 'node:http';
import { LONG_TIMEOUT_MS, type OcelotServer } from './server.js';

/**
 * node:http rather than fetch: fetch gives up on a response whose headers take over 300 s. One
 * keep-alive connection, as a client session (pyTigerGraph's requests.Session) keeps, and a
 * one-hour GSQL-TIMEOUT: the default 16 s would stop whole-graph queries on large scales.
 */
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/**
 * A GET on the kept-alive connection; once more on a fresh connection when the server had closed
 * the idle one just as the request left (its keep-alive timeout ran out during a peer's turn).
 */
async function getText(url: string): Promise<string> {
  try {
    return await getOnce(url, keepAlive);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ECONNRESET' && code !== 'EPIPE') throw e;
    return getOnce(url, false);
  }
}

function getOnce(url: string, agent: Agent | false): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, { agent, headers: { 'GSQL-TIMEOUT': String(LONG_TIMEOUT_MS) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve(text));
      res.on('error', reject);
    }).on('error', reject);
  });
}

export type QueryResults = Record<string, unknown>[];
export type QueryParam = string | number | (string | number)[];

export interface QueryClient {
  /** 'REST++ /query' or 'gsql shell RUN QUERY'. */
  via: string;
  /** A list value is a SET/LIST parameter (its key repeated in the query string). */
  run(name: string, params: Record<string, QueryParam>): Promise<QueryResults>;
}

function parseEnvelope(text: string, what: string): QueryResults {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) throw new Error(`${what}: no JSON in the answer: ${text.slice(0, 200)}`);
  const env = JSON.parse(text.slice(start, end + 1)) as {
    error?: boolean;
    message?: string;
    results?: QueryResults;
  };
  if (env.error) throw new Error(`${what}: ${env.message ?? 'error'}`);
  return env.results ?? [];
}

/** `probe` names an installed query that refuses to run without parameters. */
export async function queryClient(server: OcelotServer, graph: string, probe: string): Promise<QueryClient> {
  const answer = await fetch(`${server.urls.restpp}/query/${graph}/${probe}`);
  const body = await answer.text();
  // A served endpoint answers with a parameter error; an unserved one is REST-1000.
  const served = !(answer.status === 404 && body.includes('REST-1000'));
  if (served) {
    return {
      via: 'REST++ /query',
      run: async (name, params) => {
        const qs = new URLSearchParams(
          Object.entries(params).flatMap(([k, v]): [string, string][] =>
            (Array.isArray(v) ? v : [v]).map((x) => [k, String(x)]),
          ),
        );
        const text = await getText(`${server.urls.restpp}/query/${graph}/${name}?${qs.toString()}`);
        return parseEnvelope(text, `GET /query/${graph}/${name}`);
      },
    };
  }
  const session = await server.session(graph);
  return {
    via: 'gsql shell RUN QUERY (GET /query not served yet)',
    run: async (name, params) => {
      const args = Object.values(params)
        .map((v) => (Array.isArray(v) ? `[${v.map((x) => JSON.stringify(x)).join(', ')}]` : v))
        .join(', ');
      return parseEnvelope(await session.run(`RUN QUERY ${name}(${args})`), `RUN QUERY ${name}`);
    },
  };
}
