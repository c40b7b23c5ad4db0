import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeDay, resolveRelativeDates } from '../../src/core/dates';
import { selectFacts } from '../../src/core/extract-facts';
import { fileOpsOfCall, fileOpsOfShell } from '../../src/core/extract-files';
import { findReferences } from '../../src/core/extract-references';
import { sentencesOf } from '../../src/core/extract-sentences';
import { extractTaskLines } from '../../src/core/extract-goal';
import { extractErrors, extractSections } from '../../src/core/extract-summary';
import type { ChatMessage } from '../../src/core/messages';
import type { SourcedLine } from '../../src/core/record';
import { truncateAtWord, truncateBalanced } from '../../src/core/text';
import { splitSentences } from '../../src/core/sentence-split';
import { contentWords } from '../../src/core/word-scan';

const user = (id: string, content: string, createdAt = 0): ChatMessage => ({ id, createdAt, role: 'user', content });
const assistant = (id: string, content: string, toolCalls?: { id: string; name: string; arguments: string }[]): ChatMessage => ({
  id,
  createdAt: 0,
  role: 'assistant',
  content,
  ...(toolCalls ? { toolCalls } : {}),
});
const tool = (id: string, toolCallId: string, content: string, isError?: boolean): ChatMessage => ({
  id,
  createdAt: 0,
  role: 'tool',
  toolCallId,
  content,
  ...(isError ? { isError } : {}),
});

describe('text', () => {
  it('splits sentences without breaking dotted names or abbreviations', () => {
    expect(splitSentences('Call os.path.join here. Then run it! Done? e.g. this stays.')).toEqual([
      'Call os.path.join here.',
      'Then run it!',
      'Done? e.g. this stays.',
    ]);
    expect(splitSentences('我们明天开会。请带上笔记！好的')).toEqual(['我们明天开会。', '请带上笔记！', '好的']);
  });

  it('does not end a sentence at an initial', () => {
    expect(splitSentences('There is a quote by J.K. Rowling that I like. And George R. R. Martin wrote more.')).toEqual([
      'There is a quote by J.K. Rowling that I like.',
      'And George R. R. Martin wrote more.',
    ]);
  });

  it('knows abbreviations, versions, file names and decimals', () => {
    expect(splitSentences('Smith et al. 2020 showed it. See e.g. Paris or Dr. Who for more.')).toEqual(['Smith et al. 2020 showed it.', 'See e.g. Paris or Dr. Who for more.']);
    expect(splitSentences('Upgrade to v1.2.3 and open notes.md first. It costs 3.50 now.')).toEqual(['Upgrade to v1.2.3 and open notes.md first.', 'It costs 3.50 now.']);
    expect(splitSentences('I said no. Then she left. Read No. 5 twice.')).toEqual(['I said no.', 'Then she left.', 'Read No. 5 twice.']);
  });

  it('never breaks inside a wikilink, a markdown link or inline code', () => {
    expect(splitSentences('We used the layout in [[Projects/Garden. Redesign]] instead of a table. It works.')).toEqual([
      'We used the layout in [[Projects/Garden. Redesign]] instead of a table.',
      'It works.',
    ]);
    expect(splitSentences('Run `make test. Then deploy` before you push. Done.')).toEqual(['Run `make test. Then deploy` before you push.', 'Done.']);
    expect(splitSentences('See [the guide. Part 2](https://x.org/a) now. Thanks.')).toEqual(['See [the guide. Part 2](https://x.org/a) now.', 'Thanks.']);
  });

  it('cuts a line into whole pieces that put it back together, on any mix of punctuation, spaces and scripts', () => {
    const piece = fc.constantFrom('.', '!', '?', '…', '。', '！', ' ', '  ', '\u00a0', '\u3000', '\n', '"', ')', '(', '[[', ']]', '`', '**', 'a', 'Bob', '7', '会', 'e.g', 'Dr', 'J', 'etc', 'No');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        const pieces = splitSentences(text);
        // Nothing is lost or reordered: the pieces, spaces aside, are the text, spaces aside.
        const bare = (t: string): string => t.replace(/\s+/g, '');
        expect(bare(pieces.join(''))).toBe(bare(text));
        for (const p of pieces) expect(p).toBe(p.trim());
      }),
      { numRuns: 3000 },
    );
  });

  it('truncates at a word boundary and never inside a surrogate pair', () => {
    expect(truncateAtWord('alpha beta gamma delta', 13)).toBe('alpha beta…');
    const emoji = '😀😀😀😀😀😀';
    const cut = truncateAtWord(`ok ${emoji}`, 6);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(truncateAtWord('日本語のテキストです', 5)).toBe('日本語の…');
  });

  it('truncates before a bracket or code span it would leave open, when that keeps half the room', () => {
    const error = 'IntegrityError: duplicate key value violates unique constraint DETAIL: Key (content_type_id, codename) already exists for the proxy model';
    expect(truncateBalanced(error, 100)).toBe('IntegrityError: duplicate key value violates unique constraint DETAIL: Key…');
    expect(truncateAtWord(error, 100)).toContain('(content_type_id');
    // A cut with nothing open is the plain one; an opener early in the text is not cut back to.
    expect(truncateBalanced('alpha beta gamma delta', 13)).toBe('alpha beta…');
    expect(truncateBalanced('f(a b c d e f g h i j k l m n o p', 20)).toBe(truncateAtWord('f(a b c d e f g h i j k l m n o p', 20));
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '(', ')', '`', '[', ']'), maxLength: 60 }), fc.integer({ min: 2, max: 60 }), (text, n) => {
        const cut = truncateBalanced(text, n);
        expect(cut.length).toBeLessThanOrEqual(Math.max(n, text.length <= n ? text.length : 0));
        if (cut !== text && cut) expect(text.startsWith(cut.slice(0, -1))).toBe(true);
      }),
    );
  });

  it('keys CJK text by character bigrams and drops stopwords', () => {
    expect(contentWords('The Project plan was approved')).toEqual(['project', 'plan', 'approved']);
    expect(contentWords('会议记录')).toEqual(['会议', '议记', '记录']);
  });

  it('keys words that leave ASCII midway (apostrophes, accents, CJK) like plain ones', () => {
    expect(contentWords("Mark's foo_bar, Café x9 2024 abc会议 rock’n’roll")).toEqual(['marks', 'foo_bar', 'café', 'x9', '2024', 'abc', '会议', 'rocknroll']);
  });
});

