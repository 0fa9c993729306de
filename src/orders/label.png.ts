import { deflateSync } from 'node:zlib';

/** Width and height of a label, in pixels. */
const WIDTH = 240;
const HEIGHT = 96;
/** Each bit of the order id is a bar this many pixels wide, then a gap. */
const BAR = 4;

/**
 * A delivery label as a PNG image (8-bit grayscale): a black frame around
 * one bar per bit of the order id, most significant first, tall for a 1
 * and short for a 0, so a scanner (or a person) reads the id back.
 */
export function orderLabelPng(orderId: number): Buffer {
  const bits = orderId.toString(2).padStart(16, '0');
  const rows = Buffer.alloc(HEIGHT * (WIDTH + 1), 0xff);
  const set = (x: number, y: number) => {
    rows[y * (WIDTH + 1) + 1 + x] = 0x00;
  };
  for (let y = 0; y < HEIGHT; y++) {
    rows[y * (WIDTH + 1)] = 0; // the row's filter: none
    for (let x = 0; x < WIDTH; x++) {
      const frame = x < 3 || y < 3 || x >= WIDTH - 3 || y >= HEIGHT - 3;
      const bit = Math.floor((x - 24) / (2 * BAR));
      const inBar = x >= 24 && (x - 24) % (2 * BAR) < BAR && bit < bits.length;
      const top = inBar && bits[bit] === '1' ? 16 : 48;
      if (frame || (inBar && y >= top && y < HEIGHT - 16)) {
        set(x, y);
      }
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8 bits, grayscale, deflate, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG chunk: length, type, data, and the CRC-32 of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) {
    c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) {
    c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}
