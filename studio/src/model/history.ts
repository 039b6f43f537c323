/**
 * The editor's history of runs, newest first and bounded; kept per user in the browser's storage
 * as text only (results can be large and are not kept).
 */

export interface HistoryEntry {
  text: string;
  graph: string;
  /** ISO time of the run. */
  at: string;
  ok: boolean;
  /** One line: what ran and how it ended. */
  summary: string;
}

export const MAX_HISTORY = 50;

export function addToHistory(
  list: readonly HistoryEntry[],
  entry: HistoryEntry,
  max = MAX_HISTORY,
): HistoryEntry[] {
  // A rerun of the same text moves it to the top instead of repeating it.
  const rest = list.filter((e) => !(e.text === entry.text && e.graph === entry.graph));
  return [entry, ...rest].slice(0, max);
}

/** History read back from storage; anything malformed is dropped. */
export function parseHistory(stored: string | null): HistoryEntry[] {
  if (stored === null) return [];
  try {
    const v: unknown = JSON.parse(stored);
    if (!Array.isArray(v)) return [];
    return v.filter(
      (e): e is HistoryEntry =>
        e !== null &&
        typeof e === 'object' &&
        typeof e.text === 'string' &&
        typeof e.graph === 'string' &&
        typeof e.at === 'string' &&
        typeof e.ok === 'boolean' &&
        typeof e.summary === 'string',
    );
  } catch {
    return [];
  }
}

/** The first line of a text, shortened, for a history item's title. */
export function firstLine(text: string, max = 80): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
