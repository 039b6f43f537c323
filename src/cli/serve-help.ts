/** The text of `ocelot serve --help`: every flag with its OCELOT_* variable and default. */
import { DEFAULT_LIMITS } from '../graphql/index.js';
import { DEFAULT_TIGERGRAPH_VERSION } from '../server/start.js';

export const SERVE_HELP = `Usage: ocelot serve [options]

Starts the Ocelot server: REST++, the GSQL server and the admin port over one data directory.

Options (each also read from the environment variable shown; a flag wins over the variable):
  --data DIR                  data directory (OCELOT_DATA, default ./ocelot-data)
  --host HOST                 address to bind (OCELOT_HOST, default 127.0.0.1)
  --restpp-port N             REST++ port (OCELOT_RESTPP_PORT, default 9000)
  --gsql-port N               GSQL server port, also serving REST++ under /restpp
                              (OCELOT_GSQL_PORT, default 14240)
  --admin-port N              admin port of the local gsql client (OCELOT_ADMIN_PORT, default 8123)
  --graphql-graph G           serve graph G's GraphQL service at :<graphql-port>/graphql, GraphiQL at /
                              (OCELOT_GRAPHQL_GRAPH; every graph is also at :<gsql-port>/api/graphql/gsql/G)
  --graphql-port N            port of the --graphql-graph service (OCELOT_GRAPHQL_PORT, default 4000)
  --graphql-max-cost N        refuse GraphQL requests whose estimated cost (vertices and edges read)
                              exceeds N; 0 = no limit (OCELOT_GRAPHQL_MAX_COST, default ${DEFAULT_LIMITS.maxCost})
  --graphql-max-depth N       refuse GraphQL documents nesting fields deeper than N; 0 = no limit
                              (OCELOT_GRAPHQL_MAX_DEPTH, default ${DEFAULT_LIMITS.maxDepth})
  --graphql-max-rows N        stop GraphQL responses holding more than N vertices and edges; 0 = no
                              limit (OCELOT_GRAPHQL_MAX_ROWS, default ${DEFAULT_LIMITS.maxRows})
  --graphql-role-limits SPEC  per-role limits, e.g. "queryreader:cost=10000,depth=8;superuser:cost=0"
                              (a caller gets its most generous role's; OCELOT_GRAPHQL_ROLE_LIMITS)
  --graphql-introspection B   answer __schema/__type and serve the SDL pages, true or false
                              (OCELOT_GRAPHQL_INTROSPECTION, default true)
  --graphql-allow-list FILE   run only the GraphQL documents listed in FILE (an Apollo persisted query
                              manifest, a JSON array of documents or an object hash -> document)
                              (OCELOT_GRAPHQL_ALLOW_LIST)
  --tigergraph-version X.Y.Z  TigerGraph release to report (OCELOT_TIGERGRAPH_VERSION, default ${DEFAULT_TIGERGRAPH_VERSION})
  --sync always|batch|none    when writes reach the disk (OCELOT_SYNC, default always)
  --output-dir DIR            directory that queries' FILE objects (f.println, PRINT … TO_CSV)
                              and /rebuildnow summaries write into (SelectVertex()/LOADACCUM() may
                              read from it too); paths outside it are refused, and without it
                              output files are refused (OCELOT_OUTPUT_DIR)
  --import-dir DIR[:DIR…]     directories RUN LOADING JOB files (USING, DEFINE FILENAME) and query
                              input files are read from; relative paths are looked up in them,
                              paths outside them, with '..' or through links out of them are
                              refused (OCELOT_IMPORT_DIR, default <data dir>/import)
  --cors-origin ORIGIN[,…]    web pages of these origins (e.g. https://app.example.com) may call
                              the server (REST++, GSQL, GraphQL) from a browser; * lets any page
                              call without credentials of its own; requests other pages make are
                              refused (OCELOT_CORS_ORIGIN, default none)
  --allow-udf-put             allow PUT of UDF files (ExprFunctions, TokenBank: JavaScript modules the
                              server runs) by users holding WRITE_FILE; off by default
                              (OCELOT_ALLOW_UDF_PUT=true)
  --auth                      REST++ authentication: requests need a token (Authorization: Bearer),
                              /requesttoken is served (OCELOT_AUTH=true)
  --body-limit-mb N           largest request body in MB, 1 to 1024; larger bodies (e.g. POST /ddl
                              files) are refused with REST-30000 (OCELOT_BODY_LIMIT_MB, default 200)
  --rebuild-interval S        seconds between automatic rebuilds (checkpoint + merge of new data);
                              0 turns them off (OCELOT_REBUILD_INTERVAL, default 30)
  --threads N                 query worker threads, 0 to 256: GSQL queries, GraphQL, path finding
                              and /builtins run on them, a large SELECT on several at once; 0 runs
                              them on the event loop; N of 2 or more also parses loading-job
                              input of 4 MB or more on N-1 threads beside the committing one
                              (vertex input from N of 3), and the merge after a load builds
                              large edge blocks on N threads, at least one
                              (OCELOT_THREADS, default: the available cores)
  --query-memory-mb N         JavaScript heap limit of each query worker in MB, 16 to 1048576: a
                              query that needs more is stopped with an error (SYS-0002); a lower
                              GSQL-QueryLocalMemLimitMB header runs its query on a worker of its
                              own with that limit (OCELOT_QUERY_MEMORY_MB, default: Node's own limit)
  --cluster URLS              run as a node of a cluster over NATS JetStream, e.g.
                              nats://h1:4222,nats://h2:4222,nats://h3:4222 (OCELOT_CLUSTER); each
                              node has its own data directory (empty at the first start) and ports;
                              writes sent to any node go to the leader (see docs/cluster.md)
  --node-id ID                this node's name in the cluster, unique (OCELOT_NODE_ID)
  --advertise-host HOST       the host other nodes reach this one at (OCELOT_ADVERTISE_HOST,
                              default: --host)
  --cluster-lease-ms N        leader lease lifetime in ms, 1000 to 60000: a dead leader is
                              replaced about this long after its last renewal
                              (OCELOT_CLUSTER_LEASE_MS, default 4000)
  --log-level LEVEL           fatal, error, warn, info (one access line per request), debug, trace
                              or silent (OCELOT_LOG_LEVEL, default info)
  --log-format json|pretty    log lines on stderr as JSON or as text for a person (OCELOT_LOG_FORMAT,
                              default pretty on a terminal, json otherwise)
  -h, --help                  show this help

The listeners' URLs are printed on stdout, the last one (Admin) once the server is ready; the log
(start-up, one line per request, errors) goes to stderr, passwords, secrets and tokens masked.
A port of 0 picks a free port. Stop the server with Ctrl-C (SIGINT) or SIGTERM.
Exit codes: 0 stopped by a signal, 1 could not start, 3 fatal storage error (restart recovers) or a
cluster node that cannot follow the cluster log.
`;

/** Exit code after a fatal storage error (1 is kept for start-up failures). */
