// Reads a multipart upload: one PNG file field and a few text fields. The size limit is enforced while the
// file streams in (413 past it), before a byte of it is decoded.
import type { FastifyRequest } from 'fastify';
import { ApiError, badRequest, message } from '../http/envelope.ts';
import type { Message } from '../i18n/i18n.ts';

/** @fastify/multipart's limits for a one-file texture upload: the file's own limit applies while it streams in. */
export const uploadLimits = (maxTextureBytes: number) => ({ fileSize: maxTextureBytes, files: 1, fields: 20, fieldSize: 4096, parts: 25 });

/** A byte count as people read it: 1 MB for 1048576, 512 KB for 524288 (binary units, as MAX_TEXTURE_BYTES is set). */
export function readableSize(bytes: number): Message {
  if (bytes >= 1024 * 1024) return message('textures.size.megabytes', { value: Number((bytes / (1024 * 1024)).toFixed(1)) });
  if (bytes >= 1024) return message('textures.size.kilobytes', { value: Number((bytes / 1024).toFixed(1)) });
  return message('textures.size.bytes', { count: bytes });
}

export interface Upload {
  file: Buffer;
  fields: Map<string, string[]>;
}

export async function readUpload(request: FastifyRequest, fileField: string, maxBytes: number): Promise<Upload> {
  if (!request.isMultipart()) throw new ApiError(415, message('textures.multipartNeeded', { field: fileField }));
  let file: Buffer | null = null;
  const fields = new Map<string, string[]>();
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== fileField || file !== null) {
        await part.toBuffer().catch(() => undefined);
        throw badRequest('textures.unexpectedFile', { got: part.fieldname, field: fileField });
      }
      try {
        file = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new ApiError(413, message('textures.fileTooLarge', { field: fileField, size: readableSize(maxBytes), bytes: maxBytes }));
        }
        throw error;
      }
    } else {
      fields.set(part.fieldname, [...(fields.get(part.fieldname) ?? []), String(part.value)]);
    }
  }
  if (file === null) throw badRequest('textures.fileRequired', { field: fileField });
  return { file, fields };
}

export function optionalBoolean(fields: Map<string, string[]>, name: string): boolean | undefined {
  const value = fields.get(name)?.at(-1);
  if (value === undefined || value === '') return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw badRequest('textures.notBoolean', { field: name });
}

/** User ids given as repeated fields, a JSON array, or a comma-separated list (contract section 5). */
export function userIdList(fields: Map<string, string[]>, name: string): number[] {
  const ids: number[] = [];
  for (const value of fields.get(name) ?? []) {
    let items: unknown[];
    try {
      items = value.trim().startsWith('[') ? (JSON.parse(value) as unknown[]) : value.split(',');
    } catch {
      throw badRequest('textures.notJsonArray', { field: name });
    }
    if (!Array.isArray(items)) throw badRequest('textures.notUserIds', { field: name });
    for (const item of items) {
      const text = String(item).trim();
      if (text === '') continue;
      if (!/^\d{1,15}$/.test(text)) throw badRequest('textures.notUserId', { field: name, value: text });
      ids.push(Number(text));
    }
  }
  return ids;
}
