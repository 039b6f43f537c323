/**
 * The schema of the chosen graph: vertex types as nodes and edge types as links (an arrow for a
 * directed edge, a hollow arrow at the source too when it has a reverse edge, a plain dashed line
 * for an undirected edge), laid out automatically; the reverse edge's name is in the type list. Choosing a type, in the drawing or in the list
 * beside it, shows its primary id, attributes, indexes and count.
 */
import { useEffect, useRef, useState } from 'react';
import { colorOf } from '../model/colors.js';
import { schemaLinks, type EdgeTypeInfo, type SchemaInfo, type VertexTypeInfo } from '../model/schema.js';
import { cytoscape, layoutOptions, runLayout } from '../graph/cytoscape-setup.js';
import type { SchemaState } from './Workspace.js';

type Selected = { kind: 'vertex' | 'edge'; name: string } | undefined;

const SCHEMA_STYLE: cytoscape.StylesheetJson = [
  {
    selector: 'node',
    style: {
      'background-color': 'data(color)',
      label: 'data(label)',
      'text-valign': 'bottom',
      'text-margin-y': 6,
      'font-size': 13,
      'font-weight': 'bold',
      color: '#111827',
      'text-outline-color': '#ffffff',
      'text-outline-width': 2,
      width: 44,
      height: 44,
    },
  },
  { selector: 'node:selected', style: { 'border-width': 4, 'border-color': '#111827' } },
  {
    selector: 'edge',
    style: {
      width: 2,
      'line-color': '#6b7280',
      'curve-style': 'bezier',
      label: 'data(label)',
      'font-size': 11,
      color: '#374151',
      'text-rotation': 'autorotate',
      'text-background-color': '#ffffff',
      'text-background-opacity': 0.85,
      'text-background-padding': '2px',
      'loop-sweep': '-50deg',
      'loop-direction': '-45deg',
    },
  },
  {
    selector: 'edge[directed = "yes"]',
    style: { 'target-arrow-shape': 'triangle', 'target-arrow-color': '#6b7280', 'arrow-scale': 1.3 },
  },
  {
    selector: 'edge[reverse = "yes"]',
    style: {
      'source-arrow-shape': 'triangle',
      'source-arrow-fill': 'hollow',
      'source-arrow-color': '#6b7280',
    },
  },
  { selector: 'edge[directed = "no"]', style: { 'line-style': 'dashed' } },
  { selector: 'edge:selected', style: { 'line-color': '#111827', width: 4 } },
];

