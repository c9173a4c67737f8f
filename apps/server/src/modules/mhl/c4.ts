import { createHash } from 'node:crypto';

// The C4 ID (SMPTE ST 2114) is the hash an ASC MHL chain file records for each generation of a
// hash list: SHA-512 of the file, written as a base-58 number in C4's own alphabet (no 0, O, I
// or l), padded on the left with the alphabet's zero ('1') to 88 digits, after the prefix 'c4'.

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const DIGITS = 88;

/** The C4 ID of `bytes`: 'c4' and 88 base-58 digits. */
export function c4Id(bytes: Uint8Array): string {
  let value = BigInt(`0x${createHash('sha512').update(bytes).digest('hex')}`);
  const digits: string[] = [];
  while (value > 0n) {
    digits.push(ALPHABET[Number(value % 58n)]!);
    value /= 58n;
  }
  return `c4${digits.reverse().join('').padStart(DIGITS, ALPHABET[0])}`;
}
