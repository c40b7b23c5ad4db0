// The token estimator: edge cases, family selection, agreement with the real tokenizers on
// hand-written text of every category (within a range, not exact), and the properties the
// conversation tracker relies on (monotonic when text is appended, nearly additive when texts are
// concatenated, any Unicode counted). No timing assertions: speed, and the figures on held-out
// text, are measured by `npm run bench:tokens`.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { countSlots, estimateTokens, SLOT_COUNT, SLOT_NAMES, tokenizerFamily } from '../../src/core/tokens';
import { WEIGHTS } from '../../src/core/token-weights';
import { SAMPLES } from './token-samples';

import { EXACT, FAMILIES, MODEL, freeReferences } from './reference-counts';

afterAll(freeReferences);

// Hand-written fixtures (no benchmark text).
const PROSE =
  'The compaction core keeps a running estimate of how many tokens a conversation uses, so the ' +
  'plugin can summarise older turns before the model runs out of room. Nothing here needs to be ' +
  'exact: it only has to be close, fast, and a little pessimistic, because guessing too low is ' +
  'what makes a request fail halfway through a long answer. Short words are cheap, long and rare ' +
  'words are split into pieces, and numbers are grouped three digits at a time.';
const CODE = [
  'export function summarize(messages: ChatMessage[], limit = 4096): Summary {',
  '  const kept: ChatMessage[] = [];',
  '  let total = 0;',
  '  for (const message of messages.slice().reverse()) {',
  '    const cost = estimateMessageTokens(message);',
  '    if (total + cost > limit) break;',
  "    kept.unshift({ ...message, content: message.content.trim() });",
  '    total += cost;',
  '  }',
  '  return { kept, dropped: messages.length - kept.length, total };',
  '}',
].join('\n');
const JSON_TEXT = JSON.stringify(
  {
    id: 'call_8f3a2c',
    type: 'function',
    function: { name: 'search_vault', arguments: { query: 'meeting notes 2024-05-17', limit: 25, tags: ['work', 'q2'] } },
    results: [
      { path: 'Daily/2024-05-17.md', score: 0.9132, excerpt: 'Discussed the roadmap and the release date.' },
      { path: 'Projects/Launch.md', score: 0.7718, excerpt: 'Open questions about pricing and support.' },
    ],
  },
  null,
  2,
);
const CHINESE = '我们在笔记里记录每天的想法，然后把相关的内容链接起来。这个插件会在对话太长之前自动压缩旧的消息，这样模型就不会超出上下文窗口。';
const RUSSIAN = 'Плагин следит за длиной разговора и сжимает старые сообщения, пока модель ещё не упёрлась в предел контекста.';
const EMOJI = '🎉 Done! ✅ Tests pass 🚀\n- [ ] #task Write the summary 📅 2024-06-01 🔁 every week\n👩‍💻 ❤️ 👍🏽';

