// Draws the images every wallet pass carries (icon.png, icon@2x.png, logo.png, logo@2x.png): a cup seen
// from above, cream rim and coffee, in pure Node (zlib), so that they can be made again without any tool:
// `node apps/pos/assets/passes/make-pass-images.mjs`. Sizes are Apple's: icon 29 pt, logo at most 160 x 50 pt.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const ESPRESSO = [0x3b, 0x2a, 0x20, 255];
const CREAM = [0xe8, 0xd5, 0xb5, 255];
const COFFEE = [0x6f, 0x4e, 0x37, 255];
const SAMPLES = 4;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => (bytes.reduce((c, byte) => CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8), 0xffffffff) ^ 0xffffffff) >>> 0;

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGBA PNG of `width` x `height` whose pixel colours `paint(x, y)` gives, x and y in pixels (fractional: supersampled). */
function png(width, height, paint) {
  const rows = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 4); // filter byte 0: none
    for (let x = 0; x < width; x++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy++)
        for (let sx = 0; sx < SAMPLES; sx++) {
          const colour = paint(x + (sx + 0.5) / SAMPLES, y + (sy + 0.5) / SAMPLES);
          for (let i = 0; i < 3; i++) sum[i] += colour[i] * colour[3];
          sum[3] += colour[3];
        }
      const alpha = sum[3] / (SAMPLES * SAMPLES);
      for (let i = 0; i < 3; i++) row[1 + x * 4 + i] = alpha ? Math.round(sum[i] / sum[3]) : 0;
      row[1 + x * 4 + 3] = Math.round(alpha);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The cup centred at (cx, cy) with outer radius r, over `background`. */
const cup = (cx, cy, r, background) => (x, y) => {
  const d = Math.hypot(x - cx, y - cy);
  return d <= r * 0.72 ? COFFEE : d <= r ? CREAM : background;
};

const TRANSPARENT = [0, 0, 0, 0];
const images = {
  'icon.png': png(29, 29, cup(14.5, 14.5, 10, ESPRESSO)),
  'icon@2x.png': png(58, 58, cup(29, 29, 20, ESPRESSO)),
  'logo.png': png(50, 50, cup(25, 25, 20, TRANSPARENT)),
  'logo@2x.png': png(100, 100, cup(50, 50, 40, TRANSPARENT)),
};
for (const [name, bytes] of Object.entries(images)) writeFileSync(new URL(name, import.meta.url), bytes);