describe('references', () => {
  it('never takes a web image shown in the text, nor a URL template, for a reference', () => {
    const refs = (t: string) => findReferences(t).map((r) => r.text);
    expect(refs('Here you go: ![a laptop](https://images.example.com/1600x900/?laptop) — see https://example.com/docs for more.')).toEqual(['https://example.com/docs']);
    expect(refs('Use the API (https://images.example.com/1600x900/?<PUT YOUR QUERY HERE>) for pictures.')).toEqual([]);
    expect(refs('The guide is [here](https://example.com/guide).')).toEqual(['https://example.com/guide']);
  });

  it('reads quoted paths with spaces whole, and never reports the tail of an unquoted one', () => {
    const refs = (t: string) => findReferences(t).map((r) => r.text);
    expect(refs('{"path":"Projects/Garden redesign.md"}')).toEqual(['Projects/Garden redesign.md']);
    expect(refs('edit `My note.md` now')).toEqual(['My note.md']);
    expect(refs('Appended 82 characters to Projects/Garden redesign.md.')).toEqual([]);
    expect(refs('see notes/plan.md and README.md')).toEqual(['notes/plan.md', 'README.md']);
  });

  it('finds every wikilink form, markdown links, URLs and paths', () => {
    const text =
      'See [[Project plan]], [[Meetings/2024-05-01#Decisions|the May meeting]], [[Roadmap^q3]], ![[diagram.png]], ' +
      '[spec](Specs/API%20spec.md), https://example.com/docs?a=1. and src/core/cut.ts.';
    const refs = findReferences(text).map((r) => `${r.kind}:${r.text}`);
    expect(refs).toEqual([
      'wikilink:[[Project plan]]',
      'wikilink:[[Meetings/2024-05-01#Decisions|the May meeting]]',
      'wikilink:[[Roadmap^q3]]',
      'embed:![[diagram.png]]',
      'markdown-link:[spec](Specs/API%20spec.md)',
      'url:https://example.com/docs?a=1',
      'path:src/core/cut.ts',
    ]);
  });

  it('does not take version numbers or prose slashes for paths', () => {
    expect(findReferences('Upgrade to 1.2.3 and/or later').map((r) => r.text)).toEqual([]);
  });

  it('reads wikilinks as the wikilink pattern does, brackets, line breaks and all', () => {
    // The scanner replaced this pattern (it allocated a match and six strings per link); any text
    // built from the characters that matter must give the same links.
    const PATTERN = /(!?)\[\[([^\]|#^\n]*)(#[^\]|^\n]*)?(\^[^\]|\n]*)?(?:\|([^\]\n]*))?\]\]/g;
    const expected = (text: string): string[] => {
      const out: string[] = [];
      for (const m of text.matchAll(PATTERN)) {
        const target = (m[2] ?? '').trim();
        const heading = m[3] ?? '';
        const block = m[4] ?? '';
        if (!target && !heading && !block) continue;
        const alias = m[5] !== undefined ? `|${m[5].trim()}` : '';
        out.push(`${m[1] === '!' ? '!' : ''}[[${target}${heading}${block}${alias}]]`);
      }
      return out;
    };
    const piece = fc.constantFrom('[', ']', '[[', ']]', '!', '|', '#', '^', '\n', ' ', 'a', 'Note', 'b c', '/', '.md');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        const links = findReferences(text).filter((r) => r.kind === 'wikilink' || r.kind === 'embed');
        expect(links.map((r) => r.text)).toEqual(expected(text));
      }),
      { numRuns: 3000 },
    );
    expect(findReferences('![[a]] x [[b#h^c|d]] [[[e]]] [[f\n]] ![[#g]]').map((r) => r.text)).toEqual(['![[a]]', '[[b#h^c|d]]', '[[[e]]', '![[#g]]']);
  });
});

