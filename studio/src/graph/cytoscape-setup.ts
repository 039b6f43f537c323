/**
 * cytoscape.js with the fCoSE force-directed layout, and the choices that keep a drawing readable
 * and quick as it grows: below a few hundred elements a careful layout with edge labels; beyond
 * that a draft-quality layout, small dots, straight edges without arrows or labels, vertex labels
 * only when zoomed in, and a textured viewport while panning.
 */
import cytoscape from 'cytoscape';
import fcose from 'cytoscape-fcose';

cytoscape.use(fcose);

export { cytoscape };

/** Past this many elements, the drawing switches to its large-graph settings. */
export const LARGE_GRAPH = 600;

interface FcoseOptions extends cytoscape.BaseLayoutOptions {
  name: 'fcose';
  quality: 'draft' | 'default' | 'proof';
  randomize: boolean;
  animate: boolean;
  fit: boolean;
  padding: number;
  nodeRepulsion: number;
  idealEdgeLength: number;
  nodeSeparation: number;
  numIter: number;
  packComponents: boolean;
}

/**
 * The layout for `count` elements; `incremental` keeps the current positions as the start;
 * `edgeLength` leaves room for long edge labels (the schema's).
 */
export function layoutOptions(
  count: number,
  incremental = false,
  edgeLength?: number,
): cytoscape.LayoutOptions {
  const large = count > LARGE_GRAPH;
  const options: FcoseOptions = {
    name: 'fcose',
    quality: large ? 'draft' : 'default',
    randomize: !incremental,
    animate: false,
    fit: false,
    padding: 30,
    nodeRepulsion: 6500,
    idealEdgeLength: edgeLength ?? (large ? 50 : 90),
    nodeSeparation: 75,
    numIter: large ? 1200 : 2500,
    packComponents: true,
  };
  return options as unknown as cytoscape.LayoutOptions;
}

/** Renderer options that matter for large graphs. */
export function rendererOptions(count: number): Partial<cytoscape.CytoscapeOptions> {
  const large = count > LARGE_GRAPH;
  return {
    textureOnViewport: large,
    hideEdgesOnViewport: large,
    motionBlur: false,
    pixelRatio: large ? 1 : 'auto',
    minZoom: 0.05,
    maxZoom: 4,
    boxSelectionEnabled: false,
  };
}

/**
 * Runs a layout, then fits the drawing to the canvas without blowing a small graph up to fill it.
 * (The layout itself does not fit: its own fit would race with the cap.)
 */
export function runLayout(cy: cytoscape.Core, options: cytoscape.LayoutOptions, maxZoom = 1.25): void {
  const layout = cy.layout(options);
  layout.one('layoutstop', () => {
    // A viewport animation still running (centring a chosen vertex) would undo the fit.
    cy.stop(true, false);
    cy.fit(undefined, 30);
    if (cy.zoom() > maxZoom) {
      cy.zoom(maxZoom);
      cy.center();
    }
  });
  layout.run();
}
