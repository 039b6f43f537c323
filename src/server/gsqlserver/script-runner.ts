/**
 * The GSQL shell executor as the transports see it: run a script for a session, writing output as
 * it is produced, and answer the gsql client's exit code (0 ok, 211 syntax, 212 runtime, …).
 * `USE GRAPH` changes `session.graph`.
 */
import type { Database } from '../../engine/database.js';

export interface ShellSession {
  user: string;
  graph?: string;
}

export type ScriptRunner = (
  text: string,
  session: ShellSession,
  out: (text: string) => void,
) => Promise<number>;

/** The GSQL shell executor over a Database. */
export function shellRunner(_db: Database): ScriptRunner {
  return async (_text, _session, out) => {
    out('The GSQL shell executor is not part of this build yet.\n');
    return 255;
  };
}
