import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A real decompression bomb: a valid greyscale PNG of `side` x `side` pixels, all black, that
 * compresses about 1,000 to 1. 25,000 x 25,000 (625 million pixels, 625 MB once decoded) is
 * about 600 kB, under the avatar's 1 MB. Built from one compressed megabyte of zeros repeated
 * (each piece ends on a sync flush, so the pieces join into one deflate stream), in milliseconds.
 */
export function pngBomb(side = 25_000): Buffer {
  // Every row is a filter byte (0, none) and `side` zero bytes: the image data is all zeros.
  const total = side * (side + 1);
  const pieceBytes = 1_000_000;
  const piece = deflateRawSync(Buffer.alloc(pieceBytes), { finishFlush: constants.Z_SYNC_FLUSH });
  const parts: Buffer[] = [Buffer.from([0x78, 0x9c])];
  for (let left = total; left > 0; left -= pieceBytes) {
    parts.push(
      left >= pieceBytes
        ? piece
        : deflateRawSync(Buffer.alloc(left), { finishFlush: constants.Z_SYNC_FLUSH }),
    );
  }
  parts.push(deflateRawSync(Buffer.alloc(0)));
  // Adler-32 of n zero bytes: a stays 1, b is n modulo 65521.
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((total % 65521) << 16) | 1) >>> 0);
  parts.push(adler);

  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', Buffer.concat(parts)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
