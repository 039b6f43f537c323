/**
 * GSQL's vocabulary for highlighting and completion: reserved words, type names, accumulator
 * types and the common built-in functions. Upper case; GSQL keywords are case-insensitive.
 */

export const GSQL_KEYWORDS: readonly string[] = [
  'ABORT', 'ACCUM', 'ADD', 'ALL', 'ALTER', 'AND', 'ANY', 'AS', 'ASC', 'BEGIN', 'BETWEEN', 'BREAK',
  'BY', 'CASE', 'CATCH', 'CLEAR', 'COMPRESS', 'CONTINUE', 'CREATE', 'DATA_SOURCE', 'DEFINE',
  'DELETE', 'DESC', 'DIRECTED', 'DISTINCT', 'DISTRIBUTED', 'DO', 'DROP', 'ELSE', 'END', 'EXCEPTION',
  'EXPORT', 'FALSE', 'FILENAME', 'FILTER', 'FOR', 'FOREACH', 'FROM', 'GLOBAL', 'GRANT', 'GRAPH',
  'GROUP', 'HAVING', 'HEADER', 'IF', 'IMPORT', 'IN', 'INDEX', 'INSERT', 'INSTALL', 'INTERPRET',
  'INTERSECT', 'INTO', 'IS', 'JOB', 'LIKE', 'LIMIT', 'LOAD', 'LOADING', 'LOG', 'LS', 'MINUS', 'NOT',
  'NULL', 'OFFSET', 'ON', 'OR', 'ORDER', 'PER', 'POST_ACCUM', 'PRIMARY', 'PRIMARY_ID', 'PRINT',
  'PRIVILEGE', 'QUERY', 'RAISE', 'RANGE', 'REPLACE', 'RESUME', 'RETURN', 'RETURNS', 'REVERSE_EDGE',
  'REVOKE', 'ROLE', 'RUN', 'SAMPLE', 'SCHEMA_CHANGE', 'SECRET', 'SELECT', 'SHOW', 'STATIC', 'STATUS',
  'SYNTAX', 'TEMP_TABLE', 'THEN', 'TO', 'TO_CSV', 'TOKEN', 'TRUE', 'TRY', 'TYPEDEF', 'UNDIRECTED',
  'UNION', 'UPDATE', 'UPSERT', 'USE', 'USER', 'USING', 'VALUES', 'WHEN', 'WHERE', 'WHILE', 'WITH',
];

export const GSQL_TYPES: readonly string[] = [
  'BAG', 'BOOL', 'DATETIME', 'DOUBLE', 'EDGE', 'FILE', 'FIXED_BINARY', 'FLOAT', 'INT', 'JSONARRAY',
  'JSONOBJECT', 'LIST', 'MAP', 'SET', 'STRING', 'TUPLE', 'UINT', 'VERTEX',
];

/** Accumulator types, as GSQL spells them (the lexer matches them case-insensitively). */
export const GSQL_ACCUMULATORS: readonly string[] = [
  'AndAccum', 'ArrayAccum', 'AvgAccum', 'BagAccum', 'BitwiseAndAccum', 'BitwiseOrAccum',
  'GroupByAccum', 'HeapAccum', 'ListAccum', 'MapAccum', 'MaxAccum', 'MinAccum', 'OrAccum',
  'SetAccum', 'SumAccum',
];

export const GSQL_FUNCTIONS: readonly string[] = [
  'abs', 'ceil', 'coalesce', 'count', 'datetime_add', 'datetime_diff', 'datetime_sub', 'day',
  'edgeAttribute', 'floor', 'getvid', 'hour', 'lower', 'max', 'min', 'minute', 'month', 'neighbors',
  'now', 'outdegree', 'pow', 'sqrt', 'substr', 'sum', 'to_datetime', 'to_string', 'trim', 'upper',
  'year',
];

const upper = (words: readonly string[]) => new Set(words.map((w) => w.toUpperCase()));
export const KEYWORD_SET: ReadonlySet<string> = upper(GSQL_KEYWORDS);
export const TYPE_SET: ReadonlySet<string> = upper(GSQL_TYPES);
export const ACCUMULATOR_SET: ReadonlySet<string> = upper(GSQL_ACCUMULATORS);
export const FUNCTION_SET: ReadonlySet<string> = upper(GSQL_FUNCTIONS);
