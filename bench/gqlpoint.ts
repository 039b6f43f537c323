/** `ocelot bench gqlpoint`: GraphQL point query by id vs REST++ point reads (see bench/harness/suite.ts). */
import { scenarioEntry } from './harness/suite.js';

export const run = scenarioEntry('gqlpoint');
