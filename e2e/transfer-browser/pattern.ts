/**
 * Deterministic test bytes that the page and Node produce alike, so a digest computed in one
 * can be checked in the other without moving the bytes between them. Any range can be made on
 * its own, so large files are written in chunks.
 */
export function patternBytes(
  offset: number,
  length: number,
  seed: number,
): Uint8Array<ArrayBuffer> {
  const firstWord = Math.floor(offset / 4);
  const words = new Uint32Array(Math.ceil((offset + length) / 4) - firstWord);
  for (let i = 0; i < words.length; i++) words[i] = mix(firstWord + i, seed);
  const skip = offset - firstWord * 4;
  return new Uint8Array(words.buffer, skip, length);
}

// MurmurHash3's finaliser: every word differs, and no pattern repeats within a file.
function mix(index: number, seed: number): number {
  let h = (index ^ Math.imul(seed, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
