import sharp from 'sharp';
import { limits } from '@filerunner/protocol';

/**
 * An uploaded avatar, decoded and encoded again in its own format, at most
 * `limits.avatarSizePx` on a side, turned upright and without its metadata (a phone photo's
 * EXIF carries where it was taken). What is stored and served is then an image sharp wrote,
 * never the bytes as sent. Null when sharp cannot read it as an image or its header announces
 * more than `limits.imageMaxPixels` (refused before anything is decoded).
 */
export async function reencodedAvatar(
  data: Buffer,
  type: 'image/png' | 'image/jpeg',
): Promise<Buffer | null> {
  try {
    const image = sharp(data, { limitInputPixels: limits.imageMaxPixels })
      .rotate()
      .resize(limits.avatarSizePx, limits.avatarSizePx, {
        fit: 'inside',
        withoutEnlargement: true,
      });
    return await (type === 'image/png' ? image.png() : image.jpeg({ quality: 85 })).toBuffer();
  } catch {
    return null;
  }
}
