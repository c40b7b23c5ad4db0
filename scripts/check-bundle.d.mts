/** Each regex lookbehind group in built code, with a little context around it. */
export function lookbehindIn(code: string): string[];
