/**
 * The drawing of one outgoing frame on the blur canvas's 2D context. With a segmentation mask (alpha =
 * how sure the model is that a pixel is the person) the result is, per pixel,
 * `alpha · sharp + (1 − alpha) · blurred`: the mask is copied in, the sharp frame kept only where the
 * mask is (source-in), and the blurred frame drawn behind it (destination-over).
 */
export const BLUR_PX = 10;

type Draw2D = Pick<CanvasRenderingContext2D, 'drawImage' | 'save' | 'restore' | 'filter' | 'globalCompositeOperation'>;

export interface Size {
  width: number;
  height: number;
}

export function drawSharp(context: Draw2D, frame: CanvasImageSource, { width, height }: Size): void {
  context.drawImage(frame, 0, 0, width, height);
}

/**
 * The whole frame blurred, drawn larger by twice the blur's reach (2σ): the blur would otherwise mix
 * in the transparent pixels beyond the canvas and darken its edges.
 */
export function drawBlurred(context: Draw2D, frame: CanvasImageSource, { width, height }: Size): void {
  const margin = 2 * BLUR_PX;
  context.save();
  context.filter = `blur(${BLUR_PX}px)`;
  context.drawImage(frame, -margin, -margin, width + 2 * margin, height + 2 * margin);
  context.restore();
}

export function drawPersonOverBlur(context: Draw2D, frame: CanvasImageSource, mask: CanvasImageSource, size: Size): void {
  context.save();
  context.globalCompositeOperation = 'copy';
  context.drawImage(mask, 0, 0, size.width, size.height);
  context.globalCompositeOperation = 'source-in';
  drawSharp(context, frame, size);
  context.globalCompositeOperation = 'destination-over';
  drawBlurred(context, frame, size);
  context.restore();
}

/** The model's input width (the landscape model's 256×144); the frame is scaled to it, keeping its shape. */
const SEGMENTATION_WIDTH = 256;

export function segmentationSize({ width, height }: Size): Size {
  const scale = Math.min(1, SEGMENTATION_WIDTH / width);
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

/** The blur canvas's refresh interval: the camera's frame rate, 24 fps when the browser does not say. */
export function frameIntervalMs(frameRate: number | undefined): number {
  const fps = frameRate && Number.isFinite(frameRate) && frameRate > 0 ? Math.min(frameRate, 60) : 24;
  return 1000 / fps;
}
