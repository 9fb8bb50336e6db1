// The worker of bench/render-threads.ts: renders what it is sent, as a render pool would, and sends the PNG back.
import { parentPort } from 'node:worker_threads';
import { renderImage, type RenderRequest } from '../src/rendering/render.ts';

parentPort!.on('message', (request: RenderRequest) => {
  const png = renderImage(request);
  parentPort!.postMessage(new Uint8Array(png.buffer, png.byteOffset, png.byteLength));
});
