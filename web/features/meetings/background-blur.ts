/**
 * The background blur of the built-in conference, drawn by the browser: the camera's frames go through
 * person segmentation (selfie-segmenter.ts, loaded on the first use) and onto a canvas — the blurred
 * frame behind, the sharp person through the mask — whose own video track (captureStream) replaces the
 * camera track on every connection. Frames pass through sharp until the model is ready; where
 * segmentation cannot run (no WebGL, the model failed) the whole frame is blurred instead.
 */
import { drawBlurred, drawPersonOverBlur, drawSharp, frameIntervalMs, segmentationSize, type Size } from './blur-compositor';
import type { Segmenter } from './selfie-segmenter';

type Mode = { kind: 'loading' } | { kind: 'segmenting'; segmenter: Segmenter } | { kind: 'whole-frame' };

let fallbackReported = false;

function reportFallback(error: unknown): void {
  if (fallbackReported) return;
  fallbackReported = true;
  console.warn('Background blur: person segmentation is unavailable, the whole picture is blurred instead.', error);
}

function playing(camera: MediaStreamTrack): HTMLVideoElement {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = new MediaStream([camera]);
  void video.play();
  return video;
}

export function startBlur(camera: MediaStreamTrack): { track: MediaStreamTrack; stop: () => void } {
  const { width = 640, height = 480, frameRate } = camera.getSettings();
  const size: Size = { width, height };
  const video = playing(camera);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  // The model's input is 256×144: a frame scaled to about that size before it goes to the solution
  // makes its upload to WebGL and the read back of its results a fraction of a full frame's.
  const small = document.createElement('canvas');
  Object.assign(small, segmentationSize(size));
  const smallContext = small.getContext('2d');
  let mode: Mode = { kind: 'loading' };
  let stopped = false;
  let drawing = false;

  const fallBack = (error: unknown) => {
    reportFallback(error);
    if (mode.kind === 'segmenting') mode.segmenter.close();
    mode = { kind: 'whole-frame' };
  };
  import('./selfie-segmenter')
    .then(({ createSegmenter }) => createSegmenter())
    .then(
      (segmenter) => {
        if (stopped) segmenter.close();
        else mode = { kind: 'segmenting', segmenter };
      },
      (error: unknown) => !stopped && fallBack(error),
    );

  const draw = async () => {
    if (!context || !smallContext) return;
    if (mode.kind === 'loading') return drawSharp(context, video, size);
    if (mode.kind === 'whole-frame') return drawBlurred(context, video, size);
    drawSharp(smallContext, video, small);
    await mode.segmenter.segment(small, (mask) => !stopped && drawPersonOverBlur(context, video, mask, size));
  };
  const fps = 1000 / frameIntervalMs(frameRate);
  const track = canvas.captureStream(fps).getVideoTracks()[0] as MediaStreamTrack;

  // A timer, not requestAnimationFrame: the call keeps sending when the tab is in the background. A
  // frame still being segmented makes the next tick pass, so slow segmentation lowers the frame rate
  // instead of queueing frames.
  const interval = setInterval(() => {
    // The camera switched off in the toolbar: the canvas's track goes dark with it, and nothing is drawn.
    track.enabled = camera.enabled;
    if (drawing || stopped || !camera.enabled || video.readyState < 2) return;
    drawing = true;
    draw()
      .catch((error: unknown) => !stopped && fallBack(error))
      .finally(() => {
        drawing = false;
      });
  }, frameIntervalMs(frameRate));

  return {
    track,
    stop: () => {
      if (stopped) return;
      stopped = true;
      clearInterval(interval);
      if (mode.kind === 'segmenting') mode.segmenter.close();
      track.stop();
      video.srcObject = null;
    },
  };
}
