import { describe, expect, it } from 'vitest';
import { BLUR_PX, drawBlurred, drawPersonOverBlur, drawSharp, frameIntervalMs, segmentationSize } from './blur-compositor';

/** A pixel's colour (one channel is enough) premultiplied by its alpha, as a canvas keeps it. */
interface Pixel {
  c: number;
  a: number;
}

/** An image: its pixels as drawn, and as drawn through a blur filter. */
interface FakeImage {
  sharp: Pixel[];
  blurred: Pixel[];
}

const opaque = (values: number[]): Pixel[] => values.map((c) => ({ c, a: 1 }));

/** The canvas operators the compositor uses, by their Porter-Duff definitions (premultiplied). */
const OPERATORS: Record<string, (s: Pixel, d: Pixel) => Pixel> = {
  'source-over': (s, d) => ({ c: s.c + d.c * (1 - s.a), a: s.a + d.a * (1 - s.a) }),
  copy: (s) => s,
  'source-in': (s, d) => ({ c: s.c * d.a, a: s.a * d.a }),
  'destination-over': (s, d) => ({ c: s.c * (1 - d.a) + d.c, a: s.a * (1 - d.a) + d.a }),
};

/** A 2D context over a row of pixels: each draw covers them all; the geometry is recorded. */
function fakeContext(width: number) {
  let pixels: Pixel[] = Array.from({ length: width }, () => ({ c: 0, a: 0 }));
  const stack: Array<{ filter: string; globalCompositeOperation: GlobalCompositeOperation }> = [];
  const draws: Array<{ filter: string; operator: string; rect: number[] }> = [];
  const context = {
    filter: 'none',
    globalCompositeOperation: 'source-over' as GlobalCompositeOperation,
    save() {
      stack.push({ filter: context.filter, globalCompositeOperation: context.globalCompositeOperation });
    },
    restore() {
      Object.assign(context, stack.pop());
    },
    drawImage(image: FakeImage, ...rect: number[]) {
      const operator = OPERATORS[context.globalCompositeOperation];
      if (!operator) throw new Error(`no operator ${context.globalCompositeOperation}`);
      const source = context.filter.startsWith('blur(') ? image.blurred : image.sharp;
      pixels = pixels.map((d, i) => operator(source[i]!, d));
      draws.push({ filter: context.filter, operator: context.globalCompositeOperation, rect });
    },
  };
  return { context: context as unknown as CanvasRenderingContext2D, pixels: () => pixels, draws, state: () => ({ filter: context.filter, operator: context.globalCompositeOperation, saved: stack.length }) };
}

const SIZE = { width: 640, height: 480 };
const frame: FakeImage = { sharp: opaque([0.9, 0.1, 0.6, 0.3]), blurred: opaque([0.5, 0.5, 0.45, 0.4]) };
/** How sure the model is, per pixel, that it is the person (the mask's alpha). */
const certainty = [0, 1, 0.25, 0.5];
const mask: FakeImage = { sharp: certainty.map((a) => ({ c: a, a })), blurred: [] };

describe('the person drawn over the blurred background', () => {
  it('gives each pixel alpha · sharp + (1 − alpha) · blurred, fully opaque', () => {
    const { context, pixels } = fakeContext(4);
    drawPersonOverBlur(context, frame as unknown as CanvasImageSource, mask as unknown as CanvasImageSource, SIZE);
    const expected = certainty.map((a, i) => a * frame.sharp[i]!.c + (1 - a) * frame.blurred[i]!.c);
    pixels().forEach((pixel, i) => {
      expect(pixel.a).toBeCloseTo(1);
      expect(pixel.c).toBeCloseTo(expected[i]!);
    });
  });

  it('leaves the background alone where the mask is empty and the person untouched where it is certain', () => {
    const { context, pixels } = fakeContext(4);
    drawPersonOverBlur(context, frame as unknown as CanvasImageSource, mask as unknown as CanvasImageSource, SIZE);
    expect(pixels()[0]!.c).toBeCloseTo(frame.blurred[0]!.c);
    expect(pixels()[1]!.c).toBeCloseTo(frame.sharp[1]!.c);
  });

  it('blurs only the background draw, and hands the context back as it found it', () => {
    const { context, draws, state } = fakeContext(4);
    drawPersonOverBlur(context, frame as unknown as CanvasImageSource, mask as unknown as CanvasImageSource, SIZE);
    expect(draws.map((d) => [d.operator, d.filter])).toEqual([
      ['copy', 'none'],
      ['source-in', 'none'],
      ['destination-over', `blur(${BLUR_PX}px)`],
    ]);
    expect(state()).toEqual({ filter: 'none', operator: 'source-over', saved: 0 });
  });
});

describe('the whole frame blurred and the sharp pass-through', () => {
  it('draws the blurred frame past the edges by twice the blur, so no transparent border darkens it', () => {
    const { context, draws, state } = fakeContext(4);
    drawBlurred(context, frame as unknown as CanvasImageSource, SIZE);
    const m = 2 * BLUR_PX;
    expect(draws).toEqual([{ filter: `blur(${BLUR_PX}px)`, operator: 'source-over', rect: [-m, -m, 640 + 2 * m, 480 + 2 * m] }]);
    expect(state()).toEqual({ filter: 'none', operator: 'source-over', saved: 0 });
  });

  it('draws the frame as it is until the model is ready', () => {
    const { context, pixels, draws } = fakeContext(4);
    drawSharp(context, frame as unknown as CanvasImageSource, SIZE);
    expect(draws).toEqual([{ filter: 'none', operator: 'source-over', rect: [0, 0, 640, 480] }]);
    expect(pixels()).toEqual(frame.sharp);
  });
});

describe("the frame the model sees", () => {
  it('is 256 wide in the camera’s shape, and never larger than the camera', () => {
    expect(segmentationSize({ width: 1280, height: 720 })).toEqual({ width: 256, height: 144 });
    expect(segmentationSize({ width: 640, height: 480 })).toEqual({ width: 256, height: 192 });
    expect(segmentationSize({ width: 160, height: 120 })).toEqual({ width: 160, height: 120 });
  });
});

describe('the blur canvas frame interval', () => {
  it("follows the camera's frame rate, at most 60 fps, and 24 fps when the browser does not say", () => {
    expect(frameIntervalMs(30)).toBeCloseTo(1000 / 30);
    expect(frameIntervalMs(120)).toBeCloseTo(1000 / 60);
    for (const unknown of [undefined, 0, Number.NaN]) expect(frameIntervalMs(unknown)).toBeCloseTo(1000 / 24);
  });
});
