/**
 * The GSQL the benchmark installs: TigerGraph's benchmark schema and loading job for RMAT
 * (`MyNode`/`MyEdge`), a social graph, and the queries each scenario runs. The k-hop query counts
 * vertices at exact distance 1..k (an @visited flag), the semantics Kùzu's `* SHORTEST 1..k` has. PageRank reads each
 * vertex's out-degree once into an accumulator rather than once per edge. `lib_pagerank` and
 * `lib_wcc` are written the way the algorithm library's tg_pagerank and tg_wcc are (type names as
 * STRING / SET<STRING> parameters, `outdegree(e_type)` per edge, `@score'` for the change,
 * `WHILE … LIMIT`, a top-k HeapAccum, every edge of the frontier updating a MinAccum and `HAVING`
 * keeping the vertices whose `@cc_id'` differs, component sizes in a MapAccum); they are our own
 * text, not the library's.
 */
export const RMAT_GRAPH = 'rmat';
export const SOCIAL_GRAPH = 'social';

export const RMAT_SCHEMA = `CREATE VERTEX MyNode (PRIMARY_ID id INT)
CREATE DIRECTED EDGE MyEdge (FROM MyNode, TO MyNode) WITH REVERSE_EDGE="reverse_MyEdge"
CREATE VERTEX Extra (PRIMARY_ID id INT, name STRING, score DOUBLE)
CREATE DIRECTED EDGE ExtraEdge (FROM Extra, TO Extra)
CREATE GRAPH ${RMAT_GRAPH} (MyNode, MyEdge, Extra, ExtraEdge)
CREATE LOADING JOB load_rmat FOR GRAPH ${RMAT_GRAPH} {
  DEFINE FILENAME f;
  LOAD f TO EDGE MyEdge VALUES ($0, $1) USING SEPARATOR=",";
}`;

export const SOCIAL_SCHEMA = `CREATE VERTEX Person (PRIMARY_ID id STRING, name STRING, birthday DATETIME, created DATETIME, interests LIST<STRING>) WITH primary_id_as_attribute="true"
CREATE DIRECTED EDGE knows (FROM Person, TO Person, since DATETIME)
CREATE GRAPH ${SOCIAL_GRAPH} (Person, knows)
CREATE LOADING JOB load_social FOR GRAPH ${SOCIAL_GRAPH} {
  DEFINE FILENAME persons, friends;
  LOAD persons TO VERTEX Person VALUES ($0, $1, $2, $3, SPLIT($4, ";"));
  LOAD friends TO EDGE knows VALUES ($0, $1, $2);
}`;