function SchemaDiagram(props: {
  schema: SchemaInfo;
  colors: Map<string, string>;
  onSelect(s: Selected): void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const onSelect = useRef(props.onSelect);
  onSelect.current = props.onSelect;

  useEffect(() => {
    const links = schemaLinks(props.schema);
    const cy = cytoscape({
      container: host.current,
      elements: [
        ...props.schema.vertexTypes.map((v) => ({
          data: { id: v.name, label: v.name, color: colorOf(props.colors, v.name) },
        })),
        ...links.map((l) => ({
          data: {
            id: l.id,
            source: l.source,
            target: l.target,
            label: l.edgeType,
            edgeType: l.edgeType,
            directed: l.directed ? 'yes' : 'no',
            reverse: l.reverseEdge === undefined ? 'no' : 'yes',
          },
        })),
      ],
      style: SCHEMA_STYLE,
      boxSelectionEnabled: false,
      minZoom: 0.2,
      maxZoom: 3,
    });
    runLayout(cy, layoutOptions(props.schema.vertexTypes.length + links.length, false, 170));
    cy.on('tap', 'node', (e) => onSelect.current({ kind: 'vertex', name: String(e.target.id()) }));
    cy.on('tap', 'edge', (e) => onSelect.current({ kind: 'edge', name: String(e.target.data('edgeType')) }));
    return () => cy.destroy();
  }, [props.schema, props.colors]);

  const v = props.schema.vertexTypes.length;
  const e = props.schema.edgeTypes.length;
  return (
    <div
      ref={host}
      className="diagram"
      role="img"
      aria-label={`Schema diagram of graph ${props.schema.graph}: ${v} vertex types and ${e} edge types. The lists beside it name every type.`}
      data-testid="schema-diagram"
    />
  );
}

function count(state: SchemaState, name: string): string {
  const n = state.counts.get(name);
  return n === undefined ? '' : n.toLocaleString('en-US');
}

function VertexDetails(props: { v: VertexTypeInfo; state: SchemaState }) {
  const { v } = props;
  const indexed = v.attributes.filter((a) => a.indexed);
  return (
    <section aria-labelledby="type-details-title" className="details">
      <h3 id="type-details-title">Vertex type {v.name}</h3>
      <dl>
        <dt>Primary id</dt>
        <dd>
          {v.compositeKey
            ? `PRIMARY KEY (${v.compositeKey.join(', ')})`
            : `${v.primaryId.name} ${v.primaryId.type}`}
          {v.primaryId.asAttribute && !v.compositeKey ? ' (also an attribute)' : ''}
        </dd>
        <dt>Vertices</dt>
        <dd>{count(props.state, v.name) || 'unknown'}</dd>
        <dt>Indexes</dt>
        <dd>{indexed.length === 0 ? 'none' : indexed.map((a) => a.name).join(', ')}</dd>
      </dl>
      <table>
        <caption>Attributes of {v.name}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Index</th>
          </tr>
        </thead>
        <tbody>
          {v.attributes.map((a) => (
            <tr key={a.name}>
              <td>{a.name}</td>
              <td>{a.type}</td>
              <td>{a.indexed ? 'yes' : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function EdgeDetails(props: { e: EdgeTypeInfo; state: SchemaState }) {
  const { e } = props;
  return (
    <section aria-labelledby="type-details-title" className="details">
      <h3 id="type-details-title">Edge type {e.name}</h3>
      <dl>
        <dt>Kind</dt>
        <dd>{e.directed ? 'directed' : 'undirected'}</dd>
        {e.reverseEdge && (
          <>
            <dt>Reverse edge</dt>
            <dd>{e.reverseEdge}</dd>
          </>
        )}
        <dt>From → to</dt>
        <dd>{e.pairs.map((p) => `${p.from} → ${p.to}`).join(', ')}</dd>
        <dt>Edges</dt>
        <dd>{count(props.state, e.name) || 'unknown'}</dd>
      </dl>
      <table>
        <caption>Attributes of {e.name}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Discriminator</th>
          </tr>
        </thead>
        <tbody>
          {e.attributes.map((a) => (
            <tr key={a.name}>
              <td>{a.name}</td>
              <td>{a.type}</td>
              <td>{a.discriminator ? 'yes' : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function SchemaView(props: { state: SchemaState }) {
  const { schema, loading, error } = props.state;
  const [selected, setSelected] = useState<Selected>();
  const vertex =
    selected?.kind === 'vertex' ? schema?.vertexTypes.find((v) => v.name === selected.name) : undefined;
  const edge =
    selected?.kind === 'edge' ? schema?.edgeTypes.find((e) => e.name === selected.name) : undefined;

  return (
    <div className="schema-view">
      <h2 className="visually-hidden">Schema</h2>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {loading && !schema && <p role="status">Loading the schema…</p>}
      {schema && schema.vertexTypes.length === 0 && (
        <p role="status">The graph {schema.graph} has no types yet.</p>
      )}
      {schema && (
        <div className="schema-layout">
          <SchemaDiagram schema={schema} colors={props.state.vertexColors} onSelect={setSelected} />
          <aside className="side" aria-label="Schema types">
            <p className="legend-note">
              Arrow: directed edge. Hollow arrow at the source: it has a reverse edge. Dashed: undirected.
            </p>
            <h3 id="vertex-types-title">Vertex types</h3>
            <ul aria-labelledby="vertex-types-title" className="type-list">
              {schema.vertexTypes.map((v) => (
                <li key={v.name}>
                  <button
                    type="button"
                    data-testid="schema-type"
                    aria-pressed={selected?.kind === 'vertex' && selected.name === v.name}
                    onClick={() => setSelected({ kind: 'vertex', name: v.name })}
                  >
                    <span
                      className="swatch"
                      style={{ backgroundColor: props.state.vertexColors.get(v.name) }}
                      aria-hidden="true"
                    />
                    {v.name}
                    <span className="count">{count(props.state, v.name)}</span>
                  </button>
                </li>
              ))}
            </ul>
            <h3 id="edge-types-title">Edge types</h3>
            <ul aria-labelledby="edge-types-title" className="type-list">
              {schema.edgeTypes.map((e) => (
                <li key={e.name}>
                  <button
                    type="button"
                    data-testid="schema-edge-type"
                    aria-pressed={selected?.kind === 'edge' && selected.name === e.name}
                    onClick={() => setSelected({ kind: 'edge', name: e.name })}
                  >
                    {e.name}
                    <span className="kind">
                      {e.directed ? (e.reverseEdge ? ` ⇄ ${e.reverseEdge}` : ' →') : ' — undirected'}
                    </span>
                    <span className="count">{count(props.state, e.name)}</span>
                  </button>
                </li>
              ))}
            </ul>
            <div aria-live="polite">
              {vertex && <VertexDetails v={vertex} state={props.state} />}
              {edge && <EdgeDetails e={edge} state={props.state} />}
              {!vertex && !edge && (
                <p className="hint">Choose a type to see its attributes, primary id, indexes and count.</p>
              )}
            </div>
          </aside>
        </div>
      )}
    </div>
  );
}
