import { AppError } from '@ctk/shared';

/**
 * Bytes of an image read at most: a phone photo of a menu, JPEG, fits; so does the gRPC message that
 * carries it (4 MiB, @ctk/shared's wire limit). The gateway bounds its request body to match.
 */
export const MAX_IMAGE_BYTES = 4_000_000;
/** Pixels decoded at most: the header's size is what the decoder allocates, whatever the file's length. */
export const MAX_IMAGE_PIXELS = 40_000_000;
const MAX_SIDE = 12_000;

export type ImageInfo = { type: 'png' | 'jpeg'; width: number; height: number };

// Types people send instead, named in the refusal so they know what to change.
const OTHER_TYPES: [string, (bytes: Buffer) => boolean][] = [
  ['GIF', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  ['WebP', (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'],
  [
    'HEIC',
    (b) => b.subarray(4, 8).toString('latin1') === 'ftyp' && /^(heic|heix|mif1|msf1|hevc)$/.test(b.subarray(8, 12).toString('latin1')),
  ],
  ['PDF', (b) => b.subarray(0, 5).toString('latin1') === '%PDF-'],
  ['TIFF', (b) => ['II*\0', 'MM\0*'].includes(b.subarray(0, 4).toString('latin1'))],
  ['BMP', (b) => b.subarray(0, 2).toString('latin1') === 'BM'],
];

/**
 * What the image's own bytes say it is (never a declared type): PNG or JPEG and its size in pixels. Other
 * types are refused 415, images over the bounds 413, and a PNG or JPEG whose header is broken 422.
 */
export function inspectImage(bytes: Buffer): ImageInfo {
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new AppError(
      'payload_too_large',
      `image is ${bytes.length} bytes; at most ${MAX_IMAGE_BYTES} (a JPEG photo of about 2,000 pixels a side is plenty)`,
      {
        field: 'image',
        max_bytes: MAX_IMAGE_BYTES,
      },
    );
  }
  const info = pngSize(bytes) ?? jpegSize(bytes);
  if (!info) {
    const other = OTHER_TYPES.find(([, test]) => test(bytes))?.[0];
    throw new AppError(
      'unsupported_media_type',
      `image must be a PNG or JPEG${other ? `, not ${other}` : ''}: its first bytes say otherwise`,
      {
        field: 'image',
      },
    );
  }
  if (info.width === 0 || info.height === 0) throw unreadable(`its header gives a size of ${info.width}x${info.height} pixels`);
  if (info.width * info.height > MAX_IMAGE_PIXELS || Math.max(info.width, info.height) > MAX_SIDE) {
    throw new AppError(
      'payload_too_large',
      `image is ${info.width}x${info.height} pixels; at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels and ${MAX_SIDE} pixels a side`,
      { field: 'image', max_pixels: MAX_IMAGE_PIXELS },
    );
  }
  return info;
}

export function unreadable(why: string): AppError {
  return new AppError('validation_failed', `image could not be read: ${why}`, { field: 'image' });
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(bytes: Buffer): ImageInfo | null {
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (bytes.length < 24 || bytes.subarray(12, 16).toString('latin1') !== 'IHDR') throw unreadable('the PNG has no IHDR header');
  return { type: 'png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

// Start-of-frame markers (baseline, progressive, lossless, arithmetic): they carry the frame's size.
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpegSize(bytes: Buffer): ImageInfo | null {
  if (bytes.length < 3 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) return null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) throw unreadable('the JPEG segments are broken');
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image, start of scan: no frame header before it
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (SOF.has(marker)) {
      if (at + 9 > bytes.length) break;
      return { type: 'jpeg', height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    if (length < 2) throw unreadable('the JPEG segments are broken');
    at += 2 + length;
  }
  throw unreadable('the JPEG has no frame header');
}
