/** A tus client for tests: creates an upload and sends it in the page's 1,000,000-byte chunks, one at a time. */
import sharp from 'sharp';
import { UPLOADS_PATH } from '../../common/api/posts';
import { UPLOAD_CHUNK_BYTES } from '../../common/constants';
import type { HttpResponse, HttpSession } from './http-session';

const TUS = { 'tus-resumable': '1.0.0' };

const metadataHeader = (metadata: Record<string, string>) =>
  Object.entries(metadata).map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`).join(',');

/** Creates the upload (POST with its length); answers the response and, when created, its id. */
export async function startUpload(client: HttpSession, size: number, metadata: Record<string, string>): Promise<{ res: HttpResponse<unknown>; id: string | null }> {
  const res = await client.request('POST', UPLOADS_PATH, { headers: { ...TUS, 'upload-length': String(size), 'upload-metadata': metadataHeader(metadata) } });
  const location = String(res.headers.location ?? '');
  return { res, id: res.status === 201 ? location.slice(location.lastIndexOf('/') + 1) : null };
}

/** Sends bytes `from`…`to` of `data` in chunks; answers the offset the server holds after the last one. */
export async function sendChunks(client: HttpSession, id: string, data: Buffer, from: number, to = data.length): Promise<number> {
  let offset = from;
  while (offset < to) {
    const chunk = data.subarray(offset, Math.min(to, offset + UPLOAD_CHUNK_BYTES));
    const res = await client.request('PATCH', `${UPLOADS_PATH}/${id}`, {
      rawBody: chunk,
      headers: { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    });
    if (res.status !== 204) throw new Error(`PATCH at ${offset}: ${res.status} ${String(res.body)}`);
    offset = Number(res.headers['upload-offset']);
  }
  return offset;
}

/** The offset the server holds for an upload (HEAD), or the refusal's status. */
export async function uploadOffset(client: HttpSession, id: string): Promise<{ status: number; offset: number | null }> {
  const res = await client.request('HEAD', `${UPLOADS_PATH}/${id}`, { headers: TUS });
  return { status: res.status, offset: res.status === 200 ? Number(res.headers['upload-offset']) : null };
}

/** A whole file uploaded; answers its upload id. */
export async function uploadFile(client: HttpSession, data: Buffer, filename: string, filetype: string): Promise<string> {
  const { res, id } = await startUpload(client, data.length, { filename, filetype });
  if (!id) throw new Error(`upload refused: ${res.status} ${String(res.body)}`);
  await sendChunks(client, id, data, 0);
  return id;
}

/** A small picture of one colour, as PNG. */
export const testPicture = (colour: { r: number; g: number; b: number } = { r: 200, g: 120, b: 40 }, width = 320, height = 240) =>
  sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();

/** An image post of `images` generated pictures, published through the upload server and post/create; answers its id. */
export async function publishImagePost(client: HttpSession, input: Record<string, unknown> = {}, images = 1): Promise<number> {
  const uploadIds: string[] = [];
  for (let i = 0; i < images; i += 1) uploadIds.push(await uploadFile(client, await testPicture({ r: 40 * i, g: 120, b: 200 }), `picture-${i}.png`, 'image/png'));
  const res = await client.post('/api/post/create', { type: 'image', title: 'A picture', audience: 'public', upload_ids: uploadIds, ...input });
  if (res.status !== 200) throw new Error(`post/create: ${res.status} ${JSON.stringify(res.body)}`);
  return Number(res.body.post_id);
}
