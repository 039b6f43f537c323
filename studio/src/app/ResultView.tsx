/** A run's result in three views: JSON (as the server sent it), Table, and Graph. */
import { useMemo, useState } from 'react';
import { reverseEdgeMap } from '../model/schema.js';
import { resultGraph } from '../model/result-graph.js';
import { GraphExplorer } from './GraphExplorer.js';
import { ResultTables } from './ResultTables.js';
import { TabList, TabPanel } from './Tabs.js';
import type { SchemaState } from './Workspace.js';

export interface RunResult {
  /** The query's `results` (or the statements' output parsed as JSON, when it is JSON). */
  results: unknown;
  /** The GSQL server's text output of statements. */
  output?: string;
  id: number;
}

const VIEWS = [
  { id: 'json', title: 'JSON' },
  { id: 'table', title: 'Table' },
  { id: 'graph', title: 'Graph' },
];
/** Past this, the JSON view shows the beginning only (the browser stays responsive). */
const MAX_JSON_CHARS = 2_000_000;

export function ResultView(props: {
  result: RunResult;
  graph: string;
  state: SchemaState;
  visible: boolean;
}) {
  const [view, setView] = useState('json');
  // The drawing is made the first time the Graph view opens and kept (with what was expanded) after.
  const [graphOpened, setGraphOpened] = useState(false);
  if (view === 'graph' && props.visible && !graphOpened) setGraphOpened(true);
  const json = useMemo(() => {
    if (props.result.results === undefined) return props.result.output ?? '';
    const text = JSON.stringify(props.result.results, null, 2);
    return text.length > MAX_JSON_CHARS
      ? `${text.slice(0, MAX_JSON_CHARS)}\n… (cut at ${MAX_JSON_CHARS} characters)`
      : text;
  }, [props.result]);
  const graph = useMemo(
    () => resultGraph(props.result.results, reverseEdgeMap(props.state.schema)),
    [props.result, props.state.schema],
  );

  return (
    <section className="results" aria-labelledby="results-title">
      <h2 id="results-title">Result</h2>
      <TabList label="Result views" prefix="result" tabs={VIEWS} active={view} onSelect={setView} />
      <TabPanel prefix="result" id="json" active={view} className="result-panel">
        <pre className="json" tabIndex={0} aria-label="Result as JSON" data-testid="result-json">
          {json}
        </pre>
      </TabPanel>
      <TabPanel prefix="result" id="table" active={view} className="result-panel">
        {props.result.results === undefined ? (
          <p className="hint">The output is text; see the JSON view.</p>
        ) : (
          <ResultTables results={props.result.results} />
        )}
      </TabPanel>
      <TabPanel prefix="result" id="graph" active={view} className="result-panel">
        {graphOpened && (
          <GraphExplorer
            graph={props.graph}
            initial={graph}
            state={props.state}
            shown={view === 'graph' && props.visible}
          />
        )}
      </TabPanel>
    </section>
  );
}
