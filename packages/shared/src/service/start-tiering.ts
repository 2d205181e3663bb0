import { setFlagsFromString } from 'node:v8';

/** V8's budgets before its optimising compiler (TurboFan) takes a function: its defaults in Node 20's V8. */
const V8_BUDGETS = { js: 67_584, wasm: 1_800_000 };
/**
 * Ten times V8's for JavaScript, a hundred for WebAssembly: code a start runs (module loading, PostgreSQL's start in
 * PGlite, Prisma's query compiler) waits for real use. JavaScript at a hundred times kept the requests' own code (pg's
 * protocol, the codecs, zod) on the baseline tier for the first seconds of serving: counter orders 430 a second
 * against 480 at ten times or none, the start as quick at ten as at a hundred (decision 0069).
 */
const STARTING_BUDGETS = { js: V8_BUDGETS.js * 10, wasm: V8_BUDGETS.wasm * 100 };

function setBudgets({ js, wasm }: { js: number; wasm: number }): void {
  setFlagsFromString(`--interrupt-budget=${js}`);
  setFlagsFromString(`--wasm-tiering-budget=${wasm}`);
}

/**
 * Defers V8's optimising compiler while a process starts the stack, for JavaScript (decision 0069) and WebAssembly
 * (decision 0062), and answers what gives V8 its own budgets back once it serves. A start runs code once: the
 * modules' top levels, the contract read and the routes built, PostgreSQL's start seven times in PGlite, each app's
 * Prisma query compiler. At V8's budgets TurboFan compiled much of it on V8's background threads, about 1.2 s of CPU
 * for WebAssembly and 0.6 s for JavaScript on a machine whose two cores the start already fills. A function's
 * budget is set when it first takes feedback (JavaScript) or its module is instantiated (WebAssembly), and again
 * each time it is used up: what a start ran is optimised once it ran ten (JavaScript) or a hundred (WebAssembly)
 * times as long as V8 waits, under real use; what first runs later waits as long as V8 does. V8's flags are the
 * process's, its threads' too.
 */
export function deferOptimisation(): () => void {
  setBudgets(STARTING_BUDGETS);
  return () => setBudgets(V8_BUDGETS);
}
