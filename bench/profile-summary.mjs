// Where a V8 CPU profile (node --cpu-prof, or a bench's --cpu-prof DIR) spent its time, by the frame itself:
// the share of each package (node_modules name, an app or package of this repository, node's core, native
// frames) and the heaviest functions. `--last S` keeps the profile's last S seconds alone (a bench's last phase),
// `--but-last S` leaves its last S seconds out (the phases after the one of interest).
// Usage: node bench/profile-summary.mjs FILE.cpuprofile [--top N] [--last S] [--but-last S]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: args, positionals } = parseArgs({
  options: { top: { type: 'string', default: '25' }, last: { type: 'string' }, 'but-last': { type: 'string' } },
  allowPositionals: true,
});
if (positionals.length !== 1) throw new Error('usage: node bench/profile-summary.mjs FILE.cpuprofile [--top N]');
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));

/** Where a frame's code lives: a package of node_modules, an app or package of ours, node's core, or V8's own. */
function placeOf({ url, functionName }) {
  if (!url) return functionName === '(idle)' ? '(idle)' : functionName === '(garbage collector)' ? '(gc)' : '(native)';
  if (url.startsWith('node:')) return 'node core';
  const inModules = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1];
  const ours = /\/(apps|packages)\/([^/]+)\//.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : url;
}

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTime = new Map();
const from = args.last === undefined ? -Infinity : profile.endTime - Number(args.last) * 1e6;
const to = profile.endTime - Number(args['but-last'] ?? 0) * 1e6;
for (let i = 0, at = profile.startTime; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i] ?? 0;
  if (at < from || at > to) continue;
  const id = profile.samples[i];
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...selfTime.values()].reduce((a, b) => a + b, 0);
const byPlace = new Map();
const byFunction = new Map();
for (const [id, time] of selfTime) {
  const { callFrame } = byId.get(id);
  const place = placeOf(callFrame);
  byPlace.set(place, (byPlace.get(place) ?? 0) + time);
  const name = `${callFrame.functionName || '(anonymous)'} ${place}:${callFrame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + time);
}
const share = (time) => `${((100 * time) / total).toFixed(1).padStart(5)}%`;
console.log(`${(total / 1e6).toFixed(1)} s sampled`);
console.log('\nby package (self time):');
for (const [place, time] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, Number(args.top))) console.log(`  ${share(time)}  ${place}`);
console.log('\nby function (self time):');
for (const [name, time] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(args.top))) console.log(`  ${share(time)}  ${name}`);
