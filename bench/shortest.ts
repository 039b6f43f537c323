/** `ocelot bench shortest`: shortest paths between random pairs vs Kùzu and graphology (see bench/harness/suite.ts). */
import { scenarioEntry } from './harness/suite.js';

export const run = scenarioEntry('shortest');
