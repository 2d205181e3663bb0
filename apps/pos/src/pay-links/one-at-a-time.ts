// Moved to @ctk/shared (commerce's ticket catalog replacements queue with it too).
export { oneAtATime, type OneAtATime } from '@ctk/shared';