describe('files from tool calls', () => {
  it('reads path arguments of note tools and classifies writes', () => {
    expect(fileOpsOfCall({ id: 'c', name: 'read_note', arguments: '{"path":"Projects/Plan.md"}' })).toEqual({ read: ['Projects/Plan.md'], modified: [] });
    expect(fileOpsOfCall({ id: 'c', name: 'edit_note', arguments: '{"path":"Daily/2024-05-01.md","content":"x"}' })).toEqual({
      read: [],
      modified: ['Daily/2024-05-01.md'],
    });
    expect(fileOpsOfCall({ id: 'c', name: 'read_note', arguments: '{oops' })).toEqual({ read: [], modified: [] });
  });

  it('finds paths in shell commands: readers, sed -i, redirections, heredocs', () => {
    expect(fileOpsOfShell('cat src/a.py | grep -n "def foo" src/b.py && nl -ba lib/c.py | sed -n \'10,20p\'')).toEqual({
      read: ['src/a.py', 'src/b.py', 'lib/c.py'],
      modified: [],
      // (b.py is only grepped, without lines of context: searched, not read.)
      searched: ['src/b.py'],
    });
    expect(fileOpsOfShell("sed -i 's/a/b/' pkg/mod.py && echo ok > out.txt 2>&1")).toEqual({ read: [], modified: ['out.txt', 'pkg/mod.py'] });
    expect(fileOpsOfShell("cat <<'EOF' > /tmp/repro.py\nprint('hi > there.txt')\nEOF\npython /tmp/repro.py")).toEqual({
      read: ['/tmp/repro.py'],
      modified: ['/tmp/repro.py'],
    });
    expect(fileOpsOfShell('grep -rn "needle" --include="*.py" django/db | head -20')).toEqual({ read: ['django/db'], modified: [], searched: ['django/db'] });
    expect(fileOpsOfCall({ id: 'c', name: 'bash', arguments: JSON.stringify({ command: 'head -50 README.md' }) })).toEqual({
      read: ['README.md'],
      modified: [],
    });
  });
});

describe('summary sections', () => {
  const conversation: ChatMessage[] = [
    user('u1', '<task>\nRename the tag #inbox to #todo across the vault.\n</task>'),
    assistant('a1', 'Sure. I will start with the daily notes.'),
    user('u2', 'Never touch files in the Archive folder. I prefer British spelling in summaries.'),
    assistant('a2', "We decided to keep the old tag as an alias. I've updated 14 notes in Daily/."),
    user('u3', 'Can you also fix the broken links in [[Index]]?'),
    assistant('a3', 'Next step: check the templates folder.'),
  ];
  const sentences = sentencesOf(conversation);

  it('takes the goal from the first request, without markup-only lines, and the latest request', () => {
    const task = extractTaskLines(conversation, sentences);
    expect(task.goal?.text).toBe('Rename the tag #inbox to #todo across the vault.');
    expect(task.goal?.sources).toEqual(['u1']);
    expect(task.request?.text).toBe('Can you also fix the broken links in [[Index]]?');
    expect(task.leftOff?.sources).toEqual(['a3']);
  });

  it('starts a request that points at what the question before it names at that question', () => {
    const chat: ChatMessage[] = [
      user('u1', 'Can you suggest a photo album for a 40th anniversary?'),
      assistant('a1', 'A leather-bound album with 80 pages and professional printing costs 150 to 300 dollars.'),
      user('u2', 'I like the leather-bound one. My sister ordered one last year and loved it. I was at a baby shower last week too. Anyway, back to the album, what is the typical turnaround time for production and shipping? I want to make sure I get it on time for my mom.'),
      assistant('a2', 'Most printers take one to two weeks, and shipping two to five days.'),
    ];
    const request = extractTaskLines(chat, sentencesOf(chat)).request?.text ?? '';
    expect(request.startsWith('Anyway, back to the album, what is the typical turnaround time for production and shipping?')).toBe(true);
  });

  it('reads "I want <things> per …" as what the user asks for, with what they said before it', () => {
    const chat: ChatMessage[] = [
      user('u1', 'I track my monthly budget in a markdown table. I want totals per category. Can Dataview do that, or do I need a plugin?'),
      assistant('a1', 'Dataview reads front matter and inline fields, not table cells.'),
    ];
    expect(extractTaskLines(chat, sentencesOf(chat)).goal?.text).toBe('I track my monthly budget in a markdown table. I want totals per category. Can Dataview do that, or do I need a plugin?');
    // (Wanting to, or wanting that, is no request of this form.)
    const talk: ChatMessage[] = [user('u1', 'I want that feeling again someday, honestly.'), assistant('a1', 'Same here.')];
    expect(extractTaskLines(talk, sentencesOf(talk)).goal).toBeNull();
  });

  it('leaves off where the answer stood, not at how it greeted the question nor mid-argument', () => {
    const chat: ChatMessage[] = [
      user('u1', 'Can you recommend a stand mixer for heavy bread dough?'),
      assistant('a1', "I'm happy to help you find a mixer. However, most mixers under 500 W stall on stiff dough. A 6-quart bowl-lift model handles two loaves at once."),
    ];
    expect(extractTaskLines(chat, sentencesOf(chat)).leftOff?.text).toBe('A 6-quart bowl-lift model handles two loaves at once.');
    // The user's own plans are not greetings.
    const mine: ChatMessage[] = [assistant('a1', 'Here are three horror series.'), user('u1', "I'm excited to start watching the second season tonight.")];
    expect(extractTaskLines(mine, sentencesOf(mine)).leftOff?.text).toBe("I'm excited to start watching the second season tonight.");
    // A user's question ending on what the sentence before it says starts at that sentence.
    const asked: ChatMessage[] = [
      assistant('a1', 'Many leaders lean on their families for support.'),
      user('u1', "It's great to hear about leaders who prioritize their families. However, some people argue that leaders should focus solely on their job. What do you think about that?"),
    ];
    expect(extractTaskLines(asked, sentencesOf(asked)).leftOff?.text).toBe('However, some people argue that leaders should focus solely on their job. What do you think about that?');
  });

  it('takes the next step the assistant announced, not the closing offer of its answer', () => {
    const step = (text: string) => {
      const chat: ChatMessage[] = [user('u1', 'Can you plan my week of study?'), assistant('a1', text)];
      return extractTaskLines(chat, sentencesOf(chat)).nextStep?.text;
    };
    expect(step('Monday is for reading. Next, I will draft the Tuesday timetable for you.')).toBe('Next, I will draft the Tuesday timetable for you.');
    expect(step("Monday is for reading. Let me know if you have any other questions or if there's anything else I can help with.")).toBeUndefined();
  });

  it('classifies constraints, decisions, work done, open tasks and where it left off', () => {
    const s = extractSections(sentences);
    expect(s.constraints.map((l) => l.text)).toEqual(['Never touch files in the Archive folder.', 'I prefer British spelling in summaries.']);
    expect(s.decisions.map((l) => l.text)).toEqual(['We decided to keep the old tag as an alias.']);
    expect(s.done.map((l) => l.text)).toEqual(["I've updated 14 notes in Daily/."]);
    expect(s.openTasks.map((l) => l.text)).toEqual(['Next step: check the templates folder.', 'Can you also fix the broken links in [[Index]]?']);
    for (const l of [...s.constraints, ...s.decisions, ...s.done, ...s.openTasks]) expect(l.sources.length).toBeGreaterThan(0);
  });

  it('finds Chinese and Japanese constraints', () => {
    const s = extractSections(sentencesOf([user('c1', '请用中文回答。不要修改模板文件。'), user('j1', '必ず敬語で書いてください。')]));
    expect(s.constraints.map((l) => l.text)).toEqual(['请用中文回答。', '不要修改模板文件。', '必ず敬語で書いてください。']);
  });

  it('extracts error lines from tool output, once each, with the resolution', () => {
    const msgs: ChatMessage[] = [
      assistant('a1', '', [{ id: 'c1', name: 'bash', arguments: '{"command":"python run.py"}' }]),
      tool('t1', 'c1', 'Traceback (most recent call last):\n  File "run.py", line 1\nModuleNotFoundError: No module named \'yaml\''),
      assistant('a2', 'The fix is to install pyyaml first.', [{ id: 'c2', name: 'bash', arguments: '{"command":"python run.py"}' }]),
      tool('t2', 'c2', "ModuleNotFoundError: No module named 'yaml'"),
      tool('t3', 'c9', 'permission problem', true),
    ];
    const errors = extractErrors(msgs, sentencesOf(msgs));
    expect(errors.map((e) => e.text)).toEqual(["ModuleNotFoundError: No module named 'yaml'", 'permission problem']);
    expect(errors[0]?.resolution).toBe('The fix is to install pyyaml first.');
    expect(errors[0]?.sources).toEqual(['t1', 't2']);
  });

  it('reads no error in code that assigns or compares a variable named error, and no fix in a plan', () => {
    const msgs: ChatMessage[] = [
      assistant('a1', '', [{ id: 'c1', name: 'bash', arguments: '{"command":"sed -n 300,320p django/forms/formsets.py"}' }]),
      tool('t1', 'c1', 'try:\n    error = ValidationError(error)\n    error = error.error_dict\n    if error == None:\nerror += 1\nerror: the form could not be saved'),
      assistant('a2', '', [{ id: 'c2', name: 'bash', arguments: '{"command":"python reproduce.py"}' }]),
      tool('t2', 'c2', "ModuleNotFoundError: No module named 'asgiref'"),
      assistant('a3', 'I need to install dependencies.', [{ id: 'c3', name: 'bash', arguments: '{"command":"pip install asgiref"}' }]),
    ];
    const errors = extractErrors(msgs, sentencesOf(msgs));
    expect(errors.map((e) => e.text)).toEqual(['error: the form could not be saved', "ModuleNotFoundError: No module named 'asgiref'"]);
    // "I need to install …" says what comes next; the install that ran is what fixed it.
    expect(errors[1]?.resolution).toBe('pip install asgiref');
  });
});

