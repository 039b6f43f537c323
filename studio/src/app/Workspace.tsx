/**
 * The workspace after login: the graph chooser (only graphs the user has a role on), log out, and
 * three views — Schema, GSQL (editor and results) and Data. The schema of the chosen graph is
 * loaded here, again each time the Schema view opens, and shared by every view (colours,
 * completion, the Data view's choices).
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { logout, loadSchema, typeCounts, type Session } from '../api/studio-api.js';
import { typeColors } from '../model/colors.js';
import type { SchemaInfo } from '../model/schema.js';
import { DataView } from './DataView.js';
import { EditorView } from './EditorView.js';
import { SchemaView } from './SchemaView.js';
import { useErrorText } from './session-lost.js';
import { TabList, TabPanel } from './Tabs.js';

const GRAPH_KEY = 'ocelot-studio:graph';
const VIEWS = [
  { id: 'schema', title: 'Schema' },
  { id: 'gsql', title: 'GSQL' },
  { id: 'data', title: 'Data' },
];

export interface SchemaState {
  schema?: SchemaInfo;
  counts: Map<string, number>;
  loading: boolean;
  error: string;
  vertexColors: Map<string, string>;
  edgeColors: Map<string, string>;
}

export function Workspace(props: { session: Session; onLogout(): void }) {
  const graphs = props.session.graphs;
  const [graph, setGraph] = useState(() => {
    const saved = localStorage.getItem(GRAPH_KEY);
    return graphs.find((g) => g.name === saved)?.name ?? graphs[0]?.name ?? '';
  });
  const [view, setView] = useState('schema');
  const [schema, setSchema] = useState<SchemaInfo>();
  const [counts, setCounts] = useState(new Map<string, number>());
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');
  const errorText = useErrorText();

  const reload = useCallback(async () => {
    if (graph === '') return;
    setLoading(true);
    setError('');
    try {
      const s = await loadSchema(graph);
      setSchema(s);
      setCounts(await typeCounts(graph));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setLoading(false);
    }
    // errorText only reads the session context, which never changes.
  }, [graph]);

  useEffect(() => {
    setSchema(undefined);
    setCounts(new Map());
    if (graph !== '') localStorage.setItem(GRAPH_KEY, graph);
    void reload();
  }, [graph, reload]);

  const schemaState: SchemaState = useMemo(
    () => ({
      ...(schema ? { schema } : {}),
      counts,
      loading,
      error,
      vertexColors: typeColors(schema?.vertexTypes.map((v) => v.name) ?? []),
      edgeColors: typeColors(schema?.edgeTypes.map((e) => e.name) ?? []),
    }),
    [schema, counts, loading, error],
  );

  function openView(id: string) {
    // Reopening the Schema view reads the schema again, so it shows changes made meanwhile.
    if (id === 'schema' && view !== 'schema') void reload();
    setView(id);
  }

  async function doLogout() {
    try {
      await logout();
    } finally {
      props.onLogout();
    }
  }

  return (
    <div className="workspace">
      <header className="topbar">
        <h1>Ocelot Studio</h1>
        <div className="graph-chooser">
          <label htmlFor="graph-chooser">Graph</label>
          <select
            id="graph-chooser"
            value={graph}
            onChange={(e) => setGraph(e.target.value)}
            disabled={graphs.length === 0}
          >
            {graphs.map((g) => (
              <option key={g.name} value={g.name}>
                {g.name}
              </option>
            ))}
          </select>
        </div>
        <span className="user" aria-label={`Logged in as ${props.session.user}`}>
          {props.session.user}
        </span>
        <button type="button" onClick={doLogout}>
          Log out
        </button>
      </header>
      {graphs.length === 0 ? (
        <main className="empty">
          <p role="status">
            You have no role on any graph. Ask an administrator to grant you one (GRANT ROLE … ON GRAPH … TO{' '}
            {props.session.user}), or create a graph first.
          </p>
        </main>
      ) : (
        <main className="views">
          <nav aria-label="Views">
            <TabList label="Views" prefix="view" tabs={VIEWS} active={view} onSelect={openView} />
          </nav>
          <TabPanel prefix="view" id="schema" active={view} className="view">
            {view === 'schema' && <SchemaView state={schemaState} />}
          </TabPanel>
          <TabPanel prefix="view" id="gsql" active={view} className="view">
            <EditorView
              graph={graph}
              user={props.session.user}
              state={schemaState}
              visible={view === 'gsql'}
            />
          </TabPanel>
          <TabPanel prefix="view" id="data" active={view} className="view">
            {view === 'data' && <DataView graph={graph} state={schemaState} />}
          </TabPanel>
        </main>
      )}
    </div>
  );
}
