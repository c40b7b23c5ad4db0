// `block.includes(text)` asked for many texts of one block (which of a record's facts the block
// shows): a text whose first or last PROBE characters occur nowhere in the block is not in it. The
// block's windows of PROBE characters are hashed once into a bitmap (a rolling hash, nothing
// allocated per window); a text whose opening or ending misses the bitmap is answered without
// searching the block (facts often open alike, "The user …", so the ending is looked at too), the
// rest (both hit, or a text shorter than the window) by `includes` itself. Same answers, always.

const PROBE = 8;
const BASE = 31;
const BITS = 1 << 16;
const MASK = BITS - 1;

/** B^(PROBE-1) mod 2^32: what the character leaving the window contributed. */
let LEAVING = 1;
for (let i = 0; i < PROBE - 1; i++) LEAVING = Math.imul(LEAVING, BASE);

const bucket = (h: number): number => (h ^ (h >>> 16)) & MASK;

/** A test answering `block.includes(text)`. */
export function containedIn(block: string): (text: string) => boolean {
  if (block.length < PROBE) return (text) => block.includes(text);
  const seen = new Uint8Array(BITS);
  let h = 0;
  for (let i = 0; i < block.length; i++) {
    if (i >= PROBE) h = (h - Math.imul(block.charCodeAt(i - PROBE), LEAVING)) | 0;
    h = (Math.imul(h, BASE) + block.charCodeAt(i)) | 0;
    if (i >= PROBE - 1) seen[bucket(h)] = 1;
  }
  return (text) => {
    if (text.length >= PROBE && (!windowSeen(seen, text, 0) || !windowSeen(seen, text, text.length - PROBE))) return false;
    return block.includes(text);
  };
}

/** Whether the window of `text` at `from` hashes to a bucket some window of the block filled. */
function windowSeen(seen: Uint8Array, text: string, from: number): boolean {
  let t = 0;
  for (let i = from; i < from + PROBE; i++) t = (Math.imul(t, BASE) + text.charCodeAt(i)) | 0;
  return seen[bucket(t)] === 1;
}
