/** `ocelot bench scaling`: PageRank, WCC and 3-hop reach at each --thread-list count, pinned, vs Kùzu (see bench/harness/scenarios-scaling.ts). */
import { scenarioEntry } from './harness/suite.js';

export const run = scenarioEntry('scaling');
