import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { CliError } from '../errors.js';

/**
 * Asks for a secret on a terminal without showing it: `prompt` is written to `output`, and one
 * line is read from `input` by readline in terminal mode, which turns the terminal's own echo off
 * (raw mode) and back on; what readline would echo goes nowhere. Ctrl-C, or Ctrl-D on an empty
 * line, is a {@link CliError}.
 */
export function promptSecret(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  prompt: string,
): Promise<string> {
  const nowhere = new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
  const reading = createInterface({ input, output: nowhere, terminal: true });
  output.write(`${prompt} `);
  return new Promise((resolve, reject) => {
    let typed: string | undefined;
    reading.once('line', (line) => {
      typed = line;
      reading.close();
    });
    reading.once('SIGINT', () => {
      reading.close();
    });
    reading.once('close', () => {
      // The Enter typed was not shown either: end the prompt's line.
      output.write('\n');
      if (typed === undefined) reject(new CliError('nothing was typed'));
      else resolve(typed);
    });
  });
}
