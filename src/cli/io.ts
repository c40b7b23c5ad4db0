// The command line's streams, in a module of their own: the commands and the folder search both
// take them, and neither may import the other's module for a type (an import cycle).
import type { Readable, Writable } from 'node:stream';

export interface Io {
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean };
  stdin: Readable;
}
