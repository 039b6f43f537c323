/**
 * The calls the Studio makes, by what they are for. Everything but the login is one of Ocelot's
 * public HTTP APIs (GSQL server and REST++), called exactly as any other client would.
 */
import {
  ApiError,
  getEnvelope,
  postEnvelope,
  postText,
  uploadWithProgress,
  type Envelope,
} from './client.js';
import { parseSchema, type SchemaInfo } from '../model/schema.js';
import { paramsFromSignature, type QueryParam } from '../model/query-params.js';
import { parseLoadingJobs, type LoadingJobInfo } from '../model/loading-jobs.js';
import { vertexListPath, type VertexListRequest } from '../model/vertex-query.js';

export interface StudioGraph {
  name: string;
  roles: string[];
}

export interface Session {
  user: string;
  expiresAt: string;
  graphs: StudioGraph[];
}

export interface InstalledQuery {
  name: string;
  installed: boolean;
  params: QueryParam[];
  code: string;
}

const g = encodeURIComponent;

export async function login(username: string, password: string): Promise<Session> {
  const env = await postEnvelope<Session>(
    '/studio/api/login',
    JSON.stringify({ username, password }),
    'application/json',
  );
  return env.results;
}

/** The session of this browser, or null when nobody is logged in. */
export async function currentSession(): Promise<Session | null> {
  const r = (await getEnvelope<Session & { loggedIn: boolean }>('/studio/api/session')).results;
  return r.loggedIn ? r : null;
}

export async function logout(): Promise<void> {
  await postEnvelope('/studio/api/logout', '');
}

export async function loadSchema(graph: string): Promise<SchemaInfo> {
  return parseSchema((await getEnvelope(`/gsql/v1/schema/graphs/${g(graph)}`)).results);
}

/** Counts per vertex type and per edge type (REST++ /builtins). */
export async function typeCounts(graph: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [fn, key] of [
    ['stat_vertex_number', 'v_type'],
    ['stat_edge_number', 'e_type'],
  ] as const) {
    const env = await postEnvelope<{ [k: string]: unknown; count: number }[]>(
      `/restpp/builtins/${g(graph)}`,
      JSON.stringify({ function: fn, type: '*' }),
      'application/json',
    );
    for (const row of env.results) if (typeof row[key] === 'string') out.set(row[key] as string, row.count);
  }
  return out;
}

export async function installedQueries(graph: string): Promise<InstalledQuery[]> {
  const env = await getEnvelope<unknown[]>(`/gsql/v1/queries/info?graph=${g(graph)}`);
  return env.results.map((r) => {
    const o = (r ?? {}) as Record<string, unknown>;
    return {
      name: String(o.name ?? ''),
      installed: o.installed === true,
      params: paramsFromSignature(o.input),
      code: typeof o.code === 'string' ? o.code : '',
    };
  });
}

export async function interpretQuery(graph: string, text: string, query: string): Promise<Envelope> {
  return postEnvelope(`/gsql/v1/queries/interpret?graph=${g(graph)}${query ? `&${query}` : ''}`, text);
}

export async function runInstalledQuery(graph: string, name: string, query: string): Promise<Envelope> {
  return getEnvelope(`/restpp/query/${g(graph)}/${g(name)}${query ? `?${query}` : ''}`);
}

export async function runStatements(script: string): Promise<string> {
  return postText('/gsql/v1/statements', script);
}

/** Creates (or replaces) the query of a CREATE QUERY text and installs it. */
export async function installQuery(graph: string, name: string, text: string): Promise<string> {
  const created = await postEnvelope(`/gsql/v1/queries?graph=${g(graph)}`, text);
  const installed = await postEnvelope<{ queries?: { name: string; state: string; message?: string }[] }>(
    `/gsql/v1/queries/install?graph=${g(graph)}&queries=${g(name)}`,
    '',
  );
  // The request succeeds as a whole even when the query does not install: its own state says.
  const state = installed.results.queries?.find((q) => q.name === name);
  if (state && state.state !== 'SUCCESS')
    throw new ApiError(state.message ?? `The query ${name} did not install (${state.state}).`);
  return [created.message, installed.message].filter((m) => m !== '').join('\n');
}

/** Edges of one vertex (REST++), at most `limit`. */
export async function vertexEdges(
  graph: string,
  type: string,
  id: string,
  limit: number,
): Promise<unknown[]> {
  const env = await getEnvelope<unknown[]>(
    `/restpp/graph/${g(graph)}/edges/${g(type)}/${g(id)}?limit=${limit}`,
  );
  return env.results;
}

export async function vertexById(graph: string, type: string, id: string): Promise<unknown[]> {
  return (await getEnvelope<unknown[]>(`/restpp/graph/${g(graph)}/vertices/${g(type)}/${g(id)}`)).results;
}

export async function listVertices(r: VertexListRequest): Promise<unknown[]> {
  return (await getEnvelope<unknown[]>(vertexListPath(r))).results;
}

export async function loadingJobs(graph: string): Promise<LoadingJobInfo[]> {
  const text = await runStatements(`USE GRAPH ${graph}\nSHOW JOB *\n`);
  return parseLoadingJobs(text).filter((j) => j.graph === undefined || j.graph === graph);
}

export interface LoadStatistics {
  sourceFileName?: string;
  statistics?: {
    validLine?: number;
    rejectLine?: number;
    vertex?: { typeName: string; validObject: number }[];
    edge?: { typeName: string; validObject: number }[];
  };
}

export function loadFile(
  graph: string,
  job: string,
  filename: string,
  file: Blob,
  onProgress: (fraction: number) => void,
): Promise<Envelope<LoadStatistics[]>> {
  return uploadWithProgress<LoadStatistics[]>(
    `/restpp/ddl/${g(graph)}?tag=${g(job)}&filename=${g(filename)}`,
    file,
    onProgress,
  );
}
