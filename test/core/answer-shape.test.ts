import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeAnswer, itemHead, listHeads } from '../../src/core/answer-shape';
import { instructsAssistant, remarksOnAnswer } from '../../src/core/salience';
import { compact } from '../../src/core/compact';
import { listedAnswers, rejects } from '../../src/core/listed-answers';
import { sentencesOf } from '../../src/core/extract-sentences';
import type { ChatMessage } from '../../src/core/messages';

describe('an answer list as its items heads', () => {
  it('reads bold terms, words before an explanation, and short items', () => {
    expect(itemHead('**Mindful.org**: free guided imagery exercises such as the body scan.')).toBe('Mindful.org');
    expect(itemHead('Patagonia - this outdoor clothing company offers flexible work.')).toBe('Patagonia');
    expect(itemHead('Headspace app: guided meditations for stress.')).toBe('Headspace app');
    expect(itemHead('Revolution Hall')).toBe('Revolution Hall');
    // A field with a figure for its value keeps the value: the label alone names nothing.
    // (Up to an aside in brackets: the same figure in other units, which made the value too long.)
    expect(itemHead('**Length**: 70.6 m (231 ft)')).toBe('Length: 70.6 m');
    expect(itemHead('Wingspan: 28.5 meters (93 feet 6 inches)')).toBe('Wingspan: 28.5 meters');
    expect(itemHead('Maximum takeoff weight: 447,700 kg.')).toBe('Maximum takeoff weight: 447,700 kg');
    expect(itemHead('Engines: four turbofans')).toBe('Engines');
    expect(itemHead('Dharma Trading Co. - natural dyes and threads.')).toBe('Dharma Trading Co');
    // All explanation, or a question introducing the item: no head.
    expect(itemHead('This website provides a range of mindfulness exercises that you can use for free at home.')).toBeNull();
    expect(itemHead('Want to earn more? Take a course.')).toBeNull();
  });

  it('takes a list of three items or more, top level only, not code', () => {
    const answer = [
      'Here are some venues:',
      '',
      '1. Mississippi Studios',
      '2. Doug Fir Lounge',
      '   - a basement room under the hotel',
      '3. **Wonder Ballroom** - a 1914 hall.',
      '```',
      '- not an item',
      '```',
      'Enjoy the shows!',
    ].join('\n');
    expect(listHeads(answer)).toEqual(['Mississippi Studios', 'Doug Fir Lounge', 'Wonder Ballroom']);
    expect(listHeads('1. One thing\n2. Another thing')).toEqual([]);
    expect(listHeads('No list here. Just prose.')).toEqual([]);
  });

  it('takes one list of an answer: the first, not a second list after a paragraph nor flush sub-items', () => {
    const answer = [
      'Here are some wheels to consider:',
      '1. **Zipp 303 S** - a wide rim.',
      '2. **HED Ardennes Plus** - a light climber.',
      '- tubeless ready',
      '3. **Reynolds AR41** - a deep aero rim.',
      '',
      'When choosing, think about:',
      '- Aerodynamic performance',
      '- Weight',
      '- Tire compatibility',
    ].join('\n');
    expect(listHeads(answer)).toEqual(['Zipp 303 S', 'HED Ardennes Plus', 'Reynolds AR41']);
    // A second list is the answer's when the first is no list of heads.
    expect(listHeads('Steps:\n1. x\n\nThen:\n- Headspace app\n- Calm app\n- Insight Timer')).toEqual(['Headspace app', 'Calm app', 'Insight Timer']);
    // A numbered list whose items are explained flush below them is one list.
    const explained = ['1. **Patagonia**', 'An outdoor clothing company.', '2. **Southwest Airlines**', 'A carrier.', '3. **Costco**', 'A retailer.'].join('\n');
    expect(listHeads(explained)).toEqual(['Patagonia', 'Southwest Airlines', 'Costco']);
  });

  it('every head is found in the item it came from', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 40 }), { minLength: 3, maxLength: 8 }), (items) => {
        const text = items.map((t, i) => `${i + 1}. ${t.replace(/\n/g, ' ')}`).join('\n');
        for (const head of listHeads(text)) expect(text).toContain(head);
      }),
    );
  });
});

