import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_WINDOW, MIN_COMPACTION_POINT, compactionPoint, contextWindowFor } from '../../src/core/models';

describe('contextWindowFor', () => {
  it.each([
    ['gpt-4o', 128_000],
    ['gpt-4o-mini', 128_000],
    ['gpt-4.1-mini', 1_047_576],
    ['gpt-4', 8_192],
    ['gpt-3.5-turbo', 16_385],
    ['o3-mini', 200_000],
    ['claude-sonnet-4', 200_000],
    ['openrouter/anthropic/claude-3.5-sonnet', 200_000],
    ['llama3.1:8b', 131_072],
    ['llama3:8b', 8_192],
    ['qwen2.5:7b', 32_768],
    ['Mistral', 32_768],
    ['gemma2:9b', 8_192],
  ])('%s → %d', (model, window) => {
    expect(contextWindowFor(model)).toBe(window);
  });

  it('falls back to a small window for unknown models and lets the user override', () => {
    expect(contextWindowFor('my-own-finetune')).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(contextWindowFor(undefined)).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(contextWindowFor('gpt-4o', 4096)).toBe(4096);
    expect(contextWindowFor('gpt-4o', 0)).toBe(128_000);
    expect(contextWindowFor('gpt-4o', Number.NaN)).toBe(128_000);
  });
});

describe('compactionPoint', () => {
  it('is the window minus the reply reserve and the safety buffer', () => {
    expect(compactionPoint(8192, { kind: 'reserve', replyReserve: 1024, safetyBuffer: 512 })).toBe(6656);
  });

  it('is a percentage of the window, never past where the reply fits', () => {
    expect(compactionPoint(10_000, { kind: 'percent', percent: 80, replyReserve: 1000 })).toBe(8000);
    expect(compactionPoint(10_000, { kind: 'percent', percent: 95, replyReserve: 1000 })).toBe(9000);
    expect(compactionPoint(10_000, { kind: 'percent', percent: 500, replyReserve: 0 })).toBe(10_000);
  });

  it('stays positive for tiny windows with big reserves', () => {
    expect(compactionPoint(2048, { kind: 'reserve', replyReserve: 4096, safetyBuffer: 0 })).toBe(MIN_COMPACTION_POINT);
    expect(compactionPoint(100, { kind: 'reserve', replyReserve: 4096, safetyBuffer: 0 })).toBe(100);
  });
});