describe('estimateTokens', () => {
  it('counts nothing for the empty string', () => {
    for (const family of FAMILIES) expect(estimateTokens('', MODEL[family])).toBe(0);
    expect(estimateTokens('')).toBe(0);
  });

  it('counts at least one token for any non-empty text', () => {
    for (const text of [' ', 'a', '\n', '1', '.', '你', '😀', '\uD800']) {
      for (const family of FAMILIES) expect(estimateTokens(text, MODEL[family])).toBeGreaterThanOrEqual(1);
    }
  });

  it('puts English prose near chars/4', () => {
    for (const family of FAMILIES) {
      const ratio = estimateTokens(PROSE, MODEL[family]) / (PROSE.length / 4);
      expect(ratio).toBeGreaterThan(0.8);
      expect(ratio).toBeLessThan(1.3);
    }
  });

  it('counts CJK far above chars/4', () => {
    for (const family of FAMILIES) expect(estimateTokens(CHINESE, MODEL[family])).toBeGreaterThan(CHINESE.length / 2);
  });

  it('gives sane counts for JSON and code', () => {
    for (const family of FAMILIES) {
      for (const text of [JSON_TEXT, CODE]) {
        const n = estimateTokens(text, MODEL[family]);
        expect(n).toBeGreaterThan(text.length / 6);
        expect(n).toBeLessThan(text.length / 2);
      }
    }
  });

  it('survives emoji, joiners and lone surrogates', () => {
    for (const text of [EMOJI, '\uD800', '\uDC00', 'a\uDC00b', '\uD83D\uD83D', 'x\uD83D', '🧙‍♂️'.repeat(20), '\u{20000}\u{2A6D6}']) {
      for (const family of FAMILIES) {
        const n = estimateTokens(text, MODEL[family]);
        expect(Number.isInteger(n)).toBe(true);
        expect(n).toBeGreaterThan(0);
      }
    }
  });

  it("prices an English contraction as each tokenizer does: inside the word in o200k, apart in cl100k", () => {
    const short = "I don't think it's ready, but we'll see, and I'm sure they're fine with what you've done.";
    const long = 'I do not think it is ready, but we will see, and I am sure they are fine with what you have done.';
    // o200k: " don't" is one token, " do not" two.
    expect(EXACT.o200k(short)).toBeLessThan(EXACT.o200k(long));
    expect(estimateTokens(short, 'gpt-4o')).toBeLessThan(estimateTokens(long, 'gpt-4o'));
    expect(estimateTokens(short, 'gpt-4o') / EXACT.o200k(short)).toBeLessThanOrEqual(1.1);
    // cl100k splits "'t" off: the contraction saves nothing there.
    expect(estimateTokens(short, 'gpt-4') / EXACT.cl100k(short)).toBeGreaterThanOrEqual(0.9);
    // An apostrophe that closes a quoted word is no contraction: code full of them is not under-counted.
    const quoted = "labels = {'name': 'Name', 'size': 'Size', 'kind': 'Kind', 'path': 'Path', 'mtime': 'Modified'}";
    for (const family of ['gpt-4o', 'gpt-4'] as const) {
      const real = family === 'gpt-4o' ? EXACT.o200k(quoted) : EXACT.cl100k(quoted);
      expect(estimateTokens(quoted, family) / real).toBeGreaterThanOrEqual(0.9);
    }
  });

  // Lopsided on purpose, like the estimator: at most 15 % under (what overflows a window), 30 % over.
  it('agrees with the real tokenizers within −15 % / +30 % on hand-written text', () => {
    for (const text of [PROSE, CODE, JSON_TEXT, CHINESE, RUSSIAN, EMOJI, `${PROSE}\n\n| a | b |\n|---|---|\n| 1 | 2 |`]) {
      expect(estimateTokens(text, 'gpt-4o') / EXACT.o200k(text)).toBeGreaterThanOrEqual(0.85);
      expect(estimateTokens(text, 'gpt-4o') / EXACT.o200k(text)).toBeLessThanOrEqual(1.3);
      expect(estimateTokens(text, 'gpt-4') / EXACT.cl100k(text)).toBeGreaterThanOrEqual(0.85);
      expect(estimateTokens(text, 'gpt-4') / EXACT.cl100k(text)).toBeLessThanOrEqual(1.3);
    }
  });

  it('prices Traditional Chinese above Simplified: its rarer characters are byte tokens', () => {
    // The same sentence in both scripts; every family's tokenizer spends more on the Traditional one.
    const simplified = '这个插件会在对话变得太长之前自动压缩较旧的消息，让模型不会超出上下文窗口。';
    const traditional = '這個外掛會在對話變得太長之前自動壓縮較舊的訊息，讓模型不會超出上下文視窗。';
    for (const family of FAMILIES) {
      expect(EXACT[family](traditional)).toBeGreaterThan(EXACT[family](simplified));
      expect(estimateTokens(traditional, MODEL[family])).toBeGreaterThan(estimateTokens(simplified, MODEL[family]));
    }
  });

  it('prices a long rule or padding run as a few tokens, not one per character', () => {
    // 60 more spaces and 60 more dashes: 1 to 3 more tokens in the BPE vocabularies, 8 or 9 in Llama 2 / Mistral.
    const short = '| a | b |\n| --- | --- |\n';
    const long = `| a${' '.repeat(60)} | b |\n| ${'-'.repeat(60)} | --- |\n`;
    for (const family of FAMILIES) {
      const added = estimateTokens(long, MODEL[family]) - estimateTokens(short, MODEL[family]);
      expect(added).toBeLessThanOrEqual(EXACT[family](long) - EXACT[family](short) + 6);
      expect(estimateTokens(long, MODEL[family])).toBeGreaterThanOrEqual(0.85 * EXACT[family](long));
    }
  });

  it('prices a no-break space as Claude\'s NFKC makes it (a plain space) and as a token of its own elsewhere', () => {
    const plainText = 'Attention : le mode « lecture » est activé ! Pourquoi ? Parce que le fichier est verrouillé.';
    const nbspText = plainText.replace(/« /g, '«\u00a0').replace(/ ([:!?»])/g, '\u00a0$1');
    expect(nbspText).not.toBe(plainText);
    expect(estimateTokens(nbspText, MODEL.claude)).toBe(estimateTokens(plainText, MODEL.claude));
    expect(EXACT.claude(nbspText)).toBe(EXACT.claude(plainText));
    for (const family of ['o200k', 'cl100k'] as const) {
      expect(EXACT[family](nbspText)).toBeGreaterThan(EXACT[family](plainText));
      expect(estimateTokens(nbspText, MODEL[family])).toBeGreaterThan(estimateTokens(plainText, MODEL[family]));
    }
  });

  it('prices the formal Korean ending 니다 as the vocabularies hold it: nearly whole', () => {
    // Formal style (UI messages, documentation) ends nearly every sentence in -(스)ㅂ니다, which
    // Claude spells "습니다" / "니다" as one token; priced per syllable, this text was 10 % over.
    const formal =
      '파일을 저장할 수 없습니다. 이 폴더에 쓰기 권한이 필요합니다. 노트가 휴지통으로 이동되었습니다. ' +
      '연결이 끊어져서 요청을 다시 보냅니다. 이 작업은 되돌릴 수 없습니다. 대화가 너무 길어서 이전 메시지를 ' +
      '요약했습니다. 모델이 응답하지 않습니다. 잠시 후 다시 시도하십시오.';
    expect(estimateTokens(formal, MODEL.claude) / EXACT.claude(formal)).toBeLessThanOrEqual(1.05);
    // cl100k: the syllable before 니 carries the ending's one token, 니다 adds nothing (was 3 % over).
    expect(estimateTokens(formal, MODEL.cl100k) / EXACT.cl100k(formal)).toBeGreaterThanOrEqual(0.9);
    expect(estimateTokens(formal, MODEL.cl100k) / EXACT.cl100k(formal)).toBeLessThanOrEqual(1);
    for (const family of FAMILIES) {
      expect(estimateTokens(formal, MODEL[family]) / EXACT[family](formal), family).toBeGreaterThanOrEqual(0.85);
      expect(estimateTokens(formal, MODEL[family]) / EXACT[family](formal), family).toBeLessThanOrEqual(1.15);
    }
  });

  it('prices the end of a long word in a, i or o apart, once the word has ended (Claude: Italian words split more)', () => {
    const vowelEnds = (text: string): number => {
      const counts = new Float64Array(SLOT_COUNT);
      countSlots(text, counts);
      return counts[SLOT_NAMES.indexOf('vowelend0')] ?? NaN;
    };
    expect(vowelEnds('il parametro è ')).toBe(1);
    expect(vowelEnds('Funzioni. Cadena, dato')).toBe(2); // "dato": four letters, and not ended yet
    expect(vowelEnds('il parametro')).toBe(0); // priced when the word ends: appending never lowers
    expect(vowelEnds('also the parameter, an extra idea ')).toBe(1); // "extra": English has a few
    // Italian prose, few accents: Claude splits its plain words where English ones of the same
    // length are one token. Still under-counted (−21 %; −27 % without the slot): a known miss.
    const italian =
      'Ogni mattina scrivo nel quaderno tre compiti che devo assolutamente completare. La sera controllo quello ' +
      'che ho fatto e sposto il resto al giorno successivo. Questa abitudine molto semplice mi aiuta a lavorare ' +
      'con più calma, perché so sempre quale sarà il prossimo passo e non dimentico le scadenze importanti della settimana.';
    expect(estimateTokens(italian, MODEL.claude) / EXACT.claude(italian)).toBeGreaterThanOrEqual(0.77);
    expect(estimateTokens(italian, MODEL.claude) / EXACT.claude(italian)).toBeLessThanOrEqual(1.3);
  });

  it('prices an underscore inside a quoted identifier apart, not one in unquoted code (o200k and cl100k keep "_url" whole)', () => {
    const slot = (text: string, name: string): number => {
      const counts = new Float64Array(SLOT_COUNT);
      countSlots(text, counts);
      return counts[SLOT_NAMES.indexOf(name)] ?? NaN;
    };
    expect(slot('{"avatar_url": "x", "Property_0_is_private_2341": 1}', 'snake0')).toBe(5);
    expect(slot('avatar_url = node_id', 'snake0')).toBe(0); // Python's names keep punct0
    expect(slot('"a b_c" "__init__"', 'snake0')).toBe(0); // a space ends the identifier; "__" is a run
    const keys = '{\n  "Property_0_is_private_and_only_accessible_within_class_1_2341": "x",\n  "followers_url": "y"\n}';
    expect(estimateTokens(keys, MODEL.o200k) / EXACT.o200k(keys)).toBeGreaterThanOrEqual(0.85);
    expect(estimateTokens(keys, MODEL.o200k) / EXACT.o200k(keys)).toBeLessThanOrEqual(1.15);
    // cl100k, pinned the same way (measured 0.17 more than a space): was 10 % over at punct0's price.
    expect(estimateTokens(keys, MODEL.cl100k) / EXACT.cl100k(keys)).toBeGreaterThanOrEqual(0.9);
    expect(estimateTokens(keys, MODEL.cl100k) / EXACT.cl100k(keys)).toBeLessThanOrEqual(1.05);
  });

  it('gives the cheap accents (ê ç à è ì ò ù ú ß) and ã õ mark slots of their own, the others keep the accent slots', () => {
    const counts = new Float64Array(SLOT_COUNT);
    countSlots('informação é função à Größe não põe', counts);
    const at = (name: string): number => counts[SLOT_NAMES.indexOf(name)] ?? NaN;
    expect([at('accentcheap0'), at('accentcheap1')]).toEqual([3, 4]); // firsts: ç, ç, à; every one: ç ç à and the ß after ö
    expect([at('accentpt0'), at('accentpt1')]).toEqual([2, 4]); // firsts: ã of não, õ of põe; every one: ã ã ã õ
    expect([at('accent0'), at('accent1')]).toEqual([2, 2]); // é, ö
  });

  it('prices a Portuguese word with ã or õ near its plain spelling for Claude (Claude splits them alike)', () => {
    const pt = 'O arquivo não pode ser lido: a extensão não é suportada e a configuração atual não permite a conversão.';
    const ratio = estimateTokens(pt, MODEL.claude) / EXACT.claude(pt);
    expect(ratio).toBeGreaterThan(0.85);
    expect(ratio).toBeLessThan(1.25);
  });

  it("prices what Llama 2's SentencePiece spells in bytes or without a space's piece, only for llama", () => {
    const slot = (text: string, name: string): number => {
      const counts = new Float64Array(SLOT_COUNT);
      countSlots(text, counts);
      return counts[SLOT_NAMES.indexOf(name)] ?? NaN;
    };
    expect(slot('due 📅 2025 and ❄️ → ok', 'spacebyte0')).toBe(3); // spaces before 📅 ❄ →; not before 2025
    expect(slot('a📅 b', 'spacebyte0')).toBe(0);
    expect(slot('word\nline (paren #Tag "quote 2nd', 'spacebyte0')).toBe(0);
    expect(slot('word\nline (paren #Tag "quote 2nd', 'latinbare0')).toBe(5); // line paren Tag quote nd
    expect(slot('word getElementById it\'s', 'latinbare0')).toBe(0); // text start, camelCase, contraction
    expect(slot('商用许可证', 'hanbytes0')).toBe(2); // 许 证: three byte tokens each in Llama 2
    expect(slot('可以使用', 'hanbytes0')).toBe(0);
    expect(slot('⏳ ❄ ✨ ⭐ → ≤ ─', 'symbolpicto0')).toBe(4); // arrows, maths and box drawing are not
    // Only Llama 2's table prices them: elsewhere the first two take space0's and latin0's weights
    // and the others nothing, so those families' estimates are the same with or without them.
    const mixed = 'Status ✅ done 📅 2025-07-06\n#WinterMagic "Nature" 许可证 ❄️✨';
    for (const family of FAMILIES) {
      const ratio = estimateTokens(mixed, MODEL[family]) / EXACT[family](mixed);
      expect(ratio, family).toBeGreaterThanOrEqual(family === 'llama' ? 0.9 : 0.75);
      expect(ratio, family).toBeLessThanOrEqual(1.3);
    }
  });

  // The loop reads one packed table per code unit; what a mark, an apostrophe or a surrogate is
  // depends on the code unit before it, which the automaton's states remember.
  it('resolves marks, apostrophes and surrogates by the code unit before them', () => {
    const slots = (text: string, name: string): number => {
      const counts = new Float64Array(SLOT_COUNT);
      countSlots(text, counts);
      return counts[SLOT_NAMES.indexOf(name)] ?? NaN;
    };
    const repeats = (text: string): number => ['repeat0', 'repeat1', 'repeat2'].reduce((a, n) => a + slots(text, n), 0);
    expect(repeats('a----')).toBe(3);
    expect(repeats('a-=-=')).toBe(0);
    expect(repeats('x = "" + __a')).toBe(2);
    expect(slots("it's", 'apos0')).toBe(1);
    expect(slots("Don't", 'apos0')).toBe(1);
    expect(slots("café's", 'apos0')).toBe(0);
    expect(slots("1's", 'apos0')).toBe(0);
    expect(slots("''", 'apos0')).toBe(0);
    expect(slots('😀', 'emoji0')).toBe(1);
    expect(slots('😀😀', 'emoji0') + slots('😀😀', 'emoji1')).toBe(2);
    expect(slots('\uDE00', 'emoji0')).toBe(1); // a lone low surrogate
    expect(slots('\uD83Da', 'emoji0')).toBe(1); // a lone high one
    expect(slots('\uD83D\uD83D\uDE00', 'emoji0') + slots('\uD83D\uD83D\uDE00', 'emoji1')).toBe(2);
    expect(slots('\u{20000}', 'hanrare0')).toBe(1); // plane 2: a rare ideograph
    expect(slots('\u{20000}', 'emoji0')).toBe(0);
  });

  it('sums the weights of the slots it counts, in hundredths (no rounding drift)', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(...FAMILIES), (t, family) => {
        const counts = new Float64Array(SLOT_COUNT);
        countSlots(t, counts);
        const hundredths = counts.reduce((a, c, q) => a + c * Math.round(100 * (WEIGHTS[family][q] ?? 0)), 0);
        return estimateTokens(t, MODEL[family]) === (t ? Math.max(1, Math.ceil(hundredths / 100)) : 0);
      }),
      { numRuns: 300 },
    );
  });

  it('exposes one count per slot for the fitting script', () => {
    expect(SLOT_NAMES).toHaveLength(SLOT_COUNT);
    const counts = new Float64Array(SLOT_COUNT);
    countSlots(PROSE, counts);
    expect(counts.every((c) => Number.isInteger(c) && c >= 0)).toBe(true);
    expect(counts.reduce((a, c) => a + c, 0)).toBeGreaterThanOrEqual(PROSE.length);
  });
});

