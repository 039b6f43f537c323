/**
 * How long the bounded reliability runs last: 1 in `npm test`; soak.ts sets OCELOT_SOAK_SCALE to
 * run the same tests longer (more iterations, longer time limits).
 */
export function soakScale(): number {
  const n = Number(process.env.OCELOT_SOAK_SCALE ?? '1');
  return Number.isFinite(n) && n >= 1 ? Math.floor(n) : 1;
}
