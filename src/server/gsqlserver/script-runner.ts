/**
 * The GSQL shell executor as the transports see it: run a script for a session, writing output as
 * it is produced, and answer the gsql client's exit code (0 ok, 211 syntax, 212 runtime, …).
 * `USE GRAPH` changes `session.graph`.
 */
import type { Database } from '../../engine/database.js';
import { runScript, type ShellOptions, type ShellSession } from '../../shell/run-script.js';

export type { ShellSession };

export type ScriptRunner = (
  text: string,
  session: ShellSession,
  out: (text: string) => void,
) => Promise<number>;

/**
 * The GSQL shell executor (src/shell) over a Database: loading jobs and query inputs read under the
 * import directories, RUN QUERY writes FILE output into the output directory and LOG lines to log.
 */
export function shellRunner(db: Database, options: ShellOptions = {}): ScriptRunner {
  return (text, session, out) => runScript(db, text, session, out, options);
}