// A few hand-written samples per category, each pinned to a range around its true count in every
// family: at most 15 % under (the bound on under-counts: an under-count is what overflows a
// window) and at most 30 % over; single short texts vary more than the bench's per-category means.
// Two known weak spots get a wider floor rather than being left out: long German compounds
// ("Gewohnheit", "konzentrierter") split into more pieces than English words of their length, and
// Greek in o200k — both about 20 % under (`npm run bench:tokens` reports the category figures).
const FLOOR: Record<string, number> = { 'latin-ext #1': 0.75, 'other-scripts #1': 0.8 };
describe('hand-written samples per category', () => {
  for (const [category, texts] of Object.entries(SAMPLES)) {
    texts.forEach((text, i) => {
      const name = `${category} #${i + 1}`;
      const floor = FLOOR[name] ?? 0.85;
      it(`${name} stays within −${Math.round(100 * (1 - floor))} % / +30 % of every family's tokenizer`, () => {
        for (const family of FAMILIES) {
          const actual = EXACT[family](text);
          const estimate = estimateTokens(text, MODEL[family]);
          expect(estimate, `${family}: ${estimate} estimated, ${actual} actual`).toBeGreaterThanOrEqual(floor * actual);
          expect(estimate, `${family}: ${estimate} estimated, ${actual} actual`).toBeLessThanOrEqual(1.3 * actual);
        }
      });
    });
  }
});

