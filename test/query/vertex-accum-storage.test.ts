import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQueryText } from '../../src/gsql/parser-query.js';
import { compileQuery } from '../../src/query/compile-query.js';
import { executeQuery } from '../../src/query/run.js';
import { stringifyJson } from '../../src/util/json.js';
import { socialNet } from '../fixtures/query/social-net.js';
import { runText } from '../fixtures/query/run.js';

const q = (body: string): string => `CREATE QUERY t() FOR GRAPH socialNet {\n${body}\n}`;

/** The exact JSON text a client receives (64-bit integers included). */
async function jsonOf(src: string): Promise<string> {
  const db = socialNet();
  const [stmt] = parseQueryText(src);
  if (stmt.kind !== 'createQuery') throw new Error('expected CREATE QUERY');
  const { results } = await executeQuery(db, compileQuery(stmt.query, db.catalog, 'socialNet'), {});
  return stringifyJson(results);
}

test('vertex-attached INT sums stay exact past 2^53 and come back; untouched Min/Max<INT> print their 64-bit start', async () => {
  const text = await jsonOf(
    q(`SumAccum<INT> @big = 9007199254740990;
       SumAccum<UINT> @u;
       MinAccum<INT> @lo;
       MaxAccum<UINT> @hi;
       MinAccum<INT> @seen;
       Start = {person.*};
       Two = SELECT p FROM Start:p WHERE p.gender == "Male";
       S = SELECT p FROM Two:p -(friend:e)- person:f
           ACCUM p.@big += 3, p.@seen += 7
           POST-ACCUM p.@u = 18446744073709551615;
       PRINT Two[Two.@big, Two.@u, Two.@lo, Two.@hi, Two.@seen];`),
  );
  // person1 has 2 friends (…996), person3 has 3 (…999): both past 2^53 = 9007199254740992.
  assert.equal(
    text,
    '[{"Two":[' +
      '{"v_id":"person1","v_type":"person","attributes":{"Two.@big":9007199254740996,"Two.@u":18446744073709551615,' +
      '"Two.@lo":9223372036854775807,"Two.@hi":0,"Two.@seen":7}},' +
      '{"v_id":"person3","v_type":"person","attributes":{"Two.@big":9007199254740999,"Two.@u":18446744073709551615,' +
      '"Two.@lo":9223372036854775807,"Two.@hi":0,"Two.@seen":7}}]}]',
  );
  const back = await jsonOf(
    q(`SumAccum<INT> @big = 9007199254740990;
       Start = {person.*};
       S = SELECT p FROM Start:p -(friend:e)- person:f ACCUM p.@big += 3;
       S = SELECT p FROM Start:p POST-ACCUM p.@big += -9007199254740000;
       PRINT Start[Start.@big];`),
  );
  assert.equal(
    back,
    '[{"Start":[' +
      [
        ['person1', 996],
        ['person2', 996],
        ['person3', 999],
        ['person4', 993],
      ]
        .map(([id, n]) => `{"v_id":"${id}","v_type":"person","attributes":{"Start.@big":${n}}}`)
        .join(',') +
      ']}]',
  );
});

test('ACCUM that reads what it updates sees the values from before the clause, for every accumulator kind', async () => {
  const out = await runText(
    socialNet(),
    q(`SumAccum<DOUBLE> @d = 1.5;
       SumAccum<FLOAT> @f;
       MaxAccum<INT> @m = 1;
       OrAccum @o;
       AndAccum @a;
       SumAccum<INT> @@snapshot;
       Start = {person.*};
       S = SELECT p FROM Start:p -(friend:e)- person:f
           ACCUM p.@d += f.@d, p.@f += 0.1, p.@m += f.@m + 1, p.@o += f.@o OR f.gender == "Female",
                 p.@a += NOT f.@a, @@snapshot += p.@m;
       PRINT Start[Start.@d, Start.@f, Start.@m, Start.@o, Start.@a], @@snapshot;`),
  );
  const row = (id: string, d: number, fl: number, o: boolean): unknown => ({
    v_id: id,
    v_type: 'person',
    attributes: { 'Start.@d': d, 'Start.@f': fl, 'Start.@m': 2, 'Start.@o': o, 'Start.@a': false },
  });
  // FLOAT sums are single precision and print with single-precision digits.
  assert.deepEqual(out, [
    {
      Start: [
        row('person1', 4.5, 0.2, true),
        row('person2', 4.5, 0.2, false),
        row('person3', 6, 0.3, true),
        row('person4', 3, 0.1, false),
      ],
      '@@snapshot': 8,
    },
  ]);
});
