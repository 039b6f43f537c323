/** `ocelot bench engine`: the in-process engine scripts (bench/storage, bench/paths) (see bench/harness/suite.ts). */
import { scenarioEntry } from './harness/suite.js';

export const run = scenarioEntry('engine');