describe('an assistant chat keeps its answers shape', () => {
  let seq = 0;
  const T0 = Date.UTC(2025, 4, 1, 9, 0);
  const msg = (role: 'user' | 'assistant', content: string, at: number): ChatMessage => ({ id: `m${seq++}`, role, content, createdAt: at });
  const HOUR = 3_600_000;
  const chat = (): ChatMessage[] => {
    seq = 0;
    const out: ChatMessage[] = [];
    const topics = [
      ['Can you recommend some venues in Portland for indie music shows?', ['Mississippi Studios', 'Doug Fir Lounge', 'Wonder Ballroom', 'Revolution Hall']],
      ['Can you suggest companies that take good care of their employees?', ['Patagonia', 'Southwest Airlines', 'Costco Wholesale']],
      ['Which websites have free guided imagery exercises?', ['Mindful.org', 'UCLA Mindful Awareness Research Center', 'Headspace app']],
    ] as const;
    topics.forEach(([ask, items], k) => {
      const at = T0 + k * 24 * HOUR;
      out.push(msg('user', ask, at));
      out.push(msg('assistant', `Here are a few:\n\n${items.map((x, i) => `${i + 1}. **${x}** - known for ${'its long and careful history of doing this well in the region, with staff who stay for years and customers who come back '.repeat(4)}.`).join('\n\n')}\n\nI hope this helps!`, at + 60_000));
      out.push(msg('user', 'Thanks, I will look into them this week and tell my partner about it.', at + 120_000));
      out.push(msg('assistant', 'You are welcome, enjoy exploring them.', at + 180_000));
    });
    out.push(msg('user', 'Now can you help me plan a weekend trip to Seattle?', T0 + 4 * 24 * HOUR));
    out.push(msg('assistant', 'Sure, what do you enjoy doing?', T0 + 4 * 24 * HOUR + 60_000));
    return out;
  };

  it('carries each list as its heads under the request it answers', () => {
    const messages = chat();
    const r = compact(messages, { budgetTokens: 1000, cut: 12, model: 'gpt-4o', now: 1 });
    if (!r.ok) throw new Error(r.message);
    expect(r.record.kind).toBe('assist');
    const lines = r.block.split('\n');
    const listed = lines.filter((l) => l.startsWith('- Assistant listed: '));
    expect(listed).toContain('- Assistant listed: Mississippi Studios; Doug Fir Lounge; Wonder Ballroom; Revolution Hall');
    expect(listed).toContain('- Assistant listed: Patagonia; Southwest Airlines; Costco Wholesale');
    // Under its request's head.
    const at = lines.indexOf('- Assistant listed: Patagonia; Southwest Airlines; Costco Wholesale');
    const head = lines.slice(0, at).reverse().find((l) => l.startsWith('### '));
    expect(head).toContain('Can you suggest companies that take good care of their employees?');
    // The line traces to its message.
    const fact = r.record.facts.find((f) => f.listed && f.text.startsWith('Patagonia'));
    expect(fact?.sources).toEqual(['m5']);
  });

  it('shows two lists at most under one thread', () => {
    const messages = chat();
    // The venues thread gets two more lists in the same session.
    const at = (messages[3] as ChatMessage).createdAt;
    const more = ['Which bars nearby have live jazz?', 'Any record shops near those venues?'].flatMap((ask, k) => [
      msg('user', `${ask} I would like to visit some Portland venues and the shops around them.`, at + (k + 1) * 60_000),
      msg('assistant', `Sure:\n\n${['Jack London Revue', 'Jimmy Mak Lounge', 'Doug Fir Stage'].map((x, i) => `${i + 1}. **${x} ${k}** - a Portland venue with ${'a long and careful history of live music in the region '.repeat(4)}.`).join('\n\n')}`, at + (k + 1) * 60_000 + 1),
    ]);
    messages.splice(4, 0, ...more);
    const r = compact(messages, { budgetTokens: 2000, cut: messages.length - 2, model: 'gpt-4o', now: 1 });
    if (!r.ok) throw new Error(r.message);
    const lines = r.block.split('\n');
    const head = lines.findIndex((l) => l.startsWith('### ') && l.includes('venues in Portland'));
    expect(head).toBeGreaterThanOrEqual(0);
    const next = lines.findIndex((l, i) => i > head && l.startsWith('### '));
    const under = lines.slice(head + 1, next < 0 ? undefined : next).filter((l) => l.startsWith('- Assistant listed'));
    expect(r.record.facts.filter((f) => f.listed && f.thread === r.record.facts.find((g) => g.text.startsWith('Mississippi'))?.thread).length).toBeGreaterThan(2);
    expect(under.length).toBeLessThanOrEqual(2);
    expect(under.length).toBeGreaterThan(0);
  });

  it('carries the one-line command an answer gave under the request, as "Assistant gave"', () => {
    const messages = chat();
    const at = (messages[11] as ChatMessage).createdAt;
    messages.splice(12, 0,
      msg('user', 'Can you give me an rsync command that mirrors my Obsidian vault to the NAS at backup.local every night?', at + HOUR),
      msg('assistant', `Here is one:\n\n\`\`\`\nrsync -av --delete ~/Vault/ backup.local:/volume1/vault/\n\`\`\`\n\nThe "-a" flag keeps the modification times. ${'Run it from cron at night so the copy is always at most a day old. '.repeat(3)}`, at + HOUR + 60_000),
    );
    const r = compact(messages, { budgetTokens: 1000, cut: 14, model: 'gpt-4o', now: 1 });
    if (!r.ok) throw new Error(r.message);
    const lines = r.block.split('\n');
    const gave = lines.indexOf('- Assistant gave: `rsync -av --delete ~/Vault/ backup.local:/volume1/vault/`');
    expect(gave).toBeGreaterThan(0);
    expect(lines.slice(0, gave).reverse().find((l) => l.startsWith('### '))).toContain('rsync command that mirrors my Obsidian vault');
  });

  it('reads as a command only a code block of one line', () => {
    expect(codeAnswer('Try this:\n```bash\ngit log --oneline -5\n```\nIt shows the last five.')).toBe('`git log --oneline -5`');
    expect(codeAnswer('Try this:\n```\ngit fetch\ngit rebase origin/main\n```')).toBe('');
    expect(codeAnswer('Run `git log` to see them.')).toBe('');
    expect(codeAnswer(`\`\`\`\n${'x'.repeat(240)}\n\`\`\``)).toBe('');
  });

  it('leaves lists out of a block too small for threads heads', () => {
    const r = compact(chat(), { budgetTokens: 400, cut: 12, model: 'gpt-4o', now: 1 });
    if (!r.ok) throw new Error(r.message);
    expect(r.block).not.toContain('listed:');
  });
});

