/**
 * A social-network-shaped data set written as CSV: persons with STRING ids ("p123"), a STRING
 * name, a DATETIME birthday and creation time, and a LIST<STRING> of interests ("a;b;c"); and
 * `knows` edges between persons (a DATETIME `since`), drawn with a preferential-attachment tilt so
 * that degrees are skewed as in real social graphs. Deterministic for a seed.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { Rng } from './rmat.js';

export interface SocialFiles {
  persons: number;
  knows: number;
  /** Total bytes written. */
  bytes: number;
}

const TOPICS = [
  'music',
  'chess',
  'hiking',
  'cooking',
  'film',
  'rust',
  'gardening',
  'cycling',
  'poetry',
  'go',
];
const NAMES = ['Ada', 'Bo', 'Chen', 'Dana', 'Eli', 'Fatima', 'Goran', 'Hana', 'Ivo', 'Jun', 'Kemal', 'Lior'];

async function writeLines(path: string, count: number, line: (i: number) => string): Promise<number> {
  const out = createWriteStream(path);
  let buf = '';
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    buf += line(i);
    if (buf.length > 1 << 20) {
      bytes += Buffer.byteLength(buf);
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  bytes += Buffer.byteLength(buf);
  out.end(buf);
  await once(out, 'finish');
  return bytes;
}

function datetime(rng: Rng, fromYear: number, years: number): string {
  const t = Date.UTC(fromYear, 0, 1) + Math.floor(rng.next() * years * 365 * 86_400_000);
  return new Date(t).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * Writes `personPath` (id,name,birthday,created,interests) and `knowsPath` (from,to,since), both
 * comma-separated without a header; `degree` edges per person on average.
 */
export async function writeSocial(
  personPath: string,
  knowsPath: string,
  persons: number,
  degree = 10,
  seed = 11,
): Promise<SocialFiles> {
  const rng = new Rng(seed);
  let bytes = await writeLines(personPath, persons, (i) => {
    const k = 1 + rng.below(3);
    const interests: string[] = [];
    for (let j = 0; j < k; j++) interests.push(TOPICS[rng.below(TOPICS.length)]);
    return `p${i},${NAMES[i % NAMES.length]} ${i},${datetime(rng, 1950, 55)},${datetime(rng, 2008, 16)},${interests.join(';')}\n`;
  });
  const knows = persons * degree;
  // Squaring a uniform draw favours low ids: a few persons get many friends.
  const pick = (): number => Math.floor(rng.next() ** 2 * persons);
  bytes += await writeLines(
    knowsPath,
    knows,
    () => `p${rng.below(persons)},p${pick()},${datetime(rng, 2008, 16)}\n`,
  );
  return { persons, knows, bytes };
}
