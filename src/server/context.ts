/**
 * What every route module receives: the Database, the server's options and the shared services of
 * the listeners (latency recorder, endpoint registry, credential check).
 */
import type { ClusterNode } from '../cluster/index.js';
import type { Database } from '../engine/database.js';
import type { GraphQLConfig } from './graphql/config.js';
import type { Logger } from '../util/logger.js';
import type { CredentialCheck } from './http/auth.js';
import type { LatencyRecorder } from './http/latency.js';
import type { EndpointRegistry } from './restpp/endpoint-registry.js';
import type { ScriptRunner } from './gsqlserver/script-runner.js';

export interface ServerContext {
  readonly db: Database;
  /** The TigerGraph release Ocelot reports (GET /version, /gsql/v1/version), `X.Y.Z`. */
  readonly tigergraphVersion: string;
  readonly credentialCheck: CredentialCheck;
  readonly recorder: LatencyRecorder;
  /** Every REST++ endpoint, for GET /endpoints. */
  readonly endpoints: EndpointRegistry;
  /** Runs GSQL shell text (the executor of src/shell). */
  readonly runScript: ScriptRunner;
  /** Where queries' FILE objects write (`--output-dir`); none: FILE output is refused. */
  readonly outputDir?: string;
  /** This server's cluster node (`--cluster`); none when it runs alone. */
  readonly cluster?: ClusterNode;
  /** Where loading jobs and queries read server-side files (`--import-dir`); none: refused. */
  readonly importDirs?: readonly string[];
  /** Where queries' LOG statements write (lines of the server log). */
  readonly log: (line: string) => void;
  /** GraphQL limits, introspection and allow-list (defaults when absent). */
  readonly graphql?: GraphQLConfig;
  /** Origins whose pages may call the server (`--cors-origin`; `*`: any, without credentials). */
  readonly corsOrigins?: readonly string[];
  /** The server's log. */
  readonly logger: Logger;
}
