// The image caches' figures as /metrics exposes them: hits per layer, misses, bytes held per cache.
import type { ServiceClient } from './service.ts';

export interface ImageCacheFigures {
  answerHits: number;
  renderHits: number;
  renderMisses: number;
  bytes: Record<string, number>;
}

export async function imageCacheFigures(service: Pick<ServiceClient, 'call'>): Promise<ImageCacheFigures> {
  const figures: ImageCacheFigures = { answerHits: 0, renderHits: 0, renderMisses: 0, bytes: {} };
  for (const line of (await service.call('GET', '/metrics')).raw.toString().split('\n')) {
    const hits = /^skinservice_image_cache_hits_total\{layer="(answer|render)"\} (\d+)$/.exec(line);
    if (hits) figures[hits[1] === 'answer' ? 'answerHits' : 'renderHits'] = Number(hits[2]);
    const misses = /^skinservice_image_cache_misses_total (\d+)$/.exec(line);
    if (misses) figures.renderMisses = Number(misses[1]);
    const bytes = /^skinservice_image_cache_bytes\{cache="(\w+)"\} (\d+)$/.exec(line);
    if (bytes) figures.bytes[bytes[1]!] = Number(bytes[2]);
  }
  return figures;
}
