// Writes the install icons (public/icons/icon-<size>.png): the brand green with five white
// waveform bars, drawn pixel by pixel and encoded as PNG with zlib. Run with `npm run icons -w web`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

export const SIZES = [72, 96, 128, 144, 152, 192, 384, 512];
const BACKGROUND = [0x15, 0x80, 0x3d];
const FOREGROUND = [0xff, 0xff, 0xff];
// Bar heights as fractions of the icon; kept inside the central 60 % (safe for maskable icons).
const BARS = [0.22, 0.4, 0.56, 0.4, 0.22];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function isBar(x, y, size) {
  const barWidth = size * 0.07;
  const gap = size * 0.045;
  const total = BARS.length * barWidth + (BARS.length - 1) * gap;
  const left = (size - total) / 2;
  const index = Math.floor((x - left) / (barWidth + gap));
  if (index < 0 || index >= BARS.length) return false;
  const within = x - left - index * (barWidth + gap);
  if (within > barWidth) return false;
  const half = ((BARS[index] ?? 0) * size) / 2;
  return Math.abs(y - size / 2) <= half;
}

export function iconPng(size) {
  const rows = [];
  for (let y = 0; y < size; y += 1) {
    const row = Buffer.alloc(1 + size * 3); // filter byte 0, then RGB
    for (let x = 0; x < size; x += 1) {
      const colour = isBar(x + 0.5, y + 0.5, size) ? FOREGROUND : BACKGROUND;
      row.set(colour, 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
mkdirSync(out, { recursive: true });
for (const size of SIZES) writeFileSync(join(out, `icon-${size}.png`), iconPng(size));
console.log(`Wrote ${SIZES.length} icons to ${out}`);