describe('key facts', () => {
  it('prefers sentences with rare, specific words over chit-chat, and reports their sources', () => {
    const msgs: ChatMessage[] = [
      user('u1', 'Hey! How are you doing today? That is so great to hear.'),
      assistant('a1', 'Thanks, that is great, really great.'),
      user('u2', 'My sister Priya moved to Lisbon in March 2023 and works at Feedzai as a data engineer.'),
      assistant('a2', 'That is great, I am glad to hear that it is great.'),
    ];
    const facts = selectFacts(sentencesOf(msgs), { poolTokens: 40, round: 1 });
    expect(facts[0]?.text).toContain('Priya moved to Lisbon');
    expect(facts[0]?.sources).toEqual(['u2']);
  });

  it("ranks a carried fact by who said it too, so the user's own facts outlast explanations", () => {
    const carried = [
      { text: 'I will run the Utrecht half marathon with my sister.', sources: ['u1'], at: 0, score: 1, round: 1, seq: 1, shown: 1 },
      { text: 'Interval training alternates 400 metre repeats with jogging and strides.', sources: ['a1'], at: 0, score: 1, round: 1, seq: 2, shown: 1 },
    ];
    const base = { poolTokens: 1, round: 2, carried, seniority: 1.6, shownSeniority: 3 };
    const roles: Record<string, string> = { u1: 'user', a1: 'assistant' };
    const news = sentencesOf([assistant('a2', 'Tempo runs at threshold pace improve lactate clearance.')]);
    expect(selectFacts(news, base)[0]?.sources).toEqual(['a1']);
    expect(selectFacts(news, { ...base, carriedRole: (id) => roles[id] })[0]?.sources).toEqual(['u1']);
  });

  it('lets a shown fact that survived more rounds outrank a later one of the same worth', () => {
    // Same words in both, so only the rounds differ; each alone would be picked first.
    const fact = (round: number, id: string) => ({ text: 'Anika adopted a greyhound called Pepper from the Leeds shelter.', sources: [id], at: 0, score: 1, round, seq: round, shown: 4 });
    const base = { poolTokens: 1, round: 5, seniority: 1.6, shownSeniority: 3 };
    const news = sentencesOf([assistant('a9', 'The shelter in Leeds rehomes retired racing greyhounds every spring.')]);
    expect(selectFacts(news, { ...base, carried: [fact(3, 'x3'), fact(1, 'x1')] })[0]?.sources).toEqual(['x1']);
    expect(selectFacts(news, { ...base, carried: [fact(1, 'x1'), fact(3, 'x3')] })[0]?.sources).toEqual(['x1']);
  });

  it("keeps the first round's shown facts ahead of the middle rounds' by a wide margin, and finite in any round", () => {
    const fact = (round: number, id: string) => ({ text: 'Anika adopted a greyhound called Pepper from the Leeds shelter.', sources: [id], at: 0, score: 1, round, seq: round, shown: 4 });
    const base = { poolTokens: 1, seniority: 1.6, shownSeniority: 3 };
    const scoreOf = (round: number, carried: ReturnType<typeof fact>) => selectFacts([], { ...base, round, carried: [carried] })[0]?.score ?? 0;
    // Each round survived counts threefold (a linear growth gave a round-1 fact 9 / 7 over a
    // round-2 one by round 5, doubling 2): the middle rounds give way before the first round does,
    // even to a fact of the user about themselves (a prior of about 3.45 over an explanation).
    expect(scoreOf(5, fact(1, 'x1')) / scoreOf(5, fact(2, 'x2'))).toBeGreaterThanOrEqual(2.9);
    expect(scoreOf(3, fact(1, 'x1')) / scoreOf(3, fact(2, 'x2'))).toBeGreaterThanOrEqual(2.9);
    // A conversation of thousands of rounds still ranks by finite scores.
    const late = selectFacts(sentencesOf([assistant('a9', 'The shelter in Leeds rehomes retired racing greyhounds every spring.')]), { ...base, poolTokens: 100, round: 5000, carried: [fact(1, 'x1'), fact(4990, 'x2')] });
    expect(late.map((f) => f.sources[0])).toEqual(['x1', 'a9']);
    expect(late.every((f) => Number.isFinite(f.score))).toBe(true);
  });

  it('reads a "# …" line among pasted code as a comment of that code, and one among prose as text', () => {
    const pasted = user('u1', [
      'Postgres returns a memoryview and the response body comes out wrong:',
      'response = HttpResponse(memoryview(b"My Content"))\t\t',
      '# This is not correct, I am expecting the bytes of My Content',
      'response.content\t\t',
    ].join('\n'));
    const code = sentencesOf([pasted]).filter((s) => s.code).map((s) => s.text);
    expect(code).toContain('# This is not correct, I am expecting the bytes of My Content');
    // A console session: an expression alone on its line is code, and so are the comments after it.
    const session = user('u3', ['It goes wrong for memoryview content.', 'response = HttpResponse(memoryview(b"My Content"))', 'response.content', "# Out: b'<memory at 0x7fcc47ab2648>'", "# This is not correct, I am expecting b'My Content'"].join('\n'));
    const sessionCode = sentencesOf([session]).filter((s) => s.code).map((s) => s.text);
    expect(sessionCode).toEqual(expect.arrayContaining(['response.content', "# This is not correct, I am expecting b'My Content'"]));
    expect(sentencesOf([user('u4', 'Thanks.\nSee example.\nThat is all for today, e.g.')]).some((s) => s.code)).toBe(false);
    const notes = user('u2', 'The plan has two parts.\n# Shopping list for the whole weekend trip\nWe still need a tent.');
    expect(sentencesOf([notes]).find((s) => s.text.includes('Shopping list'))?.code).toBe(false);
  });

  it("drops a list's number from a sentence when the list was written as one paragraph", () => {
    const answer = assistant('a1', '1. Back up: use snapshots. 2. Set security: keep SSH closed. 3. "Monitor" costs with Cloudwatch. It costs 5. 10) Review it: monthly.');
    expect(sentencesOf([answer]).map((s) => s.text)).toEqual(['Back up: use snapshots.', 'Set security: keep SSH closed.', '"Monitor" costs with Cloudwatch.', 'It costs 5.', '10) Review it: monthly.']);
  });

  it('may leave out a bracketed aside after a sentence, never cutting the sentence itself', () => {
    // Captions that say what every caption says ("a photo of a group of people …").
    const msgs = [
      user('u1', 'We pulled off a tough win against the Hawks on Saturday! [shares a photo: a photo of a group of people in a room]'),
      assistant('a1', 'That looks like so much fun for everyone. [shares a photo: a photo of a group of people in a park]'),
      user('u2', 'It really was a great day out for us. [shares a photo: a photo of a group of people at a table]'),
      assistant('a2', 'I love it so much, what a team. [shares a photo: a photo of a group of people on a beach]'),
    ];
    // (Two people sharing photos: read as such. With an assistant, "I love it so much, …" — "it"
    // said early with nothing before it — is no fact, and the captions' words weigh otherwise.)
    const facts = selectFacts(sentencesOf(msgs), { poolTokens: 1, round: 1, kind: 'talk' });
    expect(facts[0]?.text).toBe('We pulled off a tough win against the Hawks on Saturday!');
    // An aside that names what the sentence does not is worth its tokens; one variant at most.
    const rare = [user('u2', 'Look at this! [shares a photo: Kilimanjaro summit sign at Uhuru Peak, 5895 metres, Tanzania]')];
    const both = selectFacts(sentencesOf(rare), { poolTokens: 100, round: 1 });
    expect(both.map((f) => f.text)).toEqual(['Look at this! [shares a photo: Kilimanjaro summit sign at Uhuru Peak, 5895 metres, Tanzania]']);
  });

  it('between two people, carries a sentence without a caption that names nothing, however much room there is', () => {
    const msgs = [
      user('u1', 'Last week I ran the 10k in 41 minutes, my best time ever! [shares a photo: a photography of a finish line with a clock and a crowd]'),
      assistant('a1', 'We climbed to the top in six days. [shares a photo: Kilimanjaro summit sign at Uhuru Peak, 5895 metres]'),
    ];
    const texts = selectFacts(sentencesOf(msgs), { poolTokens: 500, round: 1, kind: 'talk' }).map((f) => f.text);
    expect(texts).toContain('Last week I ran the 10k in 41 minutes, my best time ever!');
    expect(texts.join(' ')).not.toContain('score board');
    // (A description naming a place or a figure tells what the words do not: it may stay.)
    expect(texts).toContain('We climbed to the top in six days. [shares a photo: Kilimanjaro summit sign at Uhuru Peak, 5895 metres]');
  });

  it('takes no key fact that opens on a method name', () => {
    const msgs = [user('u1', 'The union query loses its annotations in Django 3.1 and later.\n.annotate() on 2 different querysets. .distinct() will not affect the queryset.')];
    const texts = selectFacts(sentencesOf(msgs), { poolTokens: 200, round: 1 }).map((f) => f.text);
    expect(texts).toEqual(['The union query loses its annotations in Django 3.1 and later.']);
  });

  it('boosts what matches the focus', () => {
    const msgs: ChatMessage[] = [
      user('u1', 'The quarterly budget for the marketing team is 42,000 euros this year.'),
      user('u2', 'The staging server runs Ubuntu 22.04 on a Hetzner machine in Falkenstein.'),
    ];
    const unfocused = selectFacts(sentencesOf(msgs), { poolTokens: 1, round: 1 });
    const focused = selectFacts(sentencesOf(msgs), { poolTokens: 1, round: 1, focus: 'staging server' });
    expect(focused[0]?.sources).toEqual(['u2']);
    expect(unfocused.length).toBe(1);
  });

  it('leaves out a sentence too long to be a fact rather than cutting it', () => {
    const long = `${'we talked about many things, '.repeat(30)}and the invoice number is INV-20931, due on 3 June.`;
    const facts = selectFacts(sentencesOf([user('u1', long), user('u2', 'The invoice INV-20931 is due on 3 June at the latest.')]), { poolTokens: 500, round: 1 });
    expect(facts.map((f) => f.sources[0])).toEqual(['u2']);
  });

  it('takes whole sentences only, never a clause cut out of one', () => {
    const msgs: ChatMessage[] = [
      user('u1', 'Honestly, the week was a really long and tiring one for all of us: the Hortus greenhouse kit arrives in Utrecht on 12 April.'),
      user('u2', 'Thanks so much, that is really kind of you to say.'),
      assistant('a1', 'Let me check the delivery schedule:'),
    ];
    const facts = selectFacts(sentencesOf(msgs), { poolTokens: 300, round: 1 });
    expect(facts[0]?.text).toBe('Honestly, the week was a really long and tiring one for all of us: the Hortus greenhouse kit arrives in Utrecht on 12 April.');
    // A lead-in whose announced content is gone is no fact.
    expect(facts.some((f) => f.sources[0] === 'a1')).toBe(false);
  });
});

