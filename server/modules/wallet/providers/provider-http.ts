/**
 * JSON over HTTP to a payment processor, with a deadline. A processor that cannot be reached, times
 * out or fails on its side (5xx) raises ProcessorUnavailable: the caller answers 503 and the
 * processor (for a webhook) or the payer tries again; nothing has been written for it.
 */

const TIMEOUT_MS = 15_000;

export class ProcessorUnavailable extends Error {
  constructor(
    readonly processor: string,
    detail: string,
  ) {
    super(`${processor} is unavailable: ${detail}`);
  }
}

export interface ProcessorAnswer {
  status: number;
  /** The parsed JSON body; null for an empty body. */
  body: unknown;
}

export async function callProcessor(
  processor: string,
  request: { method: 'GET' | 'POST'; url: string; headers: Record<string, string>; body?: string; timeoutMs?: number },
): Promise<ProcessorAnswer> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.body === undefined ? request.headers : { 'content-type': 'application/json', ...request.headers },
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(request.timeoutMs ?? TIMEOUT_MS),
    });
  } catch (error) {
    throw new ProcessorUnavailable(processor, error instanceof Error ? error.name : 'request failed');
  }
  const text = await response.text().catch(() => '');
  if (response.status >= 500) throw new ProcessorUnavailable(processor, `HTTP ${response.status}`);
  if (text.trim() === '') return { status: response.status, body: null };
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    throw new ProcessorUnavailable(processor, `HTTP ${response.status} with a body that is not JSON`);
  }
}

/** A property of a JSON object, or undefined (the processor's answers are read defensively). */
export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}

export function text(value: unknown, maxLength = 500): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= maxLength ? value : undefined;
}

/** A webhook header's single value. */
export function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A date the processor gave (ISO 8601 or Unix seconds), or now. */
export function dateOf(value: unknown, fallback = new Date()): Date {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value * 1000);
  if (typeof value === 'string') {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return fallback;
}
