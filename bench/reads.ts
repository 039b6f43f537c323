/** `ocelot bench reads`: REST++ point reads and vertex lists vs a bare Fastify route (autocannon) (see bench/harness/suite.ts). */
import { scenarioEntry } from './harness/suite.js';

export const run = scenarioEntry('reads');
