/**
 * The Graph view of a result: its vertices and edges drawn with cytoscape.js, coloured per type
 * with a legend. Choosing a vertex (click, or the keyboard-reachable list) shows its attributes
 * (read from REST++ when the result did not carry them); double-click or "Expand" adds its
 * neighbours through REST++'s edges of that vertex.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { vertexById, vertexEdges } from '../api/studio-api.js';
import { colorOf } from '../model/colors.js';
import { addResult, type GraphData, type GraphEdge, type GraphVertex } from '../model/result-graph.js';
import { reverseEdgeMap } from '../model/schema.js';
import { cellText } from '../model/result-table.js';
import {
  cytoscape,
  LARGE_GRAPH,
  layoutOptions,
  rendererOptions,
  runLayout,
} from '../graph/cytoscape-setup.js';
import { useErrorText } from './session-lost.js';
import type { SchemaState } from './Workspace.js';

/** Most edges one expansion reads. */
const EXPAND_LIMIT = 200;
/** Most vertices the keyboard list names (the drawing has them all). */
const LIST_LIMIT = 2000;

/** Small dots and labels only when zoomed in for a large drawing; bigger ones with labels otherwise. */
function graphStyle(large: boolean): cytoscape.StylesheetJson {
  const size = large ? 9 : 18;
  return [
    {
      selector: 'node',
      style: {
        'background-color': 'data(color)',
        label: 'data(label)',
        'font-size': 10,
        'text-valign': 'bottom',
        'text-margin-y': 3,
        color: '#111827',
        'text-outline-color': '#ffffff',
        'text-outline-width': 2,
        // A label is drawn once it would be at least this many pixels tall.
        'min-zoomed-font-size': large ? 11 : 7,
        width: size,
        height: size,
      },
    },
    {
      selector: 'node:selected',
      style: { 'border-width': 4, 'border-color': '#111827', width: size + 6, height: size + 6 },
    },
    {
      selector: 'edge',
      style: {
        width: large ? 1 : 1.5,
        'line-color': 'data(color)',
        'curve-style': large ? 'haystack' : 'bezier',
        opacity: 0.8,
      },
    },
    {
      selector: 'edge[directed = "yes"]',
      style: large
        ? {}
        : { 'target-arrow-shape': 'triangle', 'target-arrow-color': 'data(color)', 'arrow-scale': 0.8 },
    },
    {
      selector: 'edge.labelled',
      style: {
        label: 'data(label)',
        'font-size': 8,
        color: '#4b5563',
        'text-rotation': 'autorotate',
        'min-zoomed-font-size': 8,
      },
    },
  ];
}

function nodeOf(v: GraphVertex, colors: Map<string, string>): cytoscape.ElementDefinition {
  return { group: 'nodes', data: { id: v.key, label: v.id, type: v.type, color: colorOf(colors, v.type) } };
}

function edgeOf(e: GraphEdge, colors: Map<string, string>, labelled: boolean): cytoscape.ElementDefinition {
  return {
    group: 'edges',
    data: {
      id: e.key,
      source: e.source,
      target: e.target,
      label: e.type,
      type: e.type,
      directed: e.directed ? 'yes' : 'no',
      color: colorOf(colors, e.type),
    },
    classes: labelled ? 'labelled' : '',
  };
}

function cloneGraph(g: GraphData): GraphData {
  return {
    vertices: new Map([...g.vertices].map(([k, v]) => [k, { ...v }])),
    edges: new Map(g.edges),
  };
}

