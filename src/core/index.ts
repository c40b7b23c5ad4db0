// The compaction core's public entry. Pure TypeScript: no obsidian, no DOM, no Node built-ins,
// so the plugin, the CLI and other tools can all import it.
export * from './messages';
export { estimateTokens, tokenizerFamily } from './tokens';
export type { TokenizerFamily } from './tokens';
export * from './message-tokens';
export * from './models';
export * from './tracker';
export * from './units';
export * from './cut';
export * from './triggers';
export * from './record';
export * from './edits';
export * from './compact';
export * from './micro-compact';
export { renderBlock, MIN_BUDGET_TOKENS } from './render';
export { blockSection, shownText, OPEN_TAG, CLOSE_TAG } from './block-format';
export type { RenderOptions } from './render';
export * from './policy';
export * from './search';
export { searchTerms, stemWord } from './search-terms';
export * from './search-history';
export * from './cross-search';
export * from './query-time';
