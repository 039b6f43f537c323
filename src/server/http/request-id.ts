/**
 * Request ids in TigerGraph's shape, `<n>.RESTPP_1_1.<epoch-ms>.N` (the form /showprocesslist,
 * /abortquery and /query_status report), unique within the process.
 */
let counter = 0;

export function nextRequestId(now: number = Date.now()): string {
  counter = (counter + 1) % 0x7fffffff;
  return `${counter}.RESTPP_1_1.${now}.N`;
}
