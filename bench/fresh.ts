/** `ocelot bench fresh`: queries straight after a load vs after /rebuildnow (see bench/harness/scenarios-fresh.ts). */
import { scenarioEntry } from './harness/suite.js';

export const run = scenarioEntry('fresh');
