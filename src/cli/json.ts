// JSON parsing with the error's line and column, so a user can find the mistake in a big export.

export class JsonSyntaxError extends Error {
  constructor(
    readonly detail: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${detail} (line ${line}, column ${column})`);
    this.name = 'JsonSyntaxError';
  }
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    const at = /at position (\d+)/.exec(raw);
    let offset: number;
    if (at) offset = Number(at[1]);
    else if (/Unexpected end of JSON input/.test(raw)) offset = text.length;
    else offset = errorOffset(text) ?? 0;
    // V8's message quotes the input (possibly megabytes of it); keep only the reason.
    const detail = raw
      .replace(/\s*in JSON at position \d+.*$/s, '')
      .replace(/, ".*" is not valid JSON$/s, '')
      .replace(/^Unexpected token '(.)'$/, 'Unexpected character $1')
      .trim();
    const { line, column } = lineColumn(text, offset);
    throw new JsonSyntaxError(detail || 'Invalid JSON', line, column);
  }
}

/** 1-based line and column of a UTF-16 offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}

/**
 * Offset of the first syntax error, for the messages V8 gives without a position ("Unexpected
 * token 'x', … is not valid JSON"). A small iterative scanner; only run after JSON.parse failed.
 */
export function errorOffset(text: string): number | null {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  // Stack of containers: '[' or '{'; `expect` says what may come next.
  const stack: string[] = [];
  type Expect = 'value' | 'key' | 'colon' | 'comma-or-end' | 'value-or-end' | 'key-or-end';
  let expect: Expect = 'value';
  for (;;) {
    ws();
    if (i >= text.length) return stack.length || expect === 'value' ? i : null;
    const c = text[i] as string;
    const top = stack[stack.length - 1];
    if (expect === 'comma-or-end') {
      if (c === ',' && top) {
        i++;
        expect = top === '{' ? 'key' : 'value';
        continue;
      }
      if ((c === ']' && top === '[') || (c === '}' && top === '{')) {
        i++;
        stack.pop();
        expect = 'comma-or-end';
        continue;
      }
      return i;
    }
    if (expect === 'colon') {
      if (c !== ':') return i;
      i++;
      expect = 'value';
      continue;
    }
    if ((expect === 'value-or-end' && c === ']') || (expect === 'key-or-end' && c === '}')) {
      i++;
      stack.pop();
      expect = 'comma-or-end';
      continue;
    }
    if (expect === 'key' || expect === 'key-or-end') {
      if (c !== '"') return i;
      const end = stringEnd(text, i);
      if (end < 0) return -end - 1;
      i = end;
      expect = 'colon';
      continue;
    }
    // A value.
    if (c === '[' || c === '{') {
      stack.push(c);
      i++;
      expect = c === '[' ? 'value-or-end' : 'key-or-end';
      continue;
    }
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end < 0) return -end - 1;
      i = end;
    } else {
      const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
      if (!m) return i;
      i += m[0].length;
    }
    if (!stack.length) {
      ws();
      return i < text.length ? i : null;
    }
    expect = 'comma-or-end';
  }
}

/** Index just past a string starting at `start`, or -(offset of the error) - 1. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -i - 1;
    if (c === 0x5c) {
      const next = text[i + 1];
      if (next === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return -i - 1;
        i += 5;
      } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i++;
      else return -i - 1;
    }
  }
  return -text.length - 1;
}
