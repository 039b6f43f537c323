/** The Table view: one table per printed name, the first rows of each. */
import { useMemo } from 'react';
import { resultTables } from '../model/result-table.js';

const MAX_ROWS = 500;

export function ResultTables(props: { results: unknown }) {
  const tables = useMemo(() => resultTables(props.results), [props.results]);
  if (tables.length === 0) return <p className="hint">The result has nothing to tabulate.</p>;
  return (
    <div className="tables">
      {tables.map((t, i) => (
        <div className="table-wrap" key={`${t.name}-${i}`}>
          <table data-testid="result-table">
            <caption>
              {t.name} — {t.rows.length} {t.rows.length === 1 ? 'row' : 'rows'}
              {t.rows.length > MAX_ROWS ? ` (the first ${MAX_ROWS} shown; the JSON view has all)` : ''}
            </caption>
            <thead>
              <tr>
                {t.columns.map((c) => (
                  <th scope="col" key={c}>
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {t.rows.slice(0, MAX_ROWS).map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}
