/** The "Queries:" lines of `ls` for a graph: each query's signature, marked when installed. */
import { registryFor } from '../query/index.js';

function signature(text: string, name: string): string {
  // The parameter list as written, from the first "(" to its matching ")".
  const open = text.indexOf('(', text.search(new RegExp(`\\b${name}\\b`)));
  let depth = 0;
  for (let i = open; i >= 0 && i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return name + text.slice(open, i + 1).replace(/\s+/g, ' ');
  }
  return name + '()';
}

export function queryListing(store: object, graph: string): string[] {
  return registryFor(store)
    .list(graph)
    .map((q) => `  - ${signature(q.text, q.name)}${q.installed ? ' (installed v2)' : ''}`);
}
