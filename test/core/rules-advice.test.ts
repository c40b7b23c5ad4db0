// A rule is what the user binds the one who answers to; advice and sign-offs said to a reader in
// a rule's words ("Remember to have fun", "don't hesitate to reach out") are none (issue 29).
// Hand-written messages only.
import { describe, expect, it } from 'vitest';
import { compact } from '../../src/core/compact';
import { extractRules } from '../../src/core/extract-rules';
import type { ChatMessage } from '../../src/core/messages';
import { ok } from './compacted';

const T0 = Date.UTC(2025, 4, 12, 9, 0);
let seq = 0;
const msg = (role: 'user' | 'assistant', content: string, at: number): ChatMessage => ({ id: `r${seq++}`, role, content, createdAt: at });

describe('rules, not advice to the reader', () => {
  it('keeps a user rule, never advice or a sign-off in a rule\'s words', () => {
    seq = 0;
    const chat = [
      msg('user', 'Always answer in metric units. Remember to have fun and be patient with the process. Remember to review your plan as needed, and don\'t hesitate to reach out if you have any more questions. Make sure they have experience with rare coins like yours.', T0),
      msg('assistant', 'Understood: metric units from now on.', T0 + 1),
    ];
    const rules = extractRules(chat[0] as ChatMessage).map((r) => r.text);
    expect(rules.some((r) => r.startsWith('Always answer in metric units'))).toBe(true);
    expect(rules.some((r) => /have fun|hesitate|like yours/.test(r))).toBe(false);
    const r = ok(compact([...chat, msg('user', 'What is 5 miles in km?', T0 + 2), msg('assistant', 'About 8 km.', T0 + 3)], { budgetTokens: 1000, cut: 2, model: 'gpt-4o', now: 1 }));
    expect(r.record.constraints.some((c) => /have fun|hesitate|like yours/.test(c.text))).toBe(false);
  });
});