describe('what the user says that is not about them', () => {
  it('tells remarks on an answer and instructions from facts about the user', () => {
    expect(remarksOnAnswer('I had no idea that the program was established in 1968.')).toBe(true);
    expect(remarksOnAnswer("I'm surprised that the book comes close to the Bible in sales.")).toBe(true);
    expect(remarksOnAnswer('I moved into my new place three weeks ago.')).toBe(false);
    // Surprise at what the answer told, or wondering about it, is no fact of the user either.
    expect(remarksOnAnswer("I didn't realize Bosnia and Herzegovina had so many UNESCO World Heritage sites.")).toBe(true);
    expect(remarksOnAnswer("Wow, I still can't believe peacocks have such dazzling feathers just for attraction.")).toBe(true);
    expect(remarksOnAnswer("I've always wondered if Rainbow Trout have a preference for certain types of prey.")).toBe(true);
    expect(remarksOnAnswer("I can't believe I lost my job after ten years at the bank.")).toBe(false);
    expect(remarksOnAnswer("I can't believe it's been a year since I moved to Denver.")).toBe(false);
    // A user echoing an assistant's voice says nothing of themselves either.
    expect(remarksOnAnswer("I'm glad I could help you with setting up the backup schedule on your laptop.")).toBe(true);
    expect(remarksOnAnswer('I hope this helps you plan the trip!')).toBe(true);
    expect(remarksOnAnswer("I'm glad I moved to Lisbon last spring.")).toBe(false);
    expect(remarksOnAnswer('I hope the new job starts well next month.')).toBe(false);
    expect(instructsAssistant('I will then ask you to evaluate the candidate on a given criterion.')).toBe(true);
    expect(instructsAssistant('I want you to act as a travel guide.')).toBe(true);
    expect(instructsAssistant('I asked my sister to evaluate the candidate.')).toBe(false);
    // Requests and set-ups in the first person are still how the assistant is to work.
    expect(instructsAssistant('Okay now write me 50 more but for the second brand.')).toBe(true);
    expect(instructsAssistant('my Next prompt is give me a picture of a person shopping.')).toBe(true);
    expect(instructsAssistant('You are my partner in evaluating job applications.')).toBe(true);
    expect(instructsAssistant('My sister gave me a bike for my birthday.')).toBe(false);
    // Taking up what the answer offered is about the answer, not the user.
    expect(remarksOnAnswer("I'll definitely check out the resources you suggested.")).toBe(true);
    expect(remarksOnAnswer('I think I\'ll try the breathing exercise you mentioned tonight.')).toBe(true);
    expect(remarksOnAnswer("I'll be moving to Leeds in May, as you suggested I might.")).toBe(true);
    expect(remarksOnAnswer("I'll be moving to Leeds in May with my partner.")).toBe(false);
  });

  it('tells liking what the answer proposed, or leaning on it by a pointer, from the user\'s own facts', () => {
    expect(remarksOnAnswer('I like the idea of a walnut display case, it sounds elegant.')).toBe(true);
    expect(remarksOnAnswer('I feel like those are the rooms that get cluttered the most.')).toBe(true);
    expect(remarksOnAnswer('I already feel calmer just thinking about trying these breathing techniques.')).toBe(true);
    // (A fact of their own beside the liking stays theirs.)
    expect(remarksOnAnswer("I like the idea of joining a choir since I've sung since school.")).toBe(false);
    expect(remarksOnAnswer('I feel like my knees are better since I started swimming.')).toBe(false);
    expect(remarksOnAnswer('I like the sound of Depeche Mode, I will check them out.')).toBe(false);
    expect(remarksOnAnswer('I love these ideas, especially the lemon tart and the pear crumble.')).toBe(false);
  });
});

