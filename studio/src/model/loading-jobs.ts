/**
 * The loading jobs of a graph and their filename variables, read from the tokens of the GSQL
 * server's `SHOW JOB *` text (CREATE LOADING JOB name FOR GRAPH g { DEFINE FILENAME f …; … }).
 */
import { meaningfulTokens } from './gsql-tokens.js';

export interface LoadingJobInfo {
  name: string;
  graph?: string;
  filenames: string[];
}

export function parseLoadingJobs(showJobOutput: string): LoadingJobInfo[] {
  const tokens = meaningfulTokens(showJobOutput);
  const up = (i: number) => tokens[i]?.text.toUpperCase();
  const jobs: LoadingJobInfo[] = [];
  let current: LoadingJobInfo | undefined;
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (up(i) === 'CREATE' && up(i + 1) === 'LOADING' && up(i + 2) === 'JOB' && tokens[i + 3]) {
      current = { name: tokens[i + 3].text, filenames: [] };
      if (up(i + 4) === 'FOR' && up(i + 5) === 'GRAPH' && tokens[i + 6]) current.graph = tokens[i + 6].text;
      jobs.push(current);
      depth = 0;
      i += 3;
      continue;
    }
    if (!current) continue;
    if (t.text === '{') depth++;
    else if (t.text === '}' && --depth === 0) current = undefined;
    else if (up(i) === 'DEFINE' && up(i + 1) === 'FILENAME' && tokens[i + 2]?.kind === 'identifier') {
      current.filenames.push(tokens[i + 2].text);
      i += 2;
    }
  }
  return jobs;
}
