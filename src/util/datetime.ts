/**
 * GSQL DATETIME values are seconds since the Unix epoch, UTC, printed as "YYYY-MM-DD HH:MM:SS".
 * TigerGraph's documented range is 1582-10-15 00:00:00 to 9999-12-31 23:59:59.
 */

export const DATETIME_MIN = Date.UTC(1582, 9, 15) / 1000;
export const DATETIME_MAX = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Formats epoch seconds as "YYYY-MM-DD HH:MM:SS" (UTC). */
export function formatDatetime(epochSeconds: number): string {
  const d = new Date(Math.trunc(epochSeconds) * 1000);
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)} ` +
    `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`
  );
}

// The formats TigerGraph's loader and REST++ accept: date, date + time with '-' or '/' separators,
// an optional 'T' between date and time, optional fractional seconds and a trailing 'Z'.
const DATETIME_RE =
  /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.\d+)?)?)?\s*[Zz]?$/;

/**
 * Parses a DATETIME string into epoch seconds, or returns undefined when the text is not a valid
 * date-time inside TigerGraph's range. A string of digits is read as epoch seconds.
 */
export function parseDatetime(text: string): number | undefined {
  const s = text.trim();
  if (/^-?\d+$/.test(s)) {
    const n = Number(s);
    return n >= DATETIME_MIN && n <= DATETIME_MAX ? n : undefined;
  }
  const m = DATETIME_RE.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h = 0, mi = 0, se = 0] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 59) return undefined;
  const ms = Date.UTC(y, mo - 1, d, h, mi, se);
  const check = new Date(ms);
  // Reject dates Date.UTC silently rolls over, such as February 30.
  if (check.getUTCDate() !== d || check.getUTCMonth() !== mo - 1) return undefined;
  const secs = ms / 1000;
  return secs >= DATETIME_MIN && secs <= DATETIME_MAX ? secs : undefined;
}
