/** `ocelot bench algo`: PageRank (10 iterations) and WCC in GSQL vs Kùzu and graphology (see bench/harness/suite.ts). */
import { scenarioEntry } from './harness/suite.js';

export const run = scenarioEntry('algo');
