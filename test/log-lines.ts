/** Reading the server's JSON log in tests: every line must be one JSON object. */
import assert from 'node:assert/strict';

export interface LogLine {
  level: string;
  time: string;
  msg: string;
  [field: string]: unknown;
}

/** The lines of a JSON log (blank lines skipped); a line that is not a JSON log line fails the test. */
export function logLines(text: string): LogLine[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      let v: unknown;
      try {
        v = JSON.parse(l);
      } catch {
        assert.fail(`not a JSON log line: ${l}`);
      }
      const line = v as LogLine;
      assert.equal(typeof line.level, 'string', l);
      assert.equal(typeof line.time, 'string', l);
      assert.equal(typeof line.msg, 'string', l);
      return line;
    });
}

/** A pino destination collecting lines (for a server run in-process). */
export function collectingDestination(): { write(line: string): void; text(): string } {
  let all = '';
  return { write: (line) => void (all += line), text: () => all };
}
