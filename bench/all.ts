/** `ocelot bench all`: every scenario below, one table (see bench/harness/suite.ts). */
import { scenarioEntry } from './harness/suite.js';

export const run = scenarioEntry('all');