export const RMAT_QUERIES = `USE GRAPH ${RMAT_GRAPH}
CREATE QUERY khop(VERTEX<MyNode> s, INT k) FOR GRAPH ${RMAT_GRAPH} {
  OrAccum @visited;
  SumAccum<INT> @@reached;
  INT i = 0;
  Frontier = {s};
  Frontier = SELECT v FROM Frontier:v POST-ACCUM v.@visited += true;
  WHILE i < k AND Frontier.size() > 0 DO
    Frontier = SELECT t FROM Frontier:v -(MyEdge>:e)- MyNode:t
               WHERE t.@visited == false
               POST-ACCUM t.@visited += true;
    @@reached += Frontier.size();
    i = i + 1;
  END;
  PRINT @@reached;
}
CREATE QUERY two_hop(VERTEX<MyNode> s) FOR GRAPH ${RMAT_GRAPH} {
  Start = {s};
  One = SELECT t FROM Start:v -(MyEdge>:e)- MyNode:t;
  Two = SELECT t FROM One:v -(MyEdge>:e)- MyNode:t;
  PRINT One, Two;
}
CREATE QUERY hop2_chained(VERTEX<MyNode> s, BOOL mark) FOR GRAPH ${RMAT_GRAPH} SYNTAX v2 {
  OrAccum @hit;
  Start = {s};
  One = SELECT t FROM Start:v -(MyEdge>)- MyNode:t;
  IF mark THEN
    Two = SELECT t FROM One:v -(MyEdge>)- MyNode:t ACCUM t.@hit += TRUE;
  ELSE
    Two = SELECT t FROM One:v -(MyEdge>)- MyNode:t;
  END;
  PRINT Two.size() AS reached;
}
CREATE QUERY hop2_pattern(VERTEX<MyNode> s, BOOL mark) FOR GRAPH ${RMAT_GRAPH} SYNTAX v2 {
  OrAccum @hit;
  Start = {s};
  IF mark THEN
    Two = SELECT t FROM Start:v -(MyEdge>)- MyNode -(MyEdge>)- MyNode:t ACCUM t.@hit += TRUE;
  ELSE
    Two = SELECT t FROM Start:v -(MyEdge>)- MyNode -(MyEdge>)- MyNode:t;
  END;
  PRINT Two.size() AS reached;
}
CREATE QUERY page_rank(INT iterations, DOUBLE damping) FOR GRAPH ${RMAT_GRAPH} {
  SumAccum<DOUBLE> @score = 1;
  SumAccum<DOUBLE> @received;
  SumAccum<INT> @out;
  SumAccum<DOUBLE> @@total;
  INT i = 0;
  All = {MyNode.*};
  All = SELECT v FROM All:v POST-ACCUM v.@out = v.outdegree("MyEdge");
  WHILE i < iterations DO
    Sent = SELECT t FROM All:v -(MyEdge>:e)- MyNode:t
           ACCUM t.@received += v.@score / v.@out;
    All = SELECT v FROM All:v
          POST-ACCUM v.@score = (1 - damping) + damping * v.@received, v.@received = 0;
    i = i + 1;
  END;
  All = SELECT v FROM All:v POST-ACCUM @@total += v.@score;
  PRINT @@total;
}
CREATE QUERY wcc() FOR GRAPH ${RMAT_GRAPH} {
  MinAccum<INT> @cc;
  SumAccum<INT> @@components;
  All = {MyNode.*};
  Changed = SELECT v FROM All:v POST-ACCUM v.@cc = getvid(v);
  WHILE Changed.size() > 0 DO
    Changed = SELECT t FROM Changed:v -(MyEdge>|<MyEdge:e)- MyNode:t
              WHERE v.@cc < t.@cc
              ACCUM t.@cc += v.@cc;
  END;
  Roots = SELECT v FROM All:v WHERE v.@cc == getvid(v) POST-ACCUM @@components += 1;
  PRINT @@components;
}
CREATE QUERY lib_pagerank(STRING v_type, STRING e_type, FLOAT max_change = 0.001,
    INT maximum_iteration = 25, FLOAT damping = 0.85, INT top_k = 100) FOR GRAPH ${RMAT_GRAPH} SYNTAX V1 {
  TYPEDEF TUPLE<VERTEX vertex_id, FLOAT score> Vertex_Score;
  HeapAccum<Vertex_Score>(top_k, score DESC) @@top_scores;
  MaxAccum<FLOAT> @@max_diff = 9999;
  SumAccum<FLOAT> @received = 0;
  SumAccum<FLOAT> @score = 1;
  Start = {v_type};
  WHILE @@max_diff > max_change LIMIT maximum_iteration DO
    @@max_diff = 0;
    V = SELECT s FROM Start:s -(e_type:e)- v_type:t
        ACCUM t.@received += s.@score / (s.outdegree(e_type))
        POST-ACCUM s.@score = (1.0 - damping) + damping * s.@received,
                   s.@received = 0,
                   @@max_diff += abs(s.@score - s.@score');
  END;
  V = SELECT s FROM Start:s POST-ACCUM @@top_scores += Vertex_Score(s, s.@score);
  PRINT @@top_scores;
}
CREATE QUERY lib_wcc(SET<STRING> v_type_set, SET<STRING> e_type_set, INT output_limit = 100)
    FOR GRAPH ${RMAT_GRAPH} SYNTAX V1 {
  MinAccum<INT> @cc_id = 0;
  MapAccum<INT, INT> @@component_sizes;
  Start = {v_type_set};
  S = SELECT x FROM Start:x POST-ACCUM x.@cc_id = getvid(x);
  WHILE Start.size() > 0 DO
    Start = SELECT t FROM Start:s -(e_type_set:e)- v_type_set:t
            ACCUM t.@cc_id += s.@cc_id
            HAVING t.@cc_id != t.@cc_id';
  END;
  Start = {v_type_set};
  Start = SELECT s FROM Start:s POST-ACCUM @@component_sizes += (s.@cc_id -> 1);
  PRINT @@component_sizes.size() AS components;
}
INSTALL QUERY khop, two_hop, hop2_chained, hop2_pattern, page_rank, wcc, lib_pagerank, lib_wcc`;
