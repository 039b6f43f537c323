/**
 * The HTTP ceiling: a bare Fastify server (child process, like the Ocelot server) answering the
 * point-read and vertex-list routes with a prebuilt REST++-shaped body of the same size as
 * Ocelot's. Prints `listening <url>` when ready; stops on SIGTERM.
 */
import Fastify from 'fastify';

const vertex = (id: number): unknown => ({ v_id: String(id), v_type: 'MyNode', attributes: {} });
const envelope = (results: unknown[]): string =>
  JSON.stringify({
    version: { edition: 'enterprise', api: 'v2', schema: 0 },
    error: false,
    message: '',
    results,
  });

const one = envelope([vertex(123456)]);
const list = envelope(Array.from({ length: 100 }, (_, i) => vertex(100000 + i)));

const app = Fastify({ logger: false });
app.get('/graph/:g/vertices/:t/:id', async (_req, reply) => reply.type('application/json').send(one));
app.get('/graph/:g/vertices/:t', async (_req, reply) => reply.type('application/json').send(list));
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
console.log(`listening ${url}`);
