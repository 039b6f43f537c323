/** `ocelot bench khop`: k-hop distinct reach, k = 1, 2, 3, 6, vs Kùzu and graphology (see bench/harness/suite.ts). */
import { scenarioEntry } from './harness/suite.js';

export const run = scenarioEntry('khop');