export function GraphExplorer(props: {
  graph: string;
  initial: GraphData;
  state: SchemaState;
  shown: boolean;
}) {
  const host = useRef<HTMLDivElement>(null);
  const cyRef = useRef<cytoscape.Core>();
  const data = useRef<GraphData>(cloneGraph(props.initial));
  const [version, setVersion] = useState(0);
  const [selected, setSelected] = useState<string>();
  const [drawn, setDrawn] = useState<string[]>([]);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const errorText = useErrorText();
  const reverseOf = useMemo(() => reverseEdgeMap(props.state.schema), [props.state.schema]);
  const expandRef = useRef<(key: string) => void>(() => undefined);

  useEffect(() => {
    const g = data.current;
    const count = g.vertices.size + g.edges.size;
    const labelled = count <= LARGE_GRAPH;
    const cy = cytoscape({
      container: host.current,
      elements: [
        ...[...g.vertices.values()].map((v) => nodeOf(v, props.state.vertexColors)),
        ...[...g.edges.values()].map((e) => edgeOf(e, props.state.edgeColors, labelled)),
      ],
      style: graphStyle(count > LARGE_GRAPH),
      ...rendererOptions(count),
    });
    runLayout(cy, layoutOptions(count));
    // The keyboard list names what is drawn, read back from the drawing itself.
    // Once per batch of additions, not once per element.
    let pending = false;
    const readBack = () => {
      if (pending) return;
      pending = true;
      queueMicrotask(() => {
        pending = false;
        if (!cy.destroyed()) setDrawn(cy.nodes().map((n) => String(n.id())));
      });
    };
    cy.on('add remove', readBack);
    readBack();
    cy.on('select', 'node', (e) => setSelected(String(e.target.id())));
    cy.on('unselect', 'node', () => setSelected(undefined));
    cy.on('dbltap', 'node', (e) => expandRef.current(String(e.target.id())));
    cyRef.current = cy;
    return () => {
      cy.destroy();
      cyRef.current = undefined;
    };
    // The drawing is made once per result; expansions add to it.
  }, []);

  // Hidden panels have no size: once shown again, the drawing takes its container's size.
  useEffect(() => {
    if (props.shown) cyRef.current?.resize();
  }, [props.shown]);

  function select(key: string) {
    const cy = cyRef.current;
    if (!cy) return;
    cy.elements().unselect();
    const node = cy.getElementById(key);
    node.select();
    // Brought into view, at the zoom the user chose.
    cy.animate({ center: { eles: node } }, { duration: 200 });
  }

  async function expand(key: string) {
    const v = data.current.vertices.get(key);
    const cy = cyRef.current;
    if (!v || !cy || busy) return;
    setBusy(true);
    setMessage(`Expanding ${v.type} ${v.id}…`);
    try {
      const edges = await vertexEdges(props.graph, v.type, v.id, EXPAND_LIMIT);
      const beforeV = new Set(data.current.vertices.keys());
      const beforeE = new Set(data.current.edges.keys());
      addResult(data.current, edges, reverseOf);
      const newV = [...data.current.vertices.values()].filter((x) => !beforeV.has(x.key));
      const newE = [...data.current.edges.values()].filter((x) => !beforeE.has(x.key));
      const count = data.current.vertices.size + data.current.edges.size;
      const center = cy.getElementById(key).position();
      cy.add([
        ...newV.map((x) => ({ ...nodeOf(x, props.state.vertexColors), position: { ...center } })),
        ...newE.map((x) => edgeOf(x, props.state.edgeColors, count <= LARGE_GRAPH)),
      ]);
      if (newV.length > 0) runLayout(cy, layoutOptions(count, true));
      setMessage(
        `Added ${newV.length} ${newV.length === 1 ? 'vertex' : 'vertices'} and ${newE.length} ${newE.length === 1 ? 'edge' : 'edges'} around ${v.type} ${v.id}` +
          (edges.length >= EXPAND_LIMIT ? ` (its first ${EXPAND_LIMIT} edges).` : '.'),
      );
      setVersion((n) => n + 1);
    } catch (e) {
      setMessage(`Could not expand ${v.type} ${v.id}: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  }
  expandRef.current = (key) => void expand(key);

  // A chosen vertex without attributes (an edge's end, a neighbour) has them read from REST++.
  useEffect(() => {
    const v = selected === undefined ? undefined : data.current.vertices.get(selected);
    if (!v || v.attributes !== undefined) return;
    let current = true;
    vertexById(props.graph, v.type, v.id).then(
      (rows) => {
        if (!current) return;
        addResult(data.current, rows, reverseOf);
        if (data.current.vertices.get(v.key)?.attributes === undefined) v.attributes = {};
        setVersion((n) => n + 1);
      },
      (e: unknown) => current && setMessage(`Could not read ${v.type} ${v.id}: ${errorText(e)}`),
    );
    return () => {
      current = false;
    };
  }, [selected]);

  const g = data.current;
  const vertices = useMemo(
    () => drawn.map((key) => g.vertices.get(key)).filter((v): v is GraphVertex => v !== undefined),
    [drawn, version, g],
  );
  const legend = useMemo(() => {
    const counts = new Map<string, number>();
    for (const v of vertices) counts.set(v.type, (counts.get(v.type) ?? 0) + 1);
    const edgeCounts = new Map<string, number>();
    for (const e of g.edges.values()) edgeCounts.set(e.type, (edgeCounts.get(e.type) ?? 0) + 1);
    return { vertex: [...counts], edge: [...edgeCounts] };
  }, [vertices, g]);
  const chosen = selected === undefined ? undefined : g.vertices.get(selected);

  return (
    <div className="graph-explorer">
      <div
        ref={host}
        className="diagram"
        role="img"
        aria-label={`Result graph: ${vertices.length} vertices and ${g.edges.size} edges. The list beside it names every vertex.`}
        data-testid="result-graph"
      />
      <aside className="side" aria-label="Graph details">
        <h3 id="legend-title">Legend</h3>
        <ul aria-labelledby="legend-title" className="legend">
          {legend.vertex.map(([type, n]) => (
            <li key={`v-${type}`}>
              <span
                className="swatch"
                style={{ backgroundColor: colorOf(props.state.vertexColors, type) }}
                aria-hidden="true"
              />
              {type} <span className="count">{n}</span>
            </li>
          ))}
          {legend.edge.map(([type, n]) => (
            <li key={`e-${type}`}>
              <span
                className="line-swatch"
                style={{ backgroundColor: colorOf(props.state.edgeColors, type) }}
                aria-hidden="true"
              />
              {type} <span className="count">{n}</span>
            </li>
          ))}
        </ul>
        {g.vertices.size === 0 && <p className="hint">The result holds no vertices or edges to draw.</p>}
        <label htmlFor="graph-vertices">Vertices in the drawing</label>
        <select
          id="graph-vertices"
          size={8}
          value={selected ?? ''}
          onChange={(e) => select(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && selected !== undefined) void expand(selected);
          }}
          aria-describedby="graph-vertices-hint"
        >
          {vertices.slice(0, LIST_LIMIT).map((v) => (
            <option key={v.key} value={v.key}>
              {v.type} {v.id}
            </option>
          ))}
        </select>
        <p id="graph-vertices-hint" className="hint">
          Enter or double-click expands a vertex.
          {vertices.length > LIST_LIMIT
            ? ` The list names the first ${LIST_LIMIT} of ${vertices.length}.`
            : ''}
        </p>
        <button type="button" disabled={!chosen || busy} onClick={() => chosen && void expand(chosen.key)}>
          Expand
        </button>
        <p role="status" className="graph-message">
          {message}
        </p>
        {chosen && (
          <section aria-labelledby="selection-title" className="details">
            <h3 id="selection-title">
              {chosen.type} {chosen.id}
            </h3>
            {chosen.attributes === undefined ? (
              <p role="status">Reading its attributes…</p>
            ) : (
              <dl>
                {Object.entries(chosen.attributes).map(([k, val]) => (
                  <div key={k} className="attr">
                    <dt>{k}</dt>
                    <dd>{cellText(val)}</dd>
                  </div>
                ))}
              </dl>
            )}
          </section>
        )}
      </aside>
    </div>
  );
}