describe('tokenizerFamily', () => {
  it.each([
    ['gpt-4o', 'o200k'],
    ['gpt-4o-mini', 'o200k'],
    ['gpt-4.1-mini', 'o200k'],
    ['o1', 'o200k'],
    ['o3', 'o200k'],
    ['o4-mini', 'o200k'],
    ['gpt-5', 'o200k'],
    ['gpt-oss:20b', 'o200k'],
    ['openai/gpt-4o', 'o200k'],
    ['gpt-4', 'cl100k'],
    ['gpt-4-turbo', 'cl100k'],
    ['gpt-3.5-turbo', 'cl100k'],
    ['claude-sonnet-4', 'claude'],
    ['claude-3-5-haiku-latest', 'claude'],
    ['openrouter/anthropic/claude-3.5-sonnet', 'claude'],
    ['llama2:13b', 'llama'],
    ['meta-llama/Llama-2-7b-chat-hf', 'llama'],
    ['codellama:7b', 'llama'],
    ['phi3:mini', 'llama'],
    ['mistral', 'mistral'],
    ['mistral:7b-instruct-v0.3', 'mistral'],
    ['mistralai/Mistral-7B-Instruct-v0.2', 'mistral'],
    ['mixtral:8x7b', 'mistral'],
    ['open-mixtral-8x22b', 'mistral'],
    ['zephyr', 'mistral'],
    ['mistral-nemo', 'cl100k'],
    ['ministral-8b-latest', 'cl100k'],
    ['llama3.1:8b', 'cl100k'],
    ['meta-llama/Llama-3.3-70B-Instruct', 'cl100k'],
    ['qwen2.5:7b', 'cl100k'],
    ['gemma2', 'cl100k'],
    ['deepseek-r1:14b', 'cl100k'],
    ['phi4', 'cl100k'],
    ['some-new-model', 'cl100k'],
    ['', 'cl100k'],
  ] as const)('%s → %s', (model, family) => {
    expect(tokenizerFamily(model)).toBe(family);
  });

  it('gives unknown models the cl100k family', () => {
    expect(tokenizerFamily()).toBe('cl100k');
    expect(estimateTokens(PROSE)).toBe(estimateTokens(PROSE, 'gpt-4'));
  });

  it('counts more for the SentencePiece families than for o200k where their vocabularies are smaller', () => {
    for (const text of [CHINESE, RUSSIAN, CODE]) {
      expect(estimateTokens(text, MODEL.llama)).toBeGreaterThan(estimateTokens(text, MODEL.o200k));
    }
  });
});

