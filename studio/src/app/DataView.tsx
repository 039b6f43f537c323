/**
 * The Data view: browse the vertices of a type with filters, sorting and a limit (REST++'s vertex
 * list), and load a CSV file through one of the graph's loading jobs (REST++ POST /ddl) with a
 * progress bar and the job's statistics.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { listVertices, loadFile, loadingJobs, type LoadStatistics } from '../api/studio-api.js';
import type { LoadingJobInfo } from '../model/loading-jobs.js';
import { FILTER_OPS, type FilterOp, type VertexFilter } from '../model/vertex-query.js';
import { ResultTables } from './ResultTables.js';
import { useErrorText } from './session-lost.js';
import type { SchemaState } from './Workspace.js';

function BrowseVertices(props: { graph: string; state: SchemaState }) {
  const types = props.state.schema?.vertexTypes ?? [];
  const [typeName, setTypeName] = useState(types[0]?.name ?? '');
  const [filters, setFilters] = useState<VertexFilter[]>([]);
  const [sortBy, setSortBy] = useState('');
  const [descending, setDescending] = useState(false);
  const [limit, setLimit] = useState(100);
  const [rows, setRows] = useState<unknown[]>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const errorText = useErrorText();
  const type = types.find((t) => t.name === typeName) ?? types[0];
  const attributes = type?.attributes.map((a) => a.name) ?? [];

  useEffect(() => {
    if (!types.some((t) => t.name === typeName) && types[0]) setTypeName(types[0].name);
  }, [types, typeName]);

  async function show(e: FormEvent) {
    e.preventDefault();
    if (!type) return;
    setBusy(true);
    setError('');
    try {
      setRows(
        await listVertices({
          graph: props.graph,
          vertexType: type.name,
          filters,
          ...(sortBy ? { sortBy, descending } : {}),
          limit,
        }),
      );
    } catch (err) {
      setError(errorText(err));
      setRows(undefined);
    } finally {
      setBusy(false);
    }
  }

  const setFilter = (i: number, f: Partial<VertexFilter>) =>
    setFilters(filters.map((x, k) => (k === i ? { ...x, ...f } : x)));
  const shown = useMemo(() => (rows ? [{ [type?.name ?? 'vertices']: rows }] : []), [rows, type]);

  return (
    <section aria-labelledby="browse-title" className="card">
      <h3 id="browse-title">Browse vertices</h3>
      <form onSubmit={show} className="browse-form">
        <label htmlFor="browse-type">Vertex type</label>
        <select id="browse-type" value={type?.name ?? ''} onChange={(e) => setTypeName(e.target.value)}>
          {types.map((t) => (
            <option key={t.name}>{t.name}</option>
          ))}
        </select>
        <fieldset>
          <legend>Filters</legend>
          {filters.map((f, i) => (
            <div className="filter-row" key={i}>
              <label htmlFor={`filter-attr-${i}`} className="visually-hidden">
                Attribute of filter {i + 1}
              </label>
              <select
                id={`filter-attr-${i}`}
                value={f.attribute}
                onChange={(e) => setFilter(i, { attribute: e.target.value })}
              >
                {attributes.map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
              <label htmlFor={`filter-op-${i}`} className="visually-hidden">
                Comparison of filter {i + 1}
              </label>
              <select
                id={`filter-op-${i}`}
                value={f.op}
                onChange={(e) => setFilter(i, { op: e.target.value as FilterOp })}
              >
                {FILTER_OPS.map((op) => (
                  <option key={op}>{op}</option>
                ))}
              </select>
              <label htmlFor={`filter-value-${i}`} className="visually-hidden">
                Value of filter {i + 1}
              </label>
              <input
                id={`filter-value-${i}`}
                value={f.value}
                onChange={(e) => setFilter(i, { value: e.target.value })}
              />
              <button
                type="button"
                onClick={() => setFilters(filters.filter((_, k) => k !== i))}
                aria-label={`Remove filter ${i + 1}`}
              >
                Remove
              </button>
            </div>
          ))}
          <button
            type="button"
            disabled={attributes.length === 0}
            onClick={() => setFilters([...filters, { attribute: attributes[0], op: '=', value: '' }])}
          >
            Add a filter
          </button>
        </fieldset>
        <label htmlFor="browse-sort">Sort by</label>
        <select id="browse-sort" value={sortBy} onChange={(e) => setSortBy(e.target.value)}>
          <option value="">(none)</option>
          {attributes.map((a) => (
            <option key={a}>{a}</option>
          ))}
        </select>
        <label className="inline">
          <input type="checkbox" checked={descending} onChange={(e) => setDescending(e.target.checked)} />{' '}
          Descending
        </label>
        <label htmlFor="browse-limit">Limit</label>
        <input
          id="browse-limit"
          type="number"
          min={1}
          max={100000}
          value={limit}
          onChange={(e) => setLimit(Math.max(1, Number(e.target.value) || 1))}
        />
        <button type="submit" className="primary" disabled={busy || !type}>
          Show vertices
        </button>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {rows &&
        (rows.length === 0 ? <p role="status">No vertices match.</p> : <ResultTables results={shown} />)}
    </section>
  );
}

function LoadCsv(props: { graph: string }) {
  const [jobs, setJobs] = useState<LoadingJobInfo[]>();
  const [job, setJob] = useState('');
  const [filename, setFilename] = useState('');
  const [file, setFile] = useState<File>();
  const [progress, setProgress] = useState<number>();
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [stats, setStats] = useState<LoadStatistics[]>();
  const errorText = useErrorText();

  useEffect(() => {
    loadingJobs(props.graph).then(
      (list) => {
        setJobs(list);
        setJob(list[0]?.name ?? '');
        setFilename(list[0]?.filenames[0] ?? '');
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, [props.graph]);

  const chosen = jobs?.find((j) => j.name === job);

  async function load(e: FormEvent) {
    e.preventDefault();
    if (!file || !chosen || filename === '') return;
    setError('');
    setStats(undefined);
    setProgress(0);
    setStatus(`Sending ${file.name}…`);
    try {
      const env = await loadFile(props.graph, chosen.name, filename, file, (f) => {
        setProgress(f);
        if (f >= 1) setStatus(`Loading ${file.name}…`);
      });
      setStats(env.results);
      setStatus(`Loaded ${file.name} through ${chosen.name}.`);
    } catch (err) {
      setError(errorText(err));
      setStatus('');
    } finally {
      setProgress(undefined);
    }
  }

  return (
    <section aria-labelledby="load-title" className="card">
      <h3 id="load-title">Load a CSV file</h3>
      {jobs && jobs.length === 0 && (
        <p className="hint">
          The graph {props.graph} has no loading job. Create one in the GSQL view (CREATE LOADING JOB …).
        </p>
      )}
      {jobs && jobs.length > 0 && (
        <form onSubmit={load} className="load-form">
          <label htmlFor="load-job">Loading job</label>
          <select
            id="load-job"
            value={job}
            onChange={(e) => {
              setJob(e.target.value);
              setFilename(jobs.find((j) => j.name === e.target.value)?.filenames[0] ?? '');
            }}
          >
            {jobs.map((j) => (
              <option key={j.name}>{j.name}</option>
            ))}
          </select>
          <label htmlFor="load-filename">Filename variable</label>
          <select id="load-filename" value={filename} onChange={(e) => setFilename(e.target.value)}>
            {(chosen?.filenames ?? []).map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
          <label htmlFor="load-file">CSV file</label>
          <input
            id="load-file"
            type="file"
            accept=".csv,.tsv,.txt,text/csv"
            onChange={(e) => setFile(e.target.files?.[0])}
          />
          <button
            type="submit"
            className="primary"
            disabled={!file || filename === '' || progress !== undefined}
          >
            Load
          </button>
        </form>
      )}
      {progress !== undefined && (
        <>
          <label htmlFor="load-progress">Upload progress</label>
          <progress id="load-progress" max={1} value={progress} />
        </>
      )}
      <p role="status">{status}</p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {stats && (
        <table className="stats">
          <caption>Loading statistics</caption>
          <thead>
            <tr>
              <th scope="col">What</th>
              <th scope="col">Count</th>
            </tr>
          </thead>
          <tbody>
            {stats.flatMap((s, i) => [
              <tr key={`${i}-valid`}>
                <td>Valid lines</td>
                <td>{s.statistics?.validLine ?? 0}</td>
              </tr>,
              <tr key={`${i}-reject`}>
                <td>Rejected lines</td>
                <td>{s.statistics?.rejectLine ?? 0}</td>
              </tr>,
              ...(s.statistics?.vertex ?? []).map((v) => (
                <tr key={`${i}-v-${v.typeName}`}>
                  <td>Vertices {v.typeName}</td>
                  <td>{v.validObject}</td>
                </tr>
              )),
              ...(s.statistics?.edge ?? []).map((x) => (
                <tr key={`${i}-e-${x.typeName}`}>
                  <td>Edges {x.typeName}</td>
                  <td>{x.validObject}</td>
                </tr>
              )),
            ])}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function DataView(props: { graph: string; state: SchemaState }) {
  return (
    <div className="data-view">
      <h2 className="visually-hidden">Data</h2>
      <BrowseVertices graph={props.graph} state={props.state} />
      <LoadCsv graph={props.graph} />
    </div>
  );
}
