// `npm run bench:policy`: long conversations replayed through the compaction policy — the same
// replay as `compact-chat compact --rounds`, which is what the chat session does before every
// request — at several windows with the default settings. Prints figures; asserts nothing.
//
// Conversations: the retention kit's dev-split transcripts (dialogues and agent runs with tool
// calls), read in place from ../shared/bench/retention/data (never copied into this repository),
// and the exports in examples/.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConversations } from '../src/cli/input.ts';
import { toChatMessages } from './retention-adapter.mjs';
import { replay } from '../src/cli/replay.ts';
import { CLI_DEFAULTS, resolve } from '../src/cli/settings.ts';
import { estimateMessageTokens } from '../src/core/index.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const KIT = join(root, '..', 'shared', 'bench', 'retention', 'data');
const WINDOWS = [4096, 8192, 32768, 131072];

/** The kit's messages have no ids or times: converted as the retention adapter does. */
function kitConversation(dataset, transcript) {
  return { id: `${dataset}/${transcript.id}`, messages: toChatMessages(transcript.messages, 1) };
}

function conversations() {
  const out = [];
  if (existsSync(KIT)) {
    for (const file of readdirSync(KIT).filter((f) => f.endsWith('.json')).sort()) {
      const data = JSON.parse(readFileSync(join(KIT, file), 'utf8'));
      for (const t of (data.transcripts ?? []).filter((x) => Array.isArray(x.messages))) out.push(kitConversation(data.dataset ?? file, t));
    }
  } else {
    console.log(`(the retention kit is not at ${KIT}: examples only)`);
  }
  const examples = join(root, 'examples');
  for (const file of readdirSync(examples).sort()) {
    const loaded = loadConversations(readFileSync(join(examples, file), 'utf8'), file, undefined);
    for (const c of loaded.conversations) out.push({ id: `examples/${file}/${c.id}`, messages: c.messages });
  }
  return out;
}

const all = conversations();
const messageCount = all.reduce((n, c) => n + c.messages.length, 0);
console.log(`${all.length} conversations, ${messageCount.toLocaleString('en-US')} messages; default settings\n`);
const rows = [];
for (const window of WINDOWS) {
  let compactions = 0;
  let worstRatio = 0;
  let worstAfter = 0;
  let peak = 0;
  let skipped = 0;
  let requests = 0;
  let oversized = 0;
  let oversizedOver = 0;
  let worstAt = '';
  // Compactions that removed messages and carried nothing: everything those messages held is
  // forgotten (target 0 from 4k up). Counted apart: those whose latest request, with the reply's
  // reserve, leaves less than a tenth of the window (no block fits beside it).
  let empty = 0;
  let emptyNoRoom = 0;
  for (const c of all) {
    const s = resolve({ ...CLI_DEFAULTS, window }, { id: c.id, title: '', messages: c.messages });
    const r = replay(c.messages, s);
    requests += r.requests;
    skipped += r.overPoint;
    oversizedOver += r.oversizedRequests;
    peak = Math.max(peak, r.peakTokens / window);
    for (const e of r.events) {
      if (e.kind === 'skipped') continue;
      if (e.kind === 'compaction') compactions++;
      if (e.kind === 'compaction' && e.removedCount > 0 && !e.block) {
        const request = c.messages.slice(0, e.beforeMessage).filter((m) => m.role === 'user').at(-1);
        const requestTokens = request ? estimateMessageTokens(request) : 0;
        if (requestTokens + s.budgets.replyReserve > 0.9 * window) emptyNoRoom++;
        else empty++;
      }
      // The latest user message alone is over the room the target leaves: it is always sent
      // whole, so no cut can reach the target. Counted apart, not hidden.
      if (e.kind === 'compaction' && e.oversized) {
        oversized++;
        continue;
      }
      const ratio = e.promptAfter / e.promptBefore;
      if (ratio > worstRatio) {
        worstRatio = ratio;
        worstAt = `${c.id} before message ${e.beforeMessage}`;
      }
      worstAfter = Math.max(worstAfter, e.promptAfter / window);
    }
  }
  rows.push({
    window: window.toLocaleString('en-US'),
    'compactions / 100 msgs': ((100 * compactions) / messageCount).toFixed(2),
    'worst after/before': worstRatio.toFixed(3),
    'worst after/window': worstAfter.toFixed(3),
    'peak/window': peak.toFixed(3),
    'skipped over point': skipped,
    'rounds with target out of reach': `${oversized} (${oversizedOver} over point)`,
    'empty blocks': empty,
    'empty, no room': emptyNoRoom,
    requests,
  });
  if (worstAt) console.log(`window ${window}: worst after/before at ${worstAt}`);
}
console.log('');
console.table(rows);
const fails = rows.filter((r) => Number(r['worst after/before']) > 0.5 || Number(r['worst after/window']) > 0.5 || Number(r['peak/window']) > 1 || r['skipped over point'] > 0 || r['empty blocks'] > 0);
console.log(fails.length ? `targets missed at window ${fails.map((r) => r.window).join(', ')}` : 'every target met (after/before ≤ 0.5, after/window ≤ 0.5, peak/window ≤ 1, 0 skipped, 0 empty blocks)');
