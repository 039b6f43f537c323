/**
 * The GraphQL layer's front door: the service (schema per graph, requests as plans over one
 * snapshot), its limits and persisted queries, the subscription hub, and the schema builder.
 */
export {
  DEFAULT_TIMEOUT_MS,
  GraphQLService,
  type ExecuteOptions,
  type GraphQLDatabase,
  type ServiceOptions,
} from './service.js';
export type { GraphQLAnswer } from './answers.js';
export type { GraphQLRequest } from './prepare-request.js';
export {
  DEFAULT_LIMITS,
  limitsOfRoles,
  parseRoleLimits,
  type GraphQLLimits,
  type RoleLimits,
} from './limits.js';
export { parseAllowList, sha256 } from './persisted.js';
export type { WriteKind } from './plan.js';
export { buildGraphSchema } from './schema.js';
export { ChangeStream, EventBudget, MAX_COMMIT_CHANGES } from './subscriptions.js';
