/**
 * The GraphiQL page, served offline: React, ReactDOM and GraphiQL's UMD builds and its stylesheet
 * are the `graphiql` asset build (graphiql.assets.mjs, copied from the development install at build
 * time), sent through our own routes (no CDN). The page adds a "Schema" plugin that shows the
 * graph's schema as SDL, fetched from the service (TigerGraph's Schema button).
 */
import type { FastifyReply } from 'fastify';
import { readAsset } from '../http/assets.js';

/** Served name -> content type (the names graphiql.assets.mjs writes). */
const ASSETS: Record<string, string> = {
  'react.js': 'application/javascript',
  'react-dom.js': 'application/javascript',
  'graphiql.js': 'application/javascript',
  'graphiql.css': 'text/css',
};

/** Sends one asset (404 JSON for an unknown name); browsers may cache it for a day. */
export async function sendAsset(reply: FastifyReply, name: string): Promise<FastifyReply> {
  const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!type) {
    return reply
      .code(404)
      .type('application/json')
      .send(JSON.stringify({ errors: [{ message: `No asset '${name}'.` }] }));
  }
  return reply
    .type(`${type}; charset=utf-8`)
    .header('Cache-Control', 'public, max-age=86400')
    .send(await readAsset('graphiql', name));
}

export interface PageOptions {
  graph: string;
  /** Where GraphiQL sends queries. */
  apiUrl: string;
  /** Where the Schema plugin reads the SDL. */
  sdlUrl: string;
  /** Prefix of the asset routes (`/graphiql`). */
  assetBase: string;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON safe to embed inside a <script> element. */
function scriptJson(v: unknown): string {
  return JSON.stringify(v).replace(/</g, '\\u003c');
}

export function graphiqlPage(o: PageOptions): string {
  const config = scriptJson({
    apiUrl: o.apiUrl,
    sdlUrl: o.sdlUrl,
    defaultQuery: `# GraphQL over the graph ${o.graph}. The Schema button on the left shows the SDL.\nquery {\n  ${o.graph} {\n    __typename\n  }\n}\n`,
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>GraphiQL - ${escapeHtml(o.graph)}</title>
<link rel="stylesheet" href="${o.assetBase}/graphiql.css">
<style>
  html, body, #graphiql { height: 100%; margin: 0; }
  .ocelot-sdl { margin: 0; padding: 8px; white-space: pre; overflow: auto; font-size: 12px; }
</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="${o.assetBase}/react.js"></script>
<script src="${o.assetBase}/react-dom.js"></script>
<script src="${o.assetBase}/graphiql.js"></script>
<script>
(function () {
  var config = ${config};
  var h = React.createElement;
  function SchemaView() {
    var state = React.useState('Loading the schema…');
    React.useEffect(function () {
      fetch(config.sdlUrl, { credentials: 'same-origin' })
        .then(function (r) { return r.text(); })
        .then(state[1], function (e) { state[1]('Could not load the schema: ' + e); });
    }, []);
    return h('pre', { className: 'ocelot-sdl', 'data-testid': 'sdl' }, state[0]);
  }
  var schemaPlugin = {
    title: 'Schema',
    icon: function () { return h('span', { 'aria-label': 'Schema', style: { fontWeight: 'bold', fontSize: '11px' } }, 'SDL'); },
    content: SchemaView,
  };
  var fetcher = GraphiQL.createFetcher({ url: config.apiUrl });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    h(GraphiQL, { fetcher: fetcher, defaultQuery: config.defaultQuery, plugins: [schemaPlugin] })
  );
})();
</script>
</body>
</html>
`;
}
