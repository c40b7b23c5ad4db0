// `npm run bench:locomo-prefixes`: the retention kit's LoCoMo measures (recall, coherence, event
// coverage) over many prefixes of its two dev conversations instead of the four the kit cuts. The
// kit's four blocks move by ±0.05 in event coverage when one line changes (LoCoMo's events are
// counted in words, and a word such as "team" covers an event whichever line holds it), which is
// more than most changes are worth; 27 blocks (a prefix every 25 messages from the 90th) answer
// steadier. The blocks are not independent — the same two conversations — so this reads a change's
// direction, not the kit's figures: those stay `q.sh` / `npm run bench:retention`.
//
// The kit is read in place: its conversations and probes are written, with the extra prefixes as
// instances, to a temporary folder that its own score.mjs and events.mjs read (--data-dir); nothing
// of it enters the repository.
//
//   node bench/locomo-prefixes.mjs [--budgets 500,1000,2000] [--from 90] [--step 25]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const KIT = join('..', 'shared', 'bench', 'retention');
const DATA = join(KIT, 'data');
const args = process.argv.slice(2);
const value = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
};
const budgets = value('--budgets', '500,1000,2000').split(',').map(Number);
const from = Number(value('--from', '90'));
const step = Number(value('--step', '25'));

if (!existsSync(join(DATA, 'locomo.json'))) {
  console.error(`The retention kit is not at ${KIT}; run this from the project root with ../shared present.`);
  process.exit(1);
}

/** The kit's LoCoMo set with an instance every `step` messages of each conversation (all of its
 * probes: the scorer keeps those whose evidence was removed). */
function withPrefixes(set) {
  const instances = [];
  for (const t of set.transcripts) {
    const probeIds = set.probes.filter((p) => p.transcriptId === t.id).map((p) => p.id);
    for (let len = from; len <= t.messages.length; len += step) {
      instances.push({ id: `${t.id}@p${len}`, transcriptId: t.id, prefixLen: len, canonicalKeep: 4, window: len, split: 'dev', probeIds });
    }
  }
  return { ...set, instances };
}

/** Of the session heads' topics ("### 21 August 2023: Santa Clause, strength training"), the share
 * that no line under their head names: readers found heads naming what the lines below do not
 * cover. */
function headTopicsUncovered(blocks) {
  let topics = 0;
  let uncovered = 0;
  for (const block of blocks) {
    const lines = block.split('\n');
    lines.forEach((line, i) => {
      const m = /^### \d[^:]*\d{4}: (.+)$/.exec(line);
      if (!m) return;
      const below = [];
      for (const next of lines.slice(i + 1)) {
        if (!next.startsWith('- ')) break;
        below.push(next.toLowerCase());
      }
      const text = below.join(' ');
      for (const topic of m[1].split(', ')) {
        topics++;
        if (!text.includes(topic.toLowerCase())) uncovered++;
      }
    });
  }
  return topics ? +(uncovered / topics).toFixed(3) : null;
}

/** Runs one of the kit's scripts; resolves to its last line of output, parsed. */
function run(script, scriptArgs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(KIT, script), ...scriptArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${script} exited ${code}: ${err.slice(-400)}`));
      const lines = out.trim().split('\n').filter(Boolean);
      resolve(JSON.parse(lines[lines.length - 1] ?? '{}'));
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'locomo-prefixes-'));
try {
  const set = withPrefixes(JSON.parse(readFileSync(join(DATA, 'locomo.json'), 'utf8')));
  writeFileSync(join(dir, 'locomo.json'), JSON.stringify(set));
  writeFileSync(join(dir, 'locomo-events.json'), readFileSync(join(DATA, 'locomo-events.json')));
  console.log(`LoCoMo prefixes: ${set.instances.length} blocks (every ${step} messages from the ${from}th)`);
  console.log('| budget | recall | coherence | dangling | filler | events | head topics not named below |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const budget of budgets) {
    const details = join(dir, `details-${budget}.jsonl`);
    const scored = await run('score.mjs', ['--compactor', join('bench', 'retention-adapter.mjs'), '--budget', String(budget), '--dataset', 'locomo', '--data-dir', dir, '--quality', '--details', details, '--quiet']);
    const events = await run('events.mjs', [details, '--data-dir', dir]);
    const q = scored.quality ?? {};
    const blocks = readFileSync(details, 'utf8').trim().split('\n').map((l) => JSON.parse(l).previousContext ?? '');
    console.log(`| ${budget} | ${scored.recall} | ${q.coherence} | ${q.danglingRate} | ${q.fillerRate} | ${events.eventCoverage} (${events.covered}/${events.events}) | ${headTopicsUncovered(blocks)} |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
