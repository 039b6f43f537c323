/** `ocelot bench load`: CSV loading jobs (RMAT and the social graph) vs Kùzu COPY (see bench/harness/suite.ts). */
import { scenarioEntry } from './harness/suite.js';

export const run = scenarioEntry('load');
