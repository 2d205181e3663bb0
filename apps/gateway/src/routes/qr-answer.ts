import type { FastifyReply } from 'fastify';

/** The files of a route answering a QR code (an order's, a pay link's): SVG text, or a PNG. */
export function qrFiles(of: string, viewBox: number) {
  return {
    'image/svg+xml': {
      description: `The QR code of ${of} as SVG`,
      example: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${viewBox} ${viewBox}" shape-rendering="crispEdges">…</svg>`,
    },
    'image/png': { description: 'The same QR code as a PNG image (512 pixels)', example: '(PNG bytes)' },
  };
}

/** The files of a route answering a QR code and nothing else (a ticket's code, a referral checkout's payment URI): bytes, no example. */
export function qrByteFiles(of: string) {
  return {
    'image/svg+xml': { description: `The QR code of ${of} as SVG`, binary: true as const },
    'image/png': { description: 'The same QR code as a PNG image (512 pixels)', binary: true as const },
  };
}

/** A QR code a service drew, answered in its media type: SVG as text, a PNG as its bytes. */
export function qrAnswer(reply: FastifyReply, qr: { contentType: string; body: Uint8Array }): string | Buffer {
  reply.type(qr.contentType);
  const body = Buffer.from(qr.body);
  return qr.contentType.startsWith('image/svg') ? body.toString('utf8') : body;
}