// Text shaped like real messages as well as arbitrary code units (lone surrogates included).
const piece = fc.constantFrom('the ', 'Compaction', ' Zeichenfolge', '們這個', '中文', '                ', '----------', '═══', 'getElementById', ' 2024-05-17', '12345', '  ', '\n', '\n\n', '---', '**', '{"a": 1}', '你好', 'こんにちは', '안녕', 'Привіт', 'مرحبا', 'สวัสดี', 'é', 'ą', 'ệ', '😀', '👩‍💻', '❤️', '\uD800', '|', '\t');
const text = fc.oneof(
  fc.array(piece, { maxLength: 30 }).map((parts) => parts.join('')),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }).map((units) => String.fromCharCode(...units)),
);

describe('properties', () => {
  it('is a finite non-negative integer for any string', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(...FAMILIES), (t, family) => {
        const n = estimateTokens(t, MODEL[family]);
        return Number.isInteger(n) && n >= 0 && (n === 0) === (t === '');
      }),
    );
  });

  it('counts lone surrogates and any mix of code units without throwing', () => {
    const unit = fc.oneof(fc.integer({ min: 0xd800, max: 0xdfff }), fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0x09, 0x0a, 0x20, 0x301, 0x200d, 0xfe0f));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 60 }), fc.constantFrom(...FAMILIES), (units, family) => {
        const n = estimateTokens(String.fromCharCode(...units), MODEL[family]);
        return Number.isInteger(n) && n >= Math.min(1, units.length) && n <= units.length * 10;
      }),
    );
  });

  it('never decreases when text is appended', () => {
    fc.assert(
      fc.property(text, text, fc.constantFrom(...FAMILIES), (a, b, family) => {
        return estimateTokens(a + b, MODEL[family]) >= estimateTokens(a, MODEL[family]);
      }),
    );
  });

  // Only the run crossing the seam and rounding can differ: at most a word's first-letter and
  // marked-letter weights (a Polish word in the Claude family: about 5) plus one per side of
  // rounding. So summing per-message estimates stays within a few tokens per message of the whole.
  it('is nearly additive: estimate(a + b) ≈ estimate(a) + estimate(b)', () => {
    fc.assert(
      fc.property(text, text, fc.constantFrom(...FAMILIES), (a, b, family) => {
        const whole = estimateTokens(a + b, MODEL[family]);
        const sum = estimateTokens(a, MODEL[family]) + estimateTokens(b, MODEL[family]);
        return Math.abs(whole - sum) <= 8;
      }),
      { numRuns: 500 },
    );
  });
});
