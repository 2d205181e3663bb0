import { setFlagsFromString } from 'node:v8';

/** V8's budget for a WebAssembly function before its optimising compiler takes it (its default in Node 20's V8). */
const V8_BUDGET = 1_800_000;
/** A hundred times V8's: code a start runs (PostgreSQL's in PGlite, Prisma's query compiler) waits for real use. */
const STARTING_BUDGET = 180_000_000;

/**
 * Defers WebAssembly's optimising compiler (TurboFan) while a process starts the stack, and answers what gives V8 its
 * own budget back once it serves (decision 0062). A start runs PostgreSQL's start seven times in PGlite and each
 * app's Prisma query compiler: at V8's budget their functions were taken up by TurboFan on V8's background threads,
 * about 1.2 s of CPU on a machine whose two cores the start already fills. A function's budget is set when its
 * module is instantiated and again each time it is used up, so what a start instantiated is optimised once it ran a
 * hundred times as long as V8 waits, under real use; what is instantiated later waits as long as V8 does.
 */
export function deferWasmOptimisation(): () => void {
  setFlagsFromString(`--wasm-tiering-budget=${STARTING_BUDGET}`);
  return () => setFlagsFromString(`--wasm-tiering-budget=${V8_BUDGET}`);
}
