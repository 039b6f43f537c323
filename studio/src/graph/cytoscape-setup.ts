/**
 * cytoscape.js with the fCoSE force-directed layout, and the choices that keep a drawing readable
 * and quick as it grows: below a few hundred elements a careful layout with edge labels; beyond
 * that a draft-quality layout, no edge labels, labels hidden when zoomed out, and a textured
 * viewport while panning.
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

/** The layout for `count` elements; `incremental` keeps the current positions as the start. */
export function layoutOptions(count: number, incremental = false): cytoscape.LayoutOptions {
  const large = count > LARGE_GRAPH;
  const options: FcoseOptions = {
    name: 'fcose',
    quality: large ? 'draft' : 'default',
    randomize: !incremental,
    animate: false,
    fit: true,
    padding: 30,
    nodeRepulsion: 6500,
    idealEdgeLength: large ? 40 : 90,
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
