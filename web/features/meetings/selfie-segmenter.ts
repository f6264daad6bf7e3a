/**
 * Person segmentation for the background blur, loaded on the first blur toggle only (this module is
 * imported dynamically): MediaPipe's selfie segmentation, whose closure-compiled script does not bundle,
 * so it is added to the page as a script and used through its global. Its script, wasm, model and
 * graph are files of our own build (Vite `?url` imports), named to it through `locateFile`: nothing
 * comes from another origin. It runs on WebGL; without WebGL it would stop the page with an alert, so
 * that is checked first.
 */
import type { Options, SelfieSegmentation } from '@mediapipe/selfie_segmentation';
import solutionUrl from '@mediapipe/selfie_segmentation/selfie_segmentation.js?url&no-inline';
import graphUrl from '@mediapipe/selfie_segmentation/selfie_segmentation.binarypb?url&no-inline';
import landscapeModelUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_landscape.tflite?url&no-inline';
import simdLoaderUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_solution_simd_wasm_bin.js?url&no-inline';
import simdWasmUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_solution_simd_wasm_bin.wasm?url&no-inline';
import loaderUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_solution_wasm_bin.js?url&no-inline';
import wasmUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_solution_wasm_bin.wasm?url&no-inline';
import { loadScript } from '../../ui/load-script';

/** The files the solution asks for by name (the wasm pair it picks by the browser's SIMD support). */
const FILES: Record<string, string> = {
  'selfie_segmentation.binarypb': graphUrl,
  'selfie_segmentation_landscape.tflite': landscapeModelUrl,
  'selfie_segmentation_solution_simd_wasm_bin.js': simdLoaderUrl,
  'selfie_segmentation_solution_simd_wasm_bin.wasm': simdWasmUrl,
  'selfie_segmentation_solution_wasm_bin.js': loaderUrl,
  'selfie_segmentation_solution_wasm_bin.wasm': wasmUrl,
};

/** The landscape model (256×144 input): made for video calls, and lighter than the square one. */
const LANDSCAPE_MODEL = 1;

export type DrawMask = (mask: CanvasImageSource) => void;

export interface Segmenter {
  /** Segments one frame; `draw` is called with its mask (alpha: the person) while the mask is valid. */
  segment(frame: HTMLCanvasElement, draw: DrawMask): Promise<void>;
  close(): void;
}

function locateFile(name: string): string {
  const url = FILES[name];
  if (!url) throw new Error(`Selfie segmentation asked for an unknown file: ${name}`);
  return url;
}

function hasWebGL(): boolean {
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
  gl?.getExtension('WEBGL_lose_context')?.loseContext();
  return gl !== null;
}

export async function createSegmenter(): Promise<Segmenter> {
  if (!hasWebGL()) throw new Error('WebGL is not available');
  await loadScript(solutionUrl);
  const Solution = (window as unknown as { SelfieSegmentation?: typeof SelfieSegmentation }).SelfieSegmentation;
  if (!Solution) throw new Error('The selfie segmentation script defined no SelfieSegmentation');
  const solution = new Solution({ locateFile });
  // Inference in wasm (XNNPACK), not in WebGL shaders: the model is tiny, and where WebGL is software
  // (headless, blocklisted GPUs) the shader path measured 2–5 times slower per frame. The option is
  // the solution's own (its Safari default), missing from its typings.
  solution.setOptions({ modelSelection: LANDSCAPE_MODEL, useCpuInference: true } as Options);
  let draw: DrawMask | null = null;
  let closed = false;
  solution.onResults((results) => draw?.(results.segmentationMask));
  try {
    await solution.initialize();
  } catch (error) {
    void solution.close();
    throw error;
  }
  return {
    async segment(frame, onDraw) {
      draw = onDraw;
      try {
        await solution.send({ image: frame });
      } finally {
        draw = null;
      }
    },
    // The solution throws when closed twice.
    close: () => {
      if (closed) return;
      closed = true;
      void solution.close();
    },
  };
}
