/** `ocelot bench gql2hop`: GraphQL 2-hop nested query vs the same installed GSQL query (see bench/harness/suite.ts). */
import { scenarioEntry } from './harness/suite.js';

export const run = scenarioEntry('gql2hop');
