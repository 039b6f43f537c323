/** `ocelot bench pattern`: a 2-hop V2 pattern against two chained one-hop SELECTs (see bench/harness/suite.ts). */
import { scenarioEntry } from './harness/suite.js';

export const run = scenarioEntry('pattern');