describe('key facts: what the ranking favours', () => {
  /** The fact ranked first, with room for one. */
  const best = (msgs: ChatMessage[]): SourcedLine | undefined => selectFacts(sentencesOf(msgs), { poolTokens: 1, round: 1 })[0];

  it('ranks what the user says about themselves above an assistant explanation', () => {
    const msgs: ChatMessage[] = [
      user('u1', 'Can you suggest stretches for a stiff lower back after long drives?'),
      assistant('a1', 'Cat-cow stretches, pelvic tilts and knee-to-chest holds of 30 seconds each loosen the lumbar muscles gently.'),
      user('u2', 'I drive 90 minutes to the Rotterdam office every Tuesday and Thursday.'),
      assistant('a2', 'Hamstring stretches with a resistance band, child pose and glute bridges also help the lower back recover.'),
    ];
    const facts = selectFacts(sentencesOf(msgs), { poolTokens: 30, round: 1 });
    expect(facts[0]?.sources).toEqual(['u2']);
  });

  it('counts common words for little, so a specific sentence beats a sentimental one', () => {
    const msgs: ChatMessage[] = [
      user('u1', 'It has been quite a journey and I am excited to see what the future holds for me.'),
      user('u2', 'The kiln at the Delft pottery studio fires stoneware glazes at 1,240 degrees.'),
    ];
    expect(best(msgs)?.sources).toEqual(['u2']);
  });

  it('picks a second fact about the same thing before a vaguer one only when the block is large', () => {
    const msgs: ChatMessage[] = [
      user('u1', 'I restored a 1967 Ford Mustang fastback with Marco in my garage in Boston.'),
      user('u2', 'The 1967 Ford Mustang fastback with Marco in my Boston garage took two months.'),
      user('u3', 'I went for a walk in the evening.'),
    ];
    const order = (poolTokens: number): string[] => selectFacts(sentencesOf(msgs), { poolTokens, round: 1 }).map((f) => f.sources[0] ?? '');
    // A small block wants breadth: the walk before the Mustang's other sentence.
    expect(order(1250)).toEqual(['u2', 'u3', 'u1']);
    expect(order(5000)).toEqual(['u2', 'u1', 'u3']);
  });

  it('ranks text the user pasted in talk like an explanation, not like what they say of themselves', () => {
    const article = [
      'The Vasa warship sank near Stockholm in 1628.',
      ...Array.from({ length: 12 }, (_, i) => `Section ${i + 1} of the museum guide describes gallery ${String.fromCharCode(65 + i)} on level ${i + 2}.`),
    ].join(' ');
    const msgs: ChatMessage[] = [user('u1', article), assistant('a1', 'The Kronan galleon capsized off Oland in 1676.')];
    expect(best(msgs)?.text).toBe('The Kronan galleon capsized off Oland in 1676.');
    // In an agent run the long first message is the task, ranked as the user's.
    const run: ChatMessage[] = [...msgs.slice(0, 1), { ...msgs[1], toolCalls: [{ id: 'c1', name: 'read_note', arguments: '{}' }] } as ChatMessage, tool('t1', 'c1', 'ok')];
    expect(best(run)?.text).toBe('The Vasa warship sank near Stockholm in 1628.');
  });

  it('counts a quantity spelled out like one in digits', () => {
    const msgs: ChatMessage[] = [
      user('u1', 'I have been collecting vintage cameras since the warm summer.'),
      user('u2', 'I have been collecting vintage cameras for three months.'),
    ];
    expect(best(msgs)?.sources).toEqual(['u2']);
  });

  it('never offers a sentence with unbalanced markup or a tool output line', () => {
    const msgs: ChatMessage[] = [
      user('u1', 'My favourite book is **Sapiens. A Brief History of Humankind** by Yuval Noah Harari.'),
      assistant('a1', '', [{ id: 'c1', name: 'read_note', arguments: '{"path":"Books.md"}' }]),
      tool('t1', 'c1', 'The library in Delft keeps a signed copy of every Booker winner since 1990.'),
      user('u2', 'I started pottery classes at the Delft studio in 2019 and it has become my favourite way to unwind.'),
    ];
    const facts = selectFacts(sentencesOf(msgs), { poolTokens: 500, round: 1 });
    expect(facts.map((f) => f.sources[0])).toEqual(['u2']);
  });

  it('keeps what the previous block showed ahead of equally good new sentences', () => {
    const carried = [
      { text: 'My landlord in Utrecht raised the rent to 1,450 euros from July.', sources: ['p1'], at: 0, score: 1, round: 1, shown: 1 },
      { text: 'The bike shop on Oudegracht fixed the gears for 35 euros.', sources: ['p2'], at: 0, score: 1, round: 1 },
    ];
    const fresh = [user('n1', 'My cousin in Groningen adopted a greyhound called Pepper last spring.')];
    const facts = selectFacts(sentencesOf(fresh), { poolTokens: 20, round: 2, carried, seniority: 1.6, shownSeniority: 3 });
    expect(facts[0]?.sources).toEqual(['p1']);
    expect(facts[0]?.shown).toBe(1);
  });

  it("keeps room in the pool for a later round's new sentences when carried facts would fill it", () => {
    const carried = [
      { text: 'My landlord in Utrecht raised the rent to 1,450 euros from July.', sources: ['p1'], at: 0, score: 1, round: 1, shown: 1 },
      { text: 'The bike shop on Oudegracht fixed the gears for 35 euros.', sources: ['p2'], at: 0, score: 1, round: 1, shown: 1 },
    ];
    const fresh = [user('n1', 'My cousin in Groningen adopted a greyhound called Pepper last spring.')];
    const pool = (freshReserve?: number) =>
      selectFacts(sentencesOf(fresh), { poolTokens: 40, round: 2, carried, seniority: 1.6, shownSeniority: 3, ...(freshReserve === undefined ? {} : { freshReserve }) }).map((f) => f.sources[0]);
    // Both shown facts outrank the new sentence and fill the pool on their own.
    expect(pool()).toEqual(['p1', 'p2']);
    // With a reserve the carried facts stop short of it, and the new sentence is kept for the block.
    expect(pool(0.5)).toEqual(['p1', 'n1']);
    // With nothing new to keep, the reserve does not leave the pool empty.
    expect(selectFacts([], { poolTokens: 40, round: 2, carried, seniority: 1.6, shownSeniority: 3, freshReserve: 0.5 }).map((f) => f.sources[0])).toEqual(['p1', 'p2']);
  });

  it('does not let a shown fact lose to a weaker one because another shown fact shares its words', () => {
    // Both were picked, side by side, when their round ranked them: the overlap was priced then.
    const shown = (text: string, id: string) => ({ text, sources: [id], at: 0, score: 1, round: 1, shown: 1 });
    const carried = [
      shown('My sister Ana moved to Lisbon in March for a marine biology job at the Oceanario aquarium.', 'p1'),
      shown('In March, Ana started the marine biology job at the Oceanario aquarium in Lisbon.', 'p2'),
      shown('We had a nice walk along the river today.', 'p3'),
    ];
    const facts = selectFacts([], { poolTokens: 40, round: 2, carried, seniority: 1.6, shownSeniority: 3 });
    expect(facts.map((f) => f.sources[0]).sort()).toEqual(['p1', 'p2']);
  });
});

