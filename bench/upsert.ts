/** `ocelot bench upsert`: REST++ upsert batches of 1,000 vertices and edges (see bench/harness/suite.ts). */
import { scenarioEntry } from './harness/suite.js';

export const run = scenarioEntry('upsert');
