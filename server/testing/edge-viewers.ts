/**
 * Simulated players in a process of their own (server/testing/edge.ts `watchElsewhere`), so that 500
 * fetch loops do not share an event loop with the instances they load: reads `{ baseUrl, viewers,
 * options }` as JSON on stdin, prints the ViewingResult as JSON.
 */
import { text } from 'node:stream/consumers';
import { watch, type Viewer } from './edge';

const input = JSON.parse(await text(process.stdin)) as { baseUrl: string; viewers: Viewer[]; options: Parameters<typeof watch>[2] };
const result = await watch(input.baseUrl, input.viewers, input.options);
process.stdout.write(JSON.stringify({
  ...result,
  segments: [...result.segments],
  failures: [...result.failures],
  playlistCache: [...result.playlistCache],
}));
