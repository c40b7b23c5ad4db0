// The rule that keeps regex lookbehind out of the plugin (it does not parse on iOS before 16.4, and
// one such literal stops the whole bundle from loading there). Checked two ways: the selectors
// flag lookbehind and only lookbehind, and the project's config applies them to plugin code.
// obsidianmd/regex-lookbehind exists but misses a negative lookbehind literal, so the project adds
// its own selectors. The samples are assembled from pieces because that rule (rightly) flags any
// string holding a lookbehind, and may not be switched off.
import { ESLint, Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { lookbehindSelectors } from '../../eslint.config.mjs';
import { lookbehindIn } from '../../scripts/check-bundle.mjs';

/** `(?<=` or `(?<!`, never written out in one piece (see above). */
const behind = (sign: '=' | '!') => '(?<' + sign;

function problems(code: string): string[] {
  const linter = new Linter({ configType: 'flat' });
  return linter
    .verify(code, [{ rules: { 'no-restricted-syntax': ['error', ...lookbehindSelectors] } }])
    .map((m) => m.message);
}

describe('no regex lookbehind', () => {
  it('flags lookbehind literals and RegExp pattern strings', () => {
    expect(problems(`const a = /${behind('=')}x)y/;`)).toHaveLength(1);
    expect(problems(`const a = /${behind('!')}\\\\)y/g;`)).toHaveLength(1);
    expect(problems(`const a = new RegExp("${behind('=')}a)b");`)).toHaveLength(1);
    expect(problems(`const a = /${behind('!')}\\\\)y/g;`)[0]).toMatch(/iOS before 16\.4/);
  });

  it('leaves lookahead, named groups and escaped brackets alone', () => {
    expect(problems('const a = /x(?=y)/; const b = /(?<year>\\d{4})/; const c = /\\(\\?<' + '=/;')).toEqual([]);
  });

  it('is switched on for plugin code and off for the Node CLI', async () => {
    const eslint = new ESLint();
    const plugin = (await eslint.calculateConfigForFile('src/core/text.ts')) as { rules: Record<string, unknown[]> };
    expect(plugin.rules['no-restricted-syntax']?.[0]).toBe(2);
    const cli = (await eslint.calculateConfigForFile('src/cli/cli.ts')) as { rules: Record<string, unknown[]> };
    expect(cli.rules['no-restricted-syntax']).toBeUndefined();
  });

  it('the bundle check finds a lookbehind in built code and nothing in a named group', () => {
    expect(lookbehindIn(`var r=/${behind('!')}[a-z])b/g;`)).toHaveLength(1);
    expect(lookbehindIn('var r=/(?<n>a)(?=b)/g;')).toEqual([]);
  });
});
