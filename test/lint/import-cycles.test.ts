// No file of src/ is part of an import cycle, type-only imports counted: a cycle makes the order
// of module initialisation matter and the layers hard to see. The checker is scripts/import-cycles.mjs.
import { describe, expect, it } from 'vitest';
import { importCycles, readSources } from '../../scripts/import-cycles.mjs';

describe('import cycles', () => {
  it('finds a cycle closed by a type-only import, and names its files', () => {
    const cycles = importCycles({
      'core/a.ts': "import { b } from './b';\nexport const a = b + 1;",
      'core/b.ts': "import type { C } from './c';\nexport const b = 1;\nexport type B = C;",
      'core/c.ts': "import type { A } from './a.js';\nexport interface C { a: A }",
      'core/d.ts': "import { a } from './a';\nexport const d = a;",
    });
    expect(cycles).toEqual([['core/a.ts', 'core/b.ts', 'core/c.ts']]);
  });

  it('counts re-exports, import() types, index files and a module importing itself', () => {
    expect(importCycles({ 'x.ts': "export * from './y';", 'y/index.ts': "export type Y = import('../x').X;" })).toEqual([['x.ts', 'y/index.ts']]);
    expect(importCycles({ 'self.ts': "import type { T } from './self';\nexport type T = 1;" })).toEqual([['self.ts']]);
  });

  it('passes a layered graph, ignoring packages and files outside the folder', () => {
    const cycles = importCycles({
      'types.ts': 'export type T = 1;',
      'a.ts': "import type { T } from './types';\nimport { z } from 'zod';\nimport { o } from '../outside';",
      'b.ts': "import type { T } from './types';\nimport { a } from './a';",
    });
    expect(cycles).toEqual([]);
  });

  it('finds none in src/', () => {
    expect(importCycles(readSources('src'))).toEqual([]);
  });
});
