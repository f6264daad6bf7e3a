/**
 * The wall-clock stamp the latency bench draws into every generated frame, and its reader.
 *
 * A frame carries Date.now() as 48 black/white squares (two rows of 24): 40 bits of the time in
 * milliseconds (modulo 2^40, 34 years) and an 8-bit check (the XOR of those five bytes), big enough to
 * survive H.264 at a streaming bitrate; under them the time of day in large digits for people.
 * `drawFrame` paints an 8-bit grey frame (ffmpeg's `-pix_fmt gray`); `readStamp` runs in the page on the
 * decoded frame's pixels. Both take the layout from `stampLayout`, so writer and reader agree.
 */

export interface StampLayout {
  width: number;
  height: number;
  /** Side of one bit's square, in pixels. */
  cell: number;
  columns: number;
  rows: number;
  /** Top-left corner of the first square. */
  left: number;
  top: number;
}

const TIME_BITS = 40;
const CHECK_BITS = 8;
const TIME_MODULO = 2 ** TIME_BITS;

export function stampLayout(width: number, height: number): StampLayout {
  const columns = 24;
  const cell = Math.floor(width / (columns + 4));
  return { width, height, cell, columns, rows: (TIME_BITS + CHECK_BITS) / columns, left: 2 * cell, top: cell };
}

function checkByte(time: number): number {
  let check = 0;
  for (let i = 0; i < 5; i++) check ^= Math.floor(time / 2 ** (8 * i)) % 256;
  return check;
}

/** The 48 bits of `ms`, most significant first: the time modulo 2^40, then its check byte. */
export function stampBits(ms: number): number[] {
  const time = ms % TIME_MODULO;
  const bits: number[] = [];
  for (let i = TIME_BITS - 1; i >= 0; i--) bits.push(Math.floor(time / 2 ** i) % 2);
  const check = checkByte(time);
  for (let i = CHECK_BITS - 1; i >= 0; i--) bits.push((check >> i) & 1);
  return bits;
}

/** 3×5 digits and the separators of HH:MM:SS.mmm, one string of five rows each. */
const GLYPHS: Record<string, string> = {
  '0': '111101101101111', '1': '010110010010111', '2': '111001111100111', '3': '111001111001111',
  '4': '101101111001001', '5': '111100111001111', '6': '111100111101111', '7': '111001001001001',
  '8': '111101111101111', '9': '111101111001111', ':': '000010000010000', '.': '000000000000010',
};

function fill(frame: Uint8Array, width: number, x: number, y: number, w: number, h: number, value: number): void {
  for (let row = y; row < y + h; row++) frame.fill(value, row * width + x, row * width + x + w);
}

/** Paints `frame` (width × height, one byte a pixel): grey ground, the stamp of `ms`, the readable time, a moving bar. */
export function drawFrame(frame: Uint8Array, layout: StampLayout, ms: number): void {
  const { width, height, cell, columns, left, top } = layout;
  frame.fill(64);
  stampBits(ms).forEach((bit, i) => {
    fill(frame, width, left + (i % columns) * cell, top + Math.floor(i / columns) * cell, cell, cell, bit ? 255 : 0);
  });
  const text = new Date(ms).toISOString().slice(11, 23);
  const scale = Math.max(2, Math.floor(cell / 3));
  const textTop = top + (layout.rows + 1) * cell;
  [...text].forEach((char, n) => {
    const glyph = GLYPHS[char] ?? '';
    for (let p = 0; p < glyph.length; p++) {
      if (glyph[p] === '1') fill(frame, width, left + n * 4 * scale + (p % 3) * scale, textTop + Math.floor(p / 3) * scale, scale, scale, 255);
    }
  });
  // Motion, so the encoder has more than a still picture to code.
  const barTop = textTop + 6 * scale;
  if (barTop + cell <= height) fill(frame, width, Math.floor(((ms % 2000) / 2000) * (width - cell)), barTop, cell, cell, 200);
}

/**
 * Runs in the page (no closure over this module: it is serialised): the time in the frame whose RGBA
 * pixels are `data` (at least the stamp's rows, full width), or null when the check fails.
 */
export function readStamp(data: Uint8ClampedArray, layout: StampLayout, now: number): number | null {
  const timeBits = 40;
  const total = layout.columns * layout.rows;
  let time = 0;
  let check = 0;
  for (let i = 0; i < total; i++) {
    // The mean luma of the square's middle half: its edges blur under compression.
    const x0 = layout.left + (i % layout.columns) * layout.cell + Math.floor(layout.cell / 4);
    const y0 = layout.top + Math.floor(i / layout.columns) * layout.cell + Math.floor(layout.cell / 4);
    const side = Math.max(1, Math.floor(layout.cell / 2));
    let sum = 0;
    for (let y = y0; y < y0 + side; y++) {
      for (let x = x0; x < x0 + side; x++) sum += data[(y * layout.width + x) * 4 + 1]!;
    }
    const bit = sum / (side * side) > 128 ? 1 : 0;
    if (i < timeBits) time = time * 2 + bit;
    else check = check * 2 + bit;
  }
  let expected = 0;
  for (let i = 0; i < 5; i++) expected ^= Math.floor(time / 2 ** (8 * i)) % 256;
  if (expected !== check) return null;
  const modulo = 2 ** timeBits;
  return time + Math.round((now - time) / modulo) * modulo;
}
