import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ProblemCode, problemOf } from './errors';

/** What the request was, when the HTTP parser could not read it: the answer's status, code and detail. */
function refusalOf(error: { code?: string }): [number, ProblemCode, string] {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [
        408,
        'request_timeout',
        'Request đến quá chậm: header và nội dung chưa đến đủ trong thời gian cho phép.',
      ];
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'too_large', 'Header của request quá lớn.'];
    default:
      // A header holding a control character, a malformed request line, a broken chunk, …
      return [
        400,
        'invalid_input',
        'Request không đúng định dạng HTTP (ví dụ header chứa ký tự điều khiển).',
      ];
  }
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refused before Fastify saw it (a header with a
 * control character, headers too large, a request not all arrived within REQUEST_TIMEOUT_MS) is answered as
 * every other error, a problem (application/problem+json), and its connection closed, as Fastify's own
 * handler does (which answers `{"error":"Bad Request"}`). A connection already gone is left alone.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, detail] = refusalOf(error);
  const body = JSON.stringify(problemOf(status, code, detail));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/problem+json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