describe('a list the user turned down', () => {
  const m = (id: string, role: 'user' | 'assistant', content: string): ChatMessage => ({ id, role, content, createdAt: 0 });
  const list = (names: string[]): string => `Here are some ideas:\n\n${names.map((x, i) => `${i + 1}. **${x}** - a place worth a visit.`).join('\n')}`;

  it('is no answer: the list given after it is', () => {
    const messages = [
      m('a', 'user', 'Can you suggest some attractions in Portland for a weekend?'),
      m('b', 'assistant', list(['Powell Books', 'Japanese Garden', 'Pittock Mansion'])),
      m('c', 'user', 'Honestly, none of those suggestions are really doing it for me. Can you think of anything more alternative?'),
      m('d', 'assistant', list(['Kennedy School', 'Lan Su Garden', 'Hawthorne Bridge'])),
      m('e', 'user', 'Great, I will visit the Kennedy School on Saturday.'),
    ];
    const answers = listedAnswers(messages, sentencesOf(messages));
    expect(answers.map((a) => a.id)).toEqual(['d']);
    expect(answers[0]?.heads).toEqual(['Kennedy School', 'Lan Su Garden', 'Hawthorne Bridge']);
  });

  it('is told from a reply that takes the options up', () => {
    expect(rejects("I'm actually not interested in any of those attractions.")).toBe(true);
    expect(rejects("That's not what I'm looking for.")).toBe(true);
    expect(rejects('I like those ideas, especially the first one.')).toBe(false);
    expect(rejects('Do you have any other suggestions?')).toBe(false);
    expect(rejects("I don't like those too much, but the second is fine.")).toBe(false);
  });
});
