import type { IncomingMessage } from 'node:http';
import { errorCode, peerUnavailable } from './peer-errors.js';

/**
 * A response's body, read whole unless it passes maxBytes: then the response is destroyed and the promise rejects,
 * whether the size was announced (Content-Length) or only found while reading. Holds at most maxBytes.
 */
export function readLimitedBody(res: IncomingMessage, url: URL, maxBytes: number): Promise<Buffer> {
  const tooLarge = (size: string) =>
    peerUnavailable(url, `sent a body larger than maxBytes (${maxBytes} bytes): ${size}; the request was aborted`, { max_bytes: maxBytes });
  return new Promise((resolve, reject) => {
    const announced = Number(res.headers['content-length']);
    if (Number.isFinite(announced) && announced > maxBytes) {
      res.destroy();
      reject(tooLarge(`Content-Length is ${announced}`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy();
        reject(tooLarge(`more than ${maxBytes} bytes arrived`));
      } else chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks, size)));
    res.on('error', (error) => reject(peerUnavailable(url, `broke off its body (${errorCode(error)})`)));
    res.on('close', () => {
      if (!res.complete) reject(peerUnavailable(url, 'closed the connection before its body ended'));
    });
  });
}
