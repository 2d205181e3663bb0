// s3rver ships no types: what the tests use of it.
declare module 's3rver' {
  import type { EventEmitter } from 'node:events';
  type Options = {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string }[];
  };
  export type S3Event = { Records: { eventName: string; s3: { bucket: { name: string }; object: { key: string } } }[] };
  export default class S3rver extends EventEmitter {
    constructor(options: Options);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
