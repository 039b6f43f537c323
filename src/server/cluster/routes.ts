/**
 * The cluster's endpoints on the GSQL port: `GET /api/cluster` (this node's view: role, leader,
 * applied log position, members) and `GET /metrics` (Prometheus text: lag, role, terms).
 */
import type { FastifyInstance } from 'fastify';
import type { ClusterNode } from '../../cluster/index.js';

export function registerClusterRoutes(app: FastifyInstance, cluster: ClusterNode): void {
  app.get('/api/cluster', { config: { endpoint: 'GET /api/cluster' } }, async () => cluster.status());
  app.get('/metrics', { config: { endpoint: 'GET /metrics' } }, async (_request, reply) =>
    reply.type('text/plain; version=0.0.4; charset=utf-8').send(cluster.metrics()),
  );
}
