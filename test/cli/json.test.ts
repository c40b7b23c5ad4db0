import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, errorOffset, lineColumn, parseJson } from '../../src/cli/json';

const fail = (text: string): JsonSyntaxError => {
  try {
    parseJson(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return error;
    throw error;
  }
  throw new Error('parsed');
};

describe('parseJson', () => {
  it('reports line and column of the error', () => {
    expect(fail('[\n  {"role": "user",}\n]')).toMatchObject({ line: 2, column: 19 });
    expect(fail('[\n  1,\n  x\n]')).toMatchObject({ line: 3, column: 3 });
    expect(fail('{"a": [1, 2')).toMatchObject({ line: 1, column: 12 });
    expect(fail('{"a": tru}').message).toMatch(/line 1, column 7/);
  });

  it('does not quote the whole input in the message', () => {
    const big = `[${'"x",'.repeat(10_000)} oops]`;
    expect(fail(big).message.length).toBeLessThan(120);
  });

  it('parses valid JSON', () => {
    expect(parseJson('{"a":[1,"\\u00e9"]}')).toEqual({ a: [1, 'é'] });
  });
});

describe('errorOffset', () => {
  it('finds the first error, or null for valid JSON', () => {
    expect(errorOffset('[1, 2]')).toBeNull();
    expect(errorOffset('{"a": {"b": [true, null, -1.5e3]}}')).toBeNull();
    expect(errorOffset('[1 2]')).toBe(3);
    expect(errorOffset('{"a" 1}')).toBe(5);
    expect(errorOffset('["a\\q"]')).toBe(3);
    expect(errorOffset('[1] x')).toBe(4);
  });

  it('lineColumn counts from 1', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