describe('sentence pass', () => {
  it('is cached per message but re-reads a message whose text changed', () => {
    const msg = { id: 'u1', createdAt: 0, role: 'user' as const, content: 'The meeting moved to Friday. Bring the Q3 report.' };
    const first = sentencesOf([msg]).map((s) => s.text);
    expect(sentencesOf([msg]).map((s) => s.text)).toEqual(first);
    (msg as { content: string }).content = 'The meeting moved to Monday.';
    expect(sentencesOf([msg]).map((s) => s.text)).toEqual(['The meeting moved to Monday.']);
  });

  it('places a cached message where it now sits', () => {
    const a = user('a', 'The invoice for March is paid.');
    const b = user('b', 'The April invoice is still open.', 5_000);
    expect(sentencesOf([a, b]).map((s) => [s.id, s.message, s.at])).toEqual([['a', 0, 0], ['b', 1, 5_000]]);
    expect(sentencesOf([b]).map((s) => [s.id, s.message, s.at])).toEqual([['b', 0, 5_000]]);
  });
});

describe('goal', () => {
  const goalOf = (ms: ChatMessage[]): string | undefined => extractTaskLines(ms, sentencesOf(ms)).goal?.text;
  it('is a request, never a greeting or small talk', () => {
    expect(goalOf([user('u1', 'Please translate my CV into German before Friday.')])).toBe('Please translate my CV into German before Friday.');
    expect(goalOf([user('u1', 'Hey Sam! Long time no see, how have you been lately?')])).toBeUndefined();
    expect(goalOf([user('u1', 'Hey Mel! Good to see you! How are things going with the new team?')])).toBeUndefined();
    // A request's words only as whole words: looking forward is not looking for, pleased not please.
    expect(goalOf([user('u1', "Not yet, I've been busy. But I'm looking forward to exploring the city with you.")])).toBeUndefined();
    expect(goalOf([user('u1', 'Pleased to meet you all at the reunion last weekend, it was lovely.')])).toBeUndefined();
    expect(goalOf([user('u1', "I'm looking for a quiet cafe near the station to write in.")])).toBe("I'm looking for a quiet cafe near the station to write in.");
    // "Let's …!" as a cheer asks for nothing; "Let's …" as a plan does.
    expect(goalOf([user('u1', "Marathon training is hard, but it keeps me going. Let's keep each other motivated!")])).toBeUndefined();
    expect(goalOf([user('u1', "Let's move the pond next to the shed.")])).toBe("Let's move the pond next to the shed.");
    // A greeting question after the request starts small talk: the line ends before it.
    expect(goalOf([user('u1', "I'm trying to fit piano practice into my week. How have you been lately? Here's my new keyboard.")])).toBe(
      "I'm trying to fit piano practice into my week.",
    );
    // The greeting before the request is left out; the request is whole sentences.
    expect(goalOf([user('u1', 'Hi! Can you help me plan a garden bed for shade? It is about 2 m by 1 m.')])).toBe('Can you help me plan a garden bed for shade? It is about 2 m by 1 m.');
    // A request after a leading clause is a request; an exclamation that only sounds like one is not.
    expect(goalOf([user('u1', "I'm upgrading my gaming setup, can you tell me more about the BlackWidow keyboard?")])).toBe("I'm upgrading my gaming setup, can you tell me more about the BlackWidow keyboard?");
    expect(goalOf([user('u1', 'You left out the booking service for flights so please update your previous answer.')])).toBe('You left out the booking service for flights so please update your previous answer.');
    expect(goalOf([user('u1', 'We won the final by two points, can you believe it?')])).toBeUndefined();
    expect(goalOf([user('u1', "I'm throwing a party on Saturday, will you be there with the kids?")])).toBeUndefined();
  });
  it("takes an agent harness's task, not its instruction template", () => {
    const task = '<pr_description>\nConsider the following PR description:\nWrong totals in the invoice export\nDescription\nHi.\nThe export sums net and gross amounts twice.\n</pr_description>\n<instructions>\nYou MUST run the tests before you submit.\n</instructions>';
    expect(goalOf([user('u1', task)])).toBe('Wrong totals in the invoice export. The export sums net and gross amounts twice.');
  });
});

