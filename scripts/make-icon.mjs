// Draws the extension icon (media/icon.png, 128x128 RGBA): a small timeline of four MPI ranks with
// coloured state bars and two message arrows. A tiny PNG encoder (zlib from Node) keeps it dependency-free.
//   node scripts/make-icon.mjs [out.png]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const size = 128;
const pixels = new Uint8Array(size * size * 4);

function blend(x, y, [r, g, b], alpha = 1) {
  if (x < 0 || y < 0 || x >= size || y >= size) return;
  const i = (y * size + x) * 4;
  const a = pixels[i + 3] / 255;
  const outA = alpha + a * (1 - alpha);
  const mix = (src, dst) => Math.round((src * alpha + dst * a * (1 - alpha)) / (outA || 1));
  pixels[i] = mix(r, pixels[i]);
  pixels[i + 1] = mix(g, pixels[i + 1]);
  pixels[i + 2] = mix(b, pixels[i + 2]);
  pixels[i + 3] = Math.round(outA * 255);
}

/** Rounded rectangle with a one-pixel soft edge. */
function roundRect(x0, y0, w, h, radius, color) {
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) {
      const cx = Math.min(Math.max(x + 0.5, x0 + radius), x0 + w - radius);
      const cy = Math.min(Math.max(y + 0.5, y0 + radius), y0 + h - radius);
      const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
      const coverage = Math.min(1, Math.max(0, radius - d + 0.5));
      if (coverage > 0) blend(x, y, color, coverage);
    }
  }
}

/** Anti-aliased line of the given width (distance-to-segment coverage). */
function line(x1, y1, x2, y2, width, color) {
  const [minX, maxX] = [Math.floor(Math.min(x1, x2) - width), Math.ceil(Math.max(x1, x2) + width)];
  const [minY, maxY] = [Math.floor(Math.min(y1, y2) - width), Math.ceil(Math.max(y1, y2) + width)];
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len2 = dx * dx + dy * dy;
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      const t = Math.max(0, Math.min(1, ((x + 0.5 - x1) * dx + (y + 0.5 - y1) * dy) / len2));
      const d = Math.hypot(x + 0.5 - (x1 + t * dx), y + 0.5 - (y1 + t * dy));
      const coverage = Math.min(1, Math.max(0, width / 2 - d + 0.5));
      if (coverage > 0) blend(x, y, color, coverage);
    }
  }
}

const background = [30, 41, 59];
const axis = [100, 116, 139];
const colors = { compute: [56, 189, 248], comm: [244, 114, 182], user: [250, 204, 21], wait: [74, 222, 128] };
const arrow = [241, 245, 249];

roundRect(0, 0, size, size, 22, background);
const rows = [28, 52, 76, 100];
for (const y of rows) line(14, y, 114, y, 2, axis);
// State bars per rank: [start, end, kind]
const bars = [
  [
    [16, 46, 'compute'],
    [50, 62, 'comm'],
    [66, 104, 'user'],
  ],
  [
    [16, 34, 'user'],
    [38, 58, 'compute'],
    [62, 74, 'comm'],
    [78, 110, 'wait'],
  ],
  [
    [16, 52, 'compute'],
    [56, 66, 'comm'],
    [70, 96, 'compute'],
  ],
  [
    [16, 28, 'wait'],
    [32, 70, 'user'],
    [74, 84, 'comm'],
    [88, 112, 'compute'],
  ],
];
bars.forEach((rank, r) => {
  for (const [x0, x1, kind] of rank) roundRect(x0, rows[r] - 7, x1 - x0, 14, 3, colors[kind]);
});
// Two messages between ranks, with arrow heads.
function message(x1, y1, x2, y2) {
  line(x1, y1, x2, y2, 3, arrow);
  const angle = Math.atan2(y2 - y1, x2 - x1);
  for (const side of [-1, 1]) {
    const a = angle + Math.PI - side * 0.5;
    line(x2, y2, x2 + 9 * Math.cos(a), y2 + 9 * Math.sin(a), 3, arrow);
  }
}
message(56, 28, 68, 52);
message(80, 76, 92, 100);

// ---- PNG encoding: signature, IHDR, one IDAT (filter byte 0 per row), IEND
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
const header = Buffer.alloc(13);
header.writeUInt32BE(size, 0);
header.writeUInt32BE(size, 4);
header[8] = 8; // bit depth
header[9] = 6; // colour type RGBA
const raw = Buffer.alloc(size * (size * 4 + 1));
for (let y = 0; y < size; y++) Buffer.from(pixels.subarray(y * size * 4, (y + 1) * size * 4)).copy(raw, y * (size * 4 + 1) + 1);
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
const out = process.argv[2] ?? path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'media', 'icon.png');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, png);
console.log(`${out}: ${png.length} bytes`);
