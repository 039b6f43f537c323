/**
 * The REST++ endpoint list behind GET /endpoints/{graph}: route modules declare each endpoint with
 * its parameters when they register it, and modules that publish per-graph endpoints (installed
 * queries) add a provider.
 */

/** One parameter of an endpoint as /endpoints shows it. */
export interface ParamSpec {
  /** TigerGraph type name: BOOL, INT, UINT, STRING, … */
  type: string;
  default?: string;
  min_count?: number;
  max_count?: number;
}

/** The value of one key of the /endpoints map. */
export interface EndpointEntry {
  parameters: Record<string, { default?: string; max_count: number; min_count: number; type: string }>;
  [extra: string]: unknown;
}

/** `builtin`: system endpoints; `static`: user-installed (UDF-like) endpoints; `dynamic`: installed queries. */
export type EndpointKind = 'builtin' | 'static' | 'dynamic';

export type DynamicEndpointProvider = (graph: string | undefined) => Record<string, EndpointEntry>;

export class EndpointRegistry {
  private readonly declared = new Map<string, { kind: EndpointKind; entry: EndpointEntry }>();
  private readonly providers: DynamicEndpointProvider[] = [];

  /** Declares `<METHOD> <path>`; declaring it again (second listener) is a no-op. */
  declare(
    method: string,
    path: string,
    parameters: Record<string, ParamSpec> = {},
    kind: EndpointKind = 'builtin',
  ) {
    const key = `${method} ${path}`;
    if (this.declared.has(key)) return;
    const params: EndpointEntry['parameters'] = {};
    for (const [name, p] of Object.entries(parameters)) {
      params[name] = {
        ...(p.default === undefined ? {} : { default: p.default }),
        max_count: p.max_count ?? 1,
        min_count: p.min_count ?? 0,
        type: p.type,
      };
    }
    this.declared.set(key, { kind, entry: { parameters: params } });
  }

  addProvider(provider: DynamicEndpointProvider): void {
    this.providers.push(provider);
  }

  /** The endpoint map for a graph, limited to the given kinds. */
  list(graph: string | undefined, kinds: ReadonlySet<EndpointKind>): Record<string, EndpointEntry> {
    const out: Record<string, EndpointEntry> = {};
    for (const [key, { kind, entry }] of this.declared) if (kinds.has(kind)) out[key] = entry;
    if (kinds.has('dynamic')) for (const p of this.providers) Object.assign(out, p(graph));
    return out;
  }
}