describe('dates', () => {
  const at = Date.UTC(2023, 4, 8, 13, 56);
  it('formats days in UTC and never prints a date for unknown times', () => {
    expect(describeDay(at)).toBe('8 May 2023');
    expect(describeDay(0)).toBe('');
    expect(resolveRelativeDates('I went there yesterday', 0)).toBe('');
  });
  it('resolves relative expressions against the message date', () => {
    expect(resolveRelativeDates('I went to the group yesterday.', at)).toBe('yesterday = 7 May 2023');
    // 8 May 2023 is a Monday.
    expect(resolveRelativeDates('We met last week', at)).toBe('last week = 1–7 May 2023');
    expect(resolveRelativeDates('We went hiking last weekend', at)).toBe('last weekend = 6–7 May 2023');
    expect(resolveRelativeDates('I saw her last Fri at the market', at)).toBe('last fri = 5 May 2023');
    expect(resolveRelativeDates('The party is next Tuesday', at)).toBe('next tuesday = 9 May 2023');
    // (Not a day: the line names the day it was said, and a gloss would say nothing more.)
    expect(resolveRelativeDates('I moved here a few days ago', at)).toBe('');
    expect(resolveRelativeDates('It opened 3 days ago', at)).toBe('3 days ago = 5 May 2023');
    expect(resolveRelativeDates('Last year was hard', at)).toBe('last year = 2022');
  });
  it('adds nothing where a note would only restate or contradict', () => {
    expect(resolveRelativeDates('I am going there today', at)).toBe('');
    expect(resolveRelativeDates('We got engaged last month on May 15th', at)).toBe('');
    expect(resolveRelativeDates('Last week, on 3 May, the shop closed', at)).toBe('');
  });
});
