import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import { runScript } from '../../src/shell/run-script.js';

/** PageRank written the way the algorithm library writes it: type-set parameters, @x', WHILE … LIMIT. */
const PAGERANK = `CREATE QUERY pagerank (SET<STRING> v_type_set, SET<STRING> e_type_set, FLOAT max_change = 0.001,
  INT maximum_iteration = 25, FLOAT damping = 0.85, INT top_k = 100) {
  TYPEDEF TUPLE<VERTEX Vertex_ID, FLOAT score> Vertex_Score;
  HeapAccum<Vertex_Score>(top_k, score DESC) @@top_scores_heap;
  MaxAccum<FLOAT> @@max_diff = 9999;
  SumAccum<FLOAT> @sum_recvd_score = 0;
  SumAccum<FLOAT> @sum_score = 1;
  SumAccum<INT> @@rounds;
  Start = {v_type_set};
  WHILE @@max_diff > max_change LIMIT maximum_iteration DO
    @@rounds += 1;
    @@max_diff = 0;
    V = SELECT s FROM Start:s -(e_type_set:e)- v_type_set:t
        ACCUM t.@sum_recvd_score += s.@sum_score / (s.outdegree(e_type_set))
        POST-ACCUM s.@sum_score = (1.0 - damping) + damping * s.@sum_recvd_score,
                   s.@sum_recvd_score = 0,
                   @@max_diff += abs(s.@sum_score - s.@sum_score');
  END;
  V = SELECT s FROM Start:s POST-ACCUM @@top_scores_heap += Vertex_Score(s, s.@sum_score);
  PRINT @@rounds, @@max_diff, @@top_scores_heap;
}`;

/** Weakly connected components by min-label propagation, as the library's WCC does. */
const WCC = `CREATE QUERY wcc (SET<STRING> v_type_set, SET<STRING> e_type_set, INT maximum_iteration = 10) {
  MinAccum<INT> @min_cc_id = 0;
  SumAccum<INT> @@rounds;
  Start = {v_type_set};
  S = SELECT x FROM Start:x POST-ACCUM x.@min_cc_id = getvid(x);
  WHILE (S.size() > 0) LIMIT maximum_iteration DO
    @@rounds += 1;
    S = SELECT t FROM S:s -(e_type_set:e)- v_type_set:t
        ACCUM t.@min_cc_id += s.@min_cc_id
        HAVING t.@min_cc_id != t.@min_cc_id';
  END;
  PRINT @@rounds, Start[Start.@min_cc_id];
}`;

interface Envelope {
  error: boolean;
  message: string;
  results: Record<string, unknown>[];
}

/** The JSON documents a gsql session printed for its RUN QUERY statements. */
function envelopes(out: string): Envelope[] {
  return (out.match(/^\{\n[\s\S]*?^\}$/gm) ?? []).map((m) => JSON.parse(m) as Envelope);
}

/**
 * PageRank by plain iteration, as the query computes it: a vertex with no out-edge is never a
 * source of the SELECT, so its score stays at its initial 1.
 */
function pagerank(
  vertices: string[],
  edges: [string, string][],
  iterations: number,
  damping: number,
): Map<string, number> {
  const score = new Map(vertices.map((v) => [v, 1]));
  const out = new Map<string, number>();
  for (const [a] of edges) out.set(a, (out.get(a) ?? 0) + 1);
  for (let i = 0; i < iterations; i++) {
    const recvd = new Map<string, number>();
    for (const [a, b] of edges) recvd.set(b, (recvd.get(b) ?? 0) + score.get(a)! / out.get(a)!);
    for (const v of out.keys()) score.set(v, 1 - damping + damping * (recvd.get(v) ?? 0));
  }
  return score;
}

/** Checks a PageRank result: rounds, the last max_diff and every score (FLOAT precision). */
function checkPagerank(env: Envelope, rounds: number, maxDiff: number, expected: Map<string, number>): void {
  assert.equal(env.error, false, env.message);
  const r = env.results[0] as {
    '@@rounds': number;
    '@@max_diff': number;
    '@@top_scores_heap': { Vertex_ID: string; score: number }[];
  };
  assert.equal(r['@@rounds'], rounds);
  assert.ok(Math.abs(r['@@max_diff'] - maxDiff) < 1e-6, `max_diff ${r['@@max_diff']}`);
  const heap = r['@@top_scores_heap'];
  assert.deepEqual(heap.map((x) => x.Vertex_ID).sort(), [...expected.keys()].sort());
  for (const { Vertex_ID, score } of heap) {
    assert.ok(Math.abs(score - expected.get(Vertex_ID)!) < 1e-6, `${Vertex_ID}: ${score}`);
  }
  // The heap is ordered by score, highest first.
  for (let i = 1; i < heap.length; i++) assert.ok(heap[i - 1].score >= heap[i].score);
}

