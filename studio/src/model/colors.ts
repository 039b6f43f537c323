/**
 * A colour per type, stable for a schema (types take colours in schema order) and distinguishable
 * for colour-blind readers first (Okabe–Ito), then further hues.
 */

export const PALETTE: readonly string[] = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#7F7F7F',
  '#882255',
  '#44AA99',
  '#117733',
  '#AA4499',
  '#332288',
  '#DDCC77',
  '#999933',
  '#661100',
];

/** Type name -> colour; types beyond the palette reuse it in order. */
export function typeColors(types: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of types) if (!out.has(t)) out.set(t, PALETTE[out.size % PALETTE.length]);
  return out;
}

/** The colour of a type, falling back to a hash of its name for types the schema did not list. */
export function colorOf(colors: ReadonlyMap<string, string>, type: string): string {
  const known = colors.get(type);
  if (known !== undefined) return known;
  let h = 0;
  for (let i = 0; i < type.length; i++) h = (h * 31 + type.charCodeAt(i)) >>> 0;
  return PALETTE[h % PALETTE.length];
}
