/** `ocelot bench isolation`: /echo and REST++ point-read latency while PageRank runs (see bench/harness/scenarios-parallel.ts). */
import { scenarioEntry } from './harness/suite.js';

export const run = scenarioEntry('isolation');
