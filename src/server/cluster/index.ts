/** A cluster node's HTTP side: forwarding writes to the leader, waiting for the log, status routes. */
export { installClusterHooks, FORWARDED_BY, LEADER_HEADER, VERSION_HEADER } from './forward.js';
export { registerClusterRoutes } from './routes.js';
export { classifyRequest, scriptWrites, storedQueryWrites, type RequestClass } from './classify.js';
