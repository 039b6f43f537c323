/**
 * The text `help` prints: one section per statement family. The first line is TigerGraph's own
 * (clients such as pyTigerGraph check it); the rest is written for Ocelot.
 */

interface HelpSection {
  title: string;
  /** Words `help <word>` selects the section by (lower case). */
  topics: string[];
  lines: string[];
}

export const HELP_TITLE = 'GSQL Help: Summary of TigerGraph GSQL Shell commands.';

const SECTIONS: HelpSection[] = [
  {
    title: 'Session',
    topics: ['session', 'use', 'set', 'ls'],
    lines: [
      'help [<word>]                        this summary, or only its sections about <word> (e.g. query)',
      'ls                                   the schema, graphs, jobs and queries in scope',
      'USE GRAPH <graph> | USE GLOBAL       work in a graph, or back in the global scope',
      'SET <option> = <value>               e.g. SET exit_on_error = FALSE',
      'BEGIN ... END | ABORT                enter several lines as one statement (interactive shell)',
      'exit | quit                          leave the interactive shell',
    ],
  },
  {
    title: 'Schema: types and graphs',
    topics: ['schema', 'vertex', 'edge', 'graph', 'tuple'],
    lines: [
      'CREATE VERTEX <v> (PRIMARY_ID <id> <type>, <attr> <type>, ...) [WITH ...]',
      'CREATE [DIRECTED|UNDIRECTED] EDGE <e> (FROM <v>, TO <v>, <attr> <type>, ...) [WITH REVERSE_EDGE="<r>"]',
      'TYPEDEF TUPLE <field type, ...> <name> | DROP TUPLE <name>',
      'CREATE GRAPH <graph> (* | <type>, ...)',
      'SHOW VERTEX|EDGE|GRAPH <name> | <glob> | *',
      'DROP VERTEX <v>, ... | DROP EDGE <e>, ... | DROP GRAPH <graph> [CASCADE]',
    ],
  },
  {
    title: 'Schema change jobs',
    topics: ['schema', 'schema_change', 'job'],
    lines: [
      'CREATE [GLOBAL] SCHEMA_CHANGE JOB <job> [FOR GRAPH <graph>] { ADD|ALTER|DROP ...; }',
      'RUN [GLOBAL] SCHEMA_CHANGE JOB <job>',
      'SHOW JOB <job> | *  |  DROP JOB <job> | ALL',
    ],
  },
  {
    title: 'Loading jobs and data sources',
    topics: ['loading', 'load', 'job', 'data_source'],
    lines: [
      'CREATE LOADING JOB <job> FOR GRAPH <graph> { DEFINE FILENAME ...; LOAD ... TO VERTEX|EDGE ...; }',
      'RUN LOADING JOB <job> [USING <file var>="<path>", ...]',
      'SHOW LOADING STATUS <job id> | ALL  |  ABORT|RESUME LOADING JOB <job id>',
      'CREATE|DROP|SHOW DATA_SOURCE ...',
    ],
  },
  {
    title: 'Queries',
    topics: ['query', 'queries', 'install', 'interpret', 'package', 'function'],
    lines: [
      'CREATE [OR REPLACE] [DISTRIBUTED] QUERY <q>(<params>) [FOR GRAPH <graph>] { ... }',
      'INSTALL QUERY <q>, ... | ALL [-force]',
      'RUN QUERY <q>(<args>) | INTERPRET QUERY <q>(<args>) | INTERPRET QUERY () { ... }',
      'SHOW QUERY <q> | *  |  DROP QUERY <q>, ... | ALL',
      'CREATE|DROP PACKAGE ..., CREATE FUNCTION ..., CREATE TEMPLATE QUERY ...',
      'PUT ExprFunctions|ExprUtil|TokenBank FROM "<file>"  |  GET ExprFunctions ... [TO "<file>"]',
    ],
  },
  {
    title: 'Data',
    topics: ['data', 'upsert', 'delete', 'select', 'clear', 'export', 'import'],
    lines: [
      'UPSERT <v> VALUES (...) | UPSERT <e> VALUES (...)',
      'DELETE FROM <v> WHERE ...',
      'SELECT * FROM <v> [WHERE ...] [LIMIT n]',
      'CLEAR GRAPH STORE [-HARD] | DROP ALL',
      'EXPORT GRAPH ALL|<graph>, ... TO "<dir>" | IMPORT GRAPH ALL FROM "<dir>"',
    ],
  },
  {
    title: 'Users, roles and privileges',
    topics: ['user', 'role', 'privilege', 'grant', 'revoke', 'password'],
    lines: [
      'CREATE USER <user> WITH PASSWORD "<pw>" | DROP USER <user> | SHOW USER',
      'ALTER PASSWORD [<user>] WITH PASSWORD "<pw>"',
      'CREATE ROLE | DROP ROLE <role> | SHOW ROLE',
      'GRANT|REVOKE ROLE <role> [ON GRAPH <graph>] TO|FROM <user>',
      'GRANT|REVOKE <privilege>, ... ON GRAPH <graph>|GLOBAL TO|FROM <role>  |  SHOW PRIVILEGE <role>',
    ],
  },
  {
    title: 'Secrets and tokens',
    topics: ['secret', 'token'],
    lines: ['CREATE SECRET [<alias>] | SHOW SECRET | DROP SECRET <secret or alias>'],
  },
];

const FOOTER = 'Statements this server does not run yet are answered "... is not supported yet."';

function sectionText(s: HelpSection): string {
  return [`${s.title}:`, ...s.lines.map((l) => `  ${l}`)].join('\n');
}

/** The help text; with a topic, only the sections it names (all when it names none). */
export function helpText(topic?: string): string {
  const wanted = topic?.toLowerCase();
  const picked = wanted ? SECTIONS.filter((s) => s.topics.includes(wanted)) : [];
  const shown = picked.length > 0 ? picked : SECTIONS;
  return [HELP_TITLE, ...shown.map(sectionText), FOOTER].join('\n\n');
}
