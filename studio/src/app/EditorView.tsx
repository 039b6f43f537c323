/**
 * The GSQL view: the editor, Run and Install, the parameter form of the query being run, the list
 * of installed queries, the history of runs, and the result in JSON, Table and Graph views.
 * Run: a query definition is interpreted (POST /gsql/v1/queries/interpret), `RUN QUERY q` runs the
 * installed query through REST++ (GET /restpp/query/{g}/q), anything else goes to the GSQL server
 * as statements (POST /gsql/v1/statements). Install: CREATE QUERY text is created and installed.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../api/client.js';
import {
  installedQueries,
  installQuery,
  interpretQuery,
  runInstalledQuery,
  runStatements,
  type InstalledQuery,
} from '../api/studio-api.js';
import { GsqlEditor, type EditorError, type GsqlEditorHandle } from '../editor/GsqlEditor.js';
import { schemaCompletions } from '../editor/gsql-language.js';
import { errorPosition, outputFailure } from '../model/error-position.js';
import { addToHistory, firstLine, parseHistory, type HistoryEntry } from '../model/history.js';
import { paramQueryString, type QueryParam } from '../model/query-params.js';
import { classifyGsql, createdQueryName, statementsScript, type EditorAction } from '../model/statement.js';
import { ParamForm } from './ParamForm.js';
import { ResultView, type RunResult } from './ResultView.js';
import { useErrorText } from './session-lost.js';
import type { SchemaState } from './Workspace.js';

function starterQuery(graph: string, state: SchemaState): string {
  const v = state.schema?.vertexTypes[0]?.name ?? 'Person';
  const e = state.schema?.edgeTypes.find((t) => t.pairs.some((p) => p.from === v));
  const to = e?.pairs.find((p) => p.from === v)?.to;
  if (!e || to === undefined || to === '*') {
    return `INTERPRET QUERY () FOR GRAPH ${graph} {\n  S = SELECT s FROM ${v}:s LIMIT 50;\n  PRINT S;\n}\n`;
  }
  return [
    `INTERPRET QUERY () FOR GRAPH ${graph} {`,
    `  SetAccum<EDGE> @@edges;`,
    `  S = SELECT t FROM ${v}:s -(${e.name}:e)-> ${to}:t`,
    `      ACCUM @@edges += e`,
    `      LIMIT 50;`,
    `  PRINT S;`,
    `  PRINT @@edges;`,
    `}`,
    ``,
  ].join('\n');
}

const historyKey = (user: string) => `ocelot-studio:history:${user}`;

export function EditorView(props: { graph: string; user: string; state: SchemaState; visible: boolean }) {
  const editor = useRef<GsqlEditorHandle>(null);
  const [text, setText] = useState(() => starterQuery(props.graph, props.state));
  const [values, setValues] = useState<Record<string, string>>({});
  const [queries, setQueries] = useState<InstalledQuery[]>([]);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<{ message: string; editor?: EditorError }>();
  const [result, setResult] = useState<RunResult>();
  const [history, setHistory] = useState<HistoryEntry[]>(() =>
    parseHistory(localStorage.getItem(historyKey(props.user))),
  );
  const errorText = useErrorText();
  const typedByUser = useRef(false);
  const settingText = useRef(false);
  const schemaRef = useRef(props.state.schema);
  schemaRef.current = props.state.schema;

  const action: EditorAction = useMemo(() => classifyGsql(text), [text]);
  const installName = useMemo(() => createdQueryName(text), [text]);
  const params: QueryParam[] = useMemo(() => {
    if (action.kind === 'interpret') return action.params;
    if (action.kind === 'runInstalled') return queries.find((q) => q.name === action.queryName)?.params ?? [];
    return [];
  }, [action, queries]);

  async function refreshQueries() {
    try {
      setQueries(await installedQueries(props.graph));
    } catch (e) {
      errorText(e);
      setQueries([]);
    }
  }

  useEffect(() => {
    void refreshQueries();
    setResult(undefined);
    setError(undefined);
    // errorText only reads the session context, which never changes.
  }, [props.graph]);

  // Until the user types, the example follows the chosen graph's schema.
  useEffect(() => {
    if (typedByUser.current) return;
    settingText.current = true;
    editor.current?.setText(starterQuery(props.graph, props.state));
    settingText.current = false;
  }, [props.graph, props.state.schema]);

  function remember(ok: boolean, summary: string) {
    const next = addToHistory(history, {
      text,
      graph: props.graph,
      at: new Date().toISOString(),
      ok,
      summary,
    });
    setHistory(next);
    localStorage.setItem(historyKey(props.user), JSON.stringify(next));
  }

  function fail(e: unknown, lineOffset = 0) {
    const message = errorText(e);
    const position = e instanceof ApiError ? errorPosition(message, lineOffset) : undefined;
    setError({ message, ...(position ? { editor: { message, position } } : {}) });
    setStatus('');
    remember(false, message.split('\n')[0]);
  }

  async function run() {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    setStatus('Running…');
    const started = performance.now();
    const took = () => `${Math.round(performance.now() - started)} ms`;
    try {
      if (action.kind === 'interpret' || action.kind === 'runInstalled') {
        const query = paramQueryString(params, values);
        const env =
          action.kind === 'interpret'
            ? await interpretQuery(action.graph ?? props.graph, text, query)
            : await runInstalledQuery(props.graph, action.queryName, query);
        setResult({ results: env.results, id: Date.now() });
        setStatus(`Ran in ${took()}.`);
        remember(
          true,
          `${action.kind === 'interpret' ? 'Interpreted' : `Ran ${action.queryName}`} in ${took()}`,
        );
      } else {
        const { script, lineOffset } = statementsScript(text, props.graph);
        const output = await runStatements(script);
        const failure = outputFailure(output, lineOffset);
        setResult({ results: parsedOutput(output), output, id: Date.now() });
        if (failure) {
          setError({
            message: failure.message,
            ...(failure.position ? { editor: { message: failure.message, position: failure.position } } : {}),
          });
          setStatus('');
          remember(false, failure.message);
        } else {
          setStatus(`Done in ${took()}.`);
          remember(true, `Statements in ${took()}`);
        }
        void refreshQueries();
      }
    } catch (e) {
      fail(e, action.kind === 'statements' ? 1 : 0);
    } finally {
      setBusy(false);
    }
  }

  async function install() {
    if (!installName || busy) return;
    setBusy(true);
    setError(undefined);
    setStatus(`Installing ${installName}…`);
    try {
      const message = await installQuery(props.graph, installName, text);
      setStatus(message || `Installed ${installName}.`);
      remember(true, `Installed ${installName}`);
      await refreshQueries();
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  }

  function load(next: string) {
    typedByUser.current = true;
    editor.current?.setText(next);
    editor.current?.focus();
  }

  return (
    <div className="editor-view">
      <h2 className="visually-hidden">GSQL</h2>
      <div className="editor-layout">
        <section className="editor-main" aria-label="GSQL editor">
          <div className="toolbar" role="toolbar" aria-label="Editor actions">
            <button type="button" onClick={run} disabled={busy} className="primary">
              Run
            </button>
            <button
              type="button"
              onClick={install}
              disabled={busy || !installName}
              title="Install the query of a CREATE QUERY text"
            >
              Install
            </button>
            <span className="action-kind" aria-live="polite">
              {action.kind === 'interpret'
                ? 'Run interprets this query.'
                : action.kind === 'runInstalled'
                  ? `Run calls the installed query ${action.queryName}.`
                  : 'Run sends these statements to the GSQL server.'}
            </span>
          </div>
          <GsqlEditor
            ref={editor}
            initialText={text}
            onChange={(t) => {
              if (!settingText.current) typedByUser.current = true;
              setText(t);
            }}
            onRun={() => void run()}
            completions={() => schemaCompletions(schemaRef.current)}
            error={error?.editor}
          />
          <ParamForm
            title={`Parameters of ${action.kind === 'runInstalled' ? action.queryName : (action.kind === 'interpret' && action.queryName) || 'the query'}`}
            params={params}
            values={values}
            onChange={setValues}
          />
          <div className="run-status" role="status">
            {status}
          </div>
          {error && (
            <div role="alert" className="error">
              {error.editor
                ? `Line ${error.editor.position.line}, column ${error.editor.position.column}: `
                : ''}
              {error.message}
            </div>
          )}
        </section>
        <aside className="side" aria-label="Queries and history">
          <h3 id="installed-title">Installed queries</h3>
          {queries.length === 0 ? (
            <p className="hint">No queries in {props.graph} yet.</p>
          ) : (
            <ul aria-labelledby="installed-title" className="query-list">
              {queries.map((q) => (
                <li key={q.name}>
                  <button
                    type="button"
                    onClick={() => load(`RUN QUERY ${q.name}()\n`)}
                    disabled={!q.installed}
                  >
                    {q.name}
                  </button>
                  <button
                    type="button"
                    className="link"
                    onClick={() => load(q.code)}
                    aria-label={`Edit the text of ${q.name}`}
                  >
                    edit
                  </button>
                  {!q.installed && <span className="hint"> (not installed)</span>}
                </li>
              ))}
            </ul>
          )}
          <h3 id="history-title">History</h3>
          {history.length === 0 ? (
            <p className="hint">Runs will be listed here.</p>
          ) : (
            <ol aria-labelledby="history-title" className="history">
              {history.map((h) => (
                <li key={`${h.at}-${h.text.length}`} className={h.ok ? 'ok' : 'failed'}>
                  <button type="button" onClick={() => load(h.text)} title={h.text}>
                    <span className="first-line">{firstLine(h.text)}</span>
                    <span className="summary">
                      {h.ok ? '' : 'Failed: '}
                      {h.summary} · {h.graph} · {new Date(h.at).toLocaleTimeString()}
                    </span>
                  </button>
                </li>
              ))}
            </ol>
          )}
        </aside>
      </div>
      {result && (
        <ResultView
          key={result.id}
          result={result}
          graph={props.graph}
          state={props.state}
          visible={props.visible}
        />
      )}
    </div>
  );
}

/** The statements' output as JSON when it is one JSON document (RUN QUERY with arguments prints one). */
function parsedOutput(output: string): unknown {
  const trimmed = output.trim();
  const start = trimmed.search(/[[{]/);
  if (start < 0) return undefined;
  try {
    const v: unknown = JSON.parse(trimmed.slice(start));
    return v !== null && typeof v === 'object' && 'results' in v ? (v as { results: unknown }).results : v;
  } catch {
    return undefined;
  }
}
