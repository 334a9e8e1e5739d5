// Requests written byte for byte over a socket, for what only a real HTTP parser shows.
import { connect } from 'node:net';

/** An answer as received: its status, its raw header block and its body. */
export interface RawAnswer {
  readonly status: number;
  readonly head: string;
  readonly body: string;
}

/** Sends `raw` to 127.0.0.1:`port`, half-closes, and resolves with the whole answer. */
export function sendRaw(port: number, raw: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(raw));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), head, body });
    });
  });
}
