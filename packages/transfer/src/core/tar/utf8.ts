/**
 * UTF-8 for tar headers, by hand: the core runs where `TextEncoder` may not be declared, and
 * counting bytes without encoding keeps laying out tens of thousands of entries cheap. Both take
 * well-formed strings (a lone surrogate is refused before a name gets here).
 */

/** The number of bytes `text` takes in UTF-8. */
export function utf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) length += 1;
    else if (unit < 0x800) length += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      // A surrogate pair is one code point past U+FFFF: four bytes for both units.
      length += 4;
      i++;
    } else length += 3;
  }
  return length;
}

/** Writes `text` as UTF-8 into `target` at `at`; answers the number of bytes written. */
export function writeUtf8(target: Uint8Array, at: number, text: string): number {
  let out = at;
  for (let i = 0; i < text.length; i++) {
    const point = text.codePointAt(i)!;
    if (point > 0xffff) i++;
    if (point < 0x80) {
      target[out++] = point;
    } else if (point < 0x800) {
      target[out++] = 0xc0 | (point >> 6);
      target[out++] = 0x80 | (point & 0x3f);
    } else if (point < 0x10000) {
      target[out++] = 0xe0 | (point >> 12);
      target[out++] = 0x80 | ((point >> 6) & 0x3f);
      target[out++] = 0x80 | (point & 0x3f);
    } else {
      target[out++] = 0xf0 | (point >> 18);
      target[out++] = 0x80 | ((point >> 12) & 0x3f);
      target[out++] = 0x80 | ((point >> 6) & 0x3f);
      target[out++] = 0x80 | (point & 0x3f);
    }
  }
  return out - at;
}
