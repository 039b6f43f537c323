/**
 * Graph500-style RMAT (Kronecker) edge generator: N = 2^scale vertices, edgeFactor·N edges, initiator
 * A=0.57, B=0.19, C=0.19 (D=0.05), then vertex labels and edge order randomly permuted. Deterministic
 * for a seed (small xorshift PRNGs), written from the published specification.
 */

/** xorshift128+ returning floats in [0, 1). */
export class Rng {
  private s0: number;
  private s1: number;
  constructor(seed: number) {
    this.s0 = (seed ^ 0x9e3779b9) >>> 0 || 1;
    this.s1 = Math.imul(seed, 0x85ebca6b) >>> 0 || 2;
  }
  nextU32(): number {
    let x = this.s0;
    const y = this.s1;
    this.s0 = y;
    x ^= x << 23;
    x ^= x >>> 17;
    x ^= y ^ (y >>> 26);
    this.s1 = x >>> 0;
    return (this.s0 + this.s1) >>> 0;
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
