// `block.includes(text)` asked for many texts of one block (which of a record's facts the block
// shows): a text whose first PROBE characters occur nowhere in the block is not in it. The block's
// windows of PROBE characters are hashed once into a bitmap (a rolling hash, nothing allocated per
// window); a text whose opening misses the bitmap is answered without searching the block, the
// rest (a hit, or a text shorter than the window) by `includes` itself. Same answers, always.

const PROBE = 16;
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
    if (text.length >= PROBE) {
      let t = 0;
      for (let i = 0; i < PROBE; i++) t = (Math.imul(t, BASE) + text.charCodeAt(i)) | 0;
      if (seen[bucket(t)] === 0) return false;
    }
    return block.includes(text);
  };
}
