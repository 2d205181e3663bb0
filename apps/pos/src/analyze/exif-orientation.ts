/**
 * A phone held sideways stores its pixels as the sensor saw them and an EXIF orientation saying how to turn
 * them. tesseract.js applies that orientation only when it finds it written big-endian (as iPhones write
 * it) near the start of the file; many Android phones write EXIF little-endian, and their sideways photos
 * would read as noise. So a little-endian orientation is copied, big-endian, into a small EXIF segment
 * placed first: the one tesseract.js reads.
 */
export function orientedForOcr(jpeg: Buffer): Buffer {
  const exif = exifOrientation(jpeg);
  if (!exif || exif.bigEndian || exif.orientation === 1) return jpeg;
  return Buffer.concat([jpeg.subarray(0, 2), orientationSegment(exif.orientation), jpeg.subarray(2)]);
}

/** An APP1 EXIF segment holding only an orientation, big-endian. */
export function orientationSegment(orientation: number): Buffer {
  const tiff = Buffer.from([0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([header, body]);
}

/** The orientation (1-8) of a JPEG's first EXIF segment and its byte order; null when it has none. */
export function exifOrientation(jpeg: Buffer): { orientation: number; bigEndian: boolean } | null {
  let at = 2;
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1]!;
    if (marker === 0xda || marker === 0xd9) return null;
    const length = jpeg.readUInt16BE(at + 2);
    const end = Math.min(at + 2 + length, jpeg.length);
    if (marker === 0xe1 && jpeg.subarray(at + 4, at + 10).toString('latin1') === 'Exif\0\0')
      return tiffOrientation(jpeg.subarray(at + 10, end));
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}

function tiffOrientation(tiff: Buffer): { orientation: number; bigEndian: boolean } | null {
  if (tiff.length < 8) return null;
  const order = tiff.subarray(0, 2).toString('latin1');
  if (order !== 'MM' && order !== 'II') return null;
  const bigEndian = order === 'MM';
  const u16 = (offset: number) => (bigEndian ? tiff.readUInt16BE(offset) : tiff.readUInt16LE(offset));
  const ifd = bigEndian ? tiff.readUInt32BE(4) : tiff.readUInt32LE(4);
  if (ifd + 2 > tiff.length) return null;
  const entries = u16(ifd);
  for (let n = 0; n < entries; n++) {
    const entry = ifd + 2 + n * 12;
    if (entry + 12 > tiff.length) return null;
    if (u16(entry) !== 0x0112) continue;
    const orientation = u16(entry + 8);
    return orientation >= 1 && orientation <= 8 ? { orientation, bigEndian } : null;
  }
  return null;
}
