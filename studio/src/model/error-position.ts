/**
 * Where an error message points: the GSQL server names positions as "line 3, column 5",
 * "line 3, col 73" or "(line 6, column 1)". Positions are 1-based, as in the messages.
 */

export interface TextPosition {
  line: number;
  column: number;
}

const POSITION = /\bline (\d+),\s*col(?:umn)? (\d+)/i;

export function errorPosition(message: string, lineOffset = 0): TextPosition | undefined {
  const m = POSITION.exec(message);
  if (!m) return undefined;
  const line = Number(m[1]) - lineOffset;
  return line >= 1 ? { line, column: Math.max(1, Number(m[2])) } : undefined;
}

/** The offset of a position in `text`, clamped into the text. */
export function offsetOf(text: string, p: TextPosition): number {
  const lines = text.split('\n');
  const line = Math.min(p.line, lines.length);
  let offset = 0;
  for (let i = 0; i < line - 1; i++) offset += lines[i].length + 1;
  return offset + Math.min(p.column - 1, lines[line - 1].length);
}

/** The first failure in the GSQL server's text output with its position, if the output reports one. */
export function outputFailure(
  output: string,
  lineOffset = 0,
): { message: string; position?: TextPosition } | undefined {
  const line = output
    .split('\n')
    .find((l) => /(Syntax Error|Semantic Check|Error|error:|Failed|does not exist)/.test(l));
  if (line === undefined) return undefined;
  const position = errorPosition(line, lineOffset);
  return { message: line.trim(), ...(position ? { position } : {}) };
}
