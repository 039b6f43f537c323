/** `ocelot bench footprint`: server memory per edge and restart time (see bench/harness/suite.ts). */
import { scenarioEntry } from './harness/suite.js';

export const run = scenarioEntry('footprint');
