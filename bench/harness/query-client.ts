/**
 * Runs an installed GSQL query the fastest way the server offers: REST++ `GET /query/{g}/{q}` when
 * it is served, otherwise `RUN QUERY` through the gsql shell transport (and says so, since that
 * path adds a text round trip the HTTP endpoint does not have).
 */
import type { OcelotServer } from './server.js';

export type QueryResults = Record<string, unknown>[];

export interface QueryClient {
  /** 'REST++ /query' or 'gsql shell RUN QUERY'. */
  via: string;
  run(name: string, params: Record<string, string | number>): Promise<QueryResults>;
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

export async function queryClient(server: OcelotServer, graph: string): Promise<QueryClient> {
  const probe = await fetch(`${server.urls.restpp}/query/${graph}/__ocelot_bench_probe__`);
  const body = await probe.text();
  // An unknown query on a served endpoint is a query error; an unserved endpoint is REST-1000.
  const served = !(probe.status === 404 && body.includes('REST-1000'));
  if (served) {
    return {
      via: 'REST++ /query',
      run: async (name, params) => {
        const qs = new URLSearchParams(
          Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
        );
        const res = await fetch(`${server.urls.restpp}/query/${graph}/${name}?${qs.toString()}`);
        return parseEnvelope(await res.text(), `GET /query/${graph}/${name}`);
      },
    };
  }
  const session = await server.session(graph);
  return {
    via: 'gsql shell RUN QUERY (GET /query not served yet)',
    run: async (name, params) => {
      const args = Object.values(params).join(', ');
      return parseEnvelope(await session.run(`RUN QUERY ${name}(${args})`), `RUN QUERY ${name}`);
    },
  };
}