test('PageRank and WCC in the algorithm library style, installed and run through the shell', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ocelot-algos-'));
  const db = await Database.open({ dataDir: join(dir, 'db'), sync: 'none', rebuildIntervalMs: 0 });
  try {
    const links: [string, string][] = [
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'a'],
      ['a', 'c'],
    ];
    writeFileSync(join(dir, 'links.csv'), links.map((l) => l.join(',')).join('\n') + '\n');
    writeFileSync(join(dir, 'ties.csv'), 'a,b\nb,c\nd,e\nf,f\n');
    const schema = `CREATE VERTEX node (PRIMARY_ID id STRING)
CREATE DIRECTED EDGE link (FROM node, TO node)
CREATE UNDIRECTED EDGE tie (FROM node, TO node)
CREATE GRAPH algo (node, link, tie)
USE GRAPH algo
CREATE LOADING JOB load_algo FOR GRAPH algo {
  DEFINE FILENAME f1="${join(dir, 'links.csv')}";
  DEFINE FILENAME f2="${join(dir, 'ties.csv')}";
  LOAD f1 TO EDGE link VALUES ($0, $1) USING header="false", separator=",";
  LOAD f2 TO EDGE tie VALUES ($0, $1) USING header="false", separator=",";
}
RUN LOADING JOB load_algo
`;
    const session = { user: 'tigergraph' };
    let out = '';
    assert.equal(await runScript(db, schema, session, (t) => (out += t), { importDirs: [dir] }), 0, out);
    out = '';
    const script = `USE GRAPH algo
${PAGERANK}
${WCC}
INSTALL QUERY pagerank, wcc
RUN QUERY pagerank(["node"], ["link"], 0.0001, 2, 0.85, 10)
RUN QUERY pagerank(["node"], ["link"], 0.5, 25, 0.85, 10)
RUN QUERY wcc(["node"], ["tie"], 10)
RUN QUERY wcc(["node"], ["nope"], 10)
`;
    assert.equal(await runScript(db, script, session, (t) => (out += t), { importDirs: [dir] }), 0, out);
    const [pr2, pr1, wcc, bad] = envelopes(out);
    const all = ['a', 'b', 'c', 'd', 'e', 'f'];
    // By hand, two rounds: a 1 -> 1.0 -> 1.36125, b 1 -> 0.575 -> 0.575, c 1 -> 1.425 -> 1.06375.
    const two = pagerank(all, links, 2, 0.85);
    assert.deepEqual(
      [two.get('a'), two.get('b'), two.get('c')].map((x) => Math.round(x! * 1e6) / 1e6),
      [1.36125, 0.575, 1.06375],
    );
    // LIMIT maximum_iteration stops after two rounds; max_diff of round two is |1.36125 - 1.0|.
    checkPagerank(pr2, 2, 0.36125, two);
    // max_change 0.5: round one's max_diff 0.425 ends the loop.
    checkPagerank(pr1, 1, 0.425, pagerank(all, links, 1, 0.85));

    // WCC over the undirected ties: components {a, b, c}, {d, e} and {f} (a self-loop), found in three
    // rounds (the last one changes nothing).
    assert.equal(wcc.error, false, wcc.message);
    const w = wcc.results[0] as {
      '@@rounds': number;
      Start: { v_id: string; attributes: { 'Start.@min_cc_id': number } }[];
    };
    assert.equal(w['@@rounds'], 3);
    const parts = new Map<number, string[]>();
    for (const v of w.Start) {
      const cc = v.attributes['Start.@min_cc_id'];
      parts.set(cc, [...(parts.get(cc) ?? []), v.v_id]);
    }
    assert.deepEqual([...parts.values()].map((p) => p.sort().join('')).sort(), ['abc', 'de', 'f']);

    assert.equal(bad.error, true);
    assert.equal(bad.message, 'Runtime Error: "nope" is not an edge type of graph algo.');
    assert.equal((bad as Envelope & { code: string }).code, 'GSQL-8001');
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Neighbourhood similarity as the library writes it: mixed @/@@ declarations, a dynamic INSERT target. */
const SIMILAR = `CREATE QUERY similar (VERTEX source, STRING e_type, STRING out_type = "") SYNTAX V1 {
  SumAccum<INT> @common, @@source_degree, @degree;
  SumAccum<FLOAT> @score;
  ListAccum<VERTEX> @via;
  Start (ANY) = {source};
  Start = SELECT s FROM Start:s ACCUM @@source_degree += s.outdegree(e_type);
  Mid = SELECT t FROM Start:s -(e_type:e)- :t;
  Others = SELECT t FROM Mid:m -(e_type:e)- :t
    WHERE t != source
    ACCUM t.@common += 1, t.@degree = t.outdegree(e_type), t.@via = m
    POST-ACCUM t.@score = t.@common * 1.0 / (@@source_degree + t.@degree - t.@common),
      IF out_type != "" THEN INSERT INTO EDGE out_type VALUES (source, t, t.@score) END;
  PRINT Others[Others.@score, Others.@common];
}`;

/** Every edge seen from each of its ends, and edge attributes set by name. */
const EDGES = `CREATE QUERY edges_seen (STRING mark) SYNTAX V1 {
  SetAccum<EDGE> @@seen;
  SumAccum<INT> @@rows;
  Start = {node.*};
  S = SELECT t FROM Start:s -(tie:e)- node:t ACCUM @@rows += 1;
  S = SELECT t FROM Start:s -(tie:e)- node:t WHERE s.id == "a" ACCUM @@seen += e, e.setAttr(mark, TRUE);
  PRINT @@rows, @@seen.size() AS seen;
}`;

test('library forms on the engine: self-loops, edges per direction, dynamic INSERT, edge setAttr', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ocelot-algos-'));
  const db = await Database.open({ dataDir: join(dir, 'db'), sync: 'none', rebuildIntervalMs: 0 });
  try {
    // a-b, a-c, b-c, c-d and a self-loop on a.
    writeFileSync(join(dir, 'ties.csv'), 'a,b\na,c\nb,c\nc,d\na,a\n');
    const session = { user: 'tigergraph' };
    let out = '';
    const script = `CREATE VERTEX node (PRIMARY_ID id STRING) WITH primary_id_as_attribute="true"
CREATE UNDIRECTED EDGE tie (FROM node, TO node, marked BOOL)
CREATE UNDIRECTED EDGE similar_to (FROM node, TO node, score FLOAT)
CREATE GRAPH algo2 (node, tie, similar_to)
USE GRAPH algo2
CREATE LOADING JOB load_ties FOR GRAPH algo2 {
  DEFINE FILENAME f="${join(dir, 'ties.csv')}";
  LOAD f TO EDGE tie VALUES ($0, $1, _) USING header="false", separator=",";
}
RUN LOADING JOB load_ties
${SIMILAR}
${EDGES}
INSTALL QUERY similar, edges_seen
RUN QUERY similar(("d", "node"), "tie", "similar_to")
RUN QUERY edges_seen("marked")
RUN QUERY similar(("d", "node"), "nope")
`;
    assert.equal(await runScript(db, script, session, (t) => (out += t), { importDirs: [dir] }), 0, out);
    const [sim, seen, bad] = envelopes(out);
    assert.equal(sim.error, false, sim.message);
    // N(d) = {c}; N(a) = {a, b, c} (the self-loop once), N(b) = {a, c}: a 1/3, b 1/2.
    const others = (sim.results[0] as { Others: { v_id: string; attributes: Record<string, number> }[] })
      .Others;
    assert.deepEqual(
      others.map((o) => [o.v_id, o.attributes['Others.@score'], o.attributes['Others.@common']]).sort(),
      [
        ['a', 0.3333333, 1],
        ['b', 0.5, 1],
      ],
    );
    // Rows: 4 edges from both ends plus the self-loop once; a's three edges seen from a.
    assert.deepEqual(seen.results, [{ '@@rows': 9, seen: 3 }]);
    assert.match(bad.message, /"nope" is not an edge type of graph algo2/);

    out = '';
    const check = `USE GRAPH algo2
CREATE QUERY check_writes () SYNTAX V1 {
  SumAccum<INT> @@marked;
  SetAccum<STRING> @@sim;
  Start = {node.*};
  S = SELECT t FROM Start:s -(tie:e)- node:t WHERE e.marked ACCUM @@marked += 1;
  S = SELECT t FROM Start:s -(similar_to:e)- node:t WHERE s.id == "d" ACCUM @@sim += t.id + ":" + to_string(e.score);
  PRINT @@marked, @@sim;
}
INTERPRET QUERY check_writes()
`;
    assert.equal(await runScript(db, check, session, (t) => (out += t), { importDirs: [dir] }), 0, out);
    const [writes] = envelopes(out);
    // The three edges at a were marked (each counted from both ends; the self-loop once).
    assert.deepEqual(writes.results, [{ '@@marked': 5, '@@sim': ['a:0.333333', 'b:0.500000'] }]);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
