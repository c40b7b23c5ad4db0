// Types for what tests import from eslint.config.mjs.
import type { Linter } from 'eslint';
export const lookbehindSelectors: { selector: string; message: string }[];
declare const config: Linter.Config[];
export default config;
