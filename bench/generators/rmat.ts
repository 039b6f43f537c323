/**
 * Graph500-style RMAT (Kronecker) edge generator: N = 2^scale vertices, edgeFactor·N edges, initiator
 * A=0.57, B=0.19, C=0.19 (D=0.05), then vertex labels and edge order randomly permuted. Deterministic
 * for a seed (small xorshift PRNGs), written from the published specification.
 */

/**
 * A seeded generator of 32-bit draws and floats in [0, 1). (The xorshift128+ this replaced ran its
 * 64-bit shifts on 32-bit words and repeated after about 4,100 draws: the social CSV had 1,901
 * distinct knows edges in 1M lines.)
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number) {
    // The four state words from splitmix32 over the seed (never all zero).
    let s = seed >>> 0;
    const mix = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = Math.imul(s ^ (s >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix() || 1;
  }
  /** Marsaglia's xorshift128 (period 2^128 - 1). */
  nextU32(): number {
    const t = this.a ^ (this.a << 11);
    this.a = this.b;
    this.b = this.c;
    this.c = this.d;
    this.d = (this.d ^ (this.d >>> 19) ^ t ^ (t >>> 8)) >>> 0;
    return this.d;
  }
  next(): number {
    return this.nextU32() / 4294967296;
  }
  /** Uniform integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }
}

export interface RmatGraph {
  vertices: number;
  src: Uint32Array;
  dst: Uint32Array;
}

export function rmat(scale: number, edgeFactor = 16, seed = 1): RmatGraph {
  const n = 2 ** scale;
  const m = edgeFactor * n;
  // One draw per level picks the quadrant with probabilities A, B, C, D — the same distribution as
  // Graph500's two draws per level (ii bit, then jj bit conditioned on it).
  const tA = 0.57 * 4294967296;
  const tAB = (0.57 + 0.19) * 4294967296;
  const tABC = (0.57 + 0.19 + 0.19) * 4294967296;
  const rng = new Rng(seed);
  const src = new Uint32Array(m);
  const dst = new Uint32Array(m);
  // xorshift32 inlined: this loop makes scale draws per edge.
  let x = rng.nextU32() | 1;
  for (let e = 0; e < m; e++) {
    let i = 0;
    let j = 0;
    for (let bit = 0; bit < scale; bit++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      const r = x >>> 0;
      if (r >= tA) {
        if (r < tAB) j |= 1 << bit;
        else if (r < tABC) i |= 1 << bit;
        else {
          i |= 1 << bit;
          j |= 1 << bit;
        }
      }
    }
    src[e] = i >>> 0;
    dst[e] = j >>> 0;
  }
  // Permute vertex labels, then the edge order (Fisher-Yates).
  const perm = new Uint32Array(n);
  for (let v = 0; v < n; v++) perm[v] = v;
  for (let v = n - 1; v > 0; v--) {
    const k = rng.below(v + 1);
    const tmp = perm[v];
    perm[v] = perm[k];
    perm[k] = tmp;
  }
  for (let e = 0; e < m; e++) {
    src[e] = perm[src[e]];
    dst[e] = perm[dst[e]];
  }
  for (let e = m - 1; e > 0; e--) {
    const k = rng.below(e + 1);
    let tmp = src[e];
    src[e] = src[k];
    src[k] = tmp;
    tmp = dst[e];
    dst[e] = dst[k];
    dst[k] = tmp;
  }
  return { vertices: n, src, dst };
}
