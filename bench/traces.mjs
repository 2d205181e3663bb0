// Where one request's time went, span by span, for the slowest of a kind: a collector's OTLP/HTTP (JSON) receiver
// that keeps every span a run sends (the tests' own, startOtlpReceiver), and a reader that prints the slowest traces
// of a named span as trees.
//   node bench/traces.mjs receive FILE [--port 4318]
//     receives spans until stopped (Ctrl-C), then writes each as a JSON line to FILE; run a bench meanwhile with
//     OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 (and OTEL_BSP_SCHEDULE_DELAY=500, so that the last spans arrive
//     before the bench stops its stack).
//   node bench/traces.mjs show FILE "SPAN NAME" [--slowest 3]
//     prints, for the slowest traces whose root is that span (e.g. "POST /api/pos/orders/:order_number/payment") and
//     the median one, each span as `start..end (duration)` in ms from the root's start, under its parent (with a
//     statement's text); a span whose parent the trace lacks is printed after the root's tree.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startOtlpReceiver } from '@ctk/shared/testing';

const { positionals, values: args } = parseArgs({
  allowPositionals: true,
  options: { port: { type: 'string', default: '4318' }, slowest: { type: 'string', default: '3' } },
});
const [command, file, name] = positionals;
const usage = 'usage: node bench/traces.mjs receive FILE [--port N] | show FILE "SPAN NAME" [--slowest N]';

/** `items` in lists by `key` (Map.groupBy is Node 21's). */
function groupBy(items, key) {
  const groups = new Map();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

async function receive() {
  const receiver = await startOtlpReceiver(Number(args.port));
  console.log(`receiving spans at ${receiver.url}; Ctrl-C writes them to ${file}`);
  const stop = async () => {
    const spans = receiver.spans();
    writeFileSync(file, spans.map((span) => `${JSON.stringify(span)}\n`).join(''));
    console.log(`${spans.length} spans written to ${file}`);
    await receiver.close();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function show() {
  const spans = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const byTrace = groupBy(spans, (span) => span.traceId);
  const roots = spans.filter((span) => span.name === name).sort((a, b) => b.end - b.start - (a.end - a.start));
  if (roots.length === 0) throw new Error(`no span named ${JSON.stringify(name)} in ${file}`);
  const print = (root, title) => {
    console.log(`\n${title}`);
    const trace = byTrace.get(root.traceId);
    const children = groupBy(trace, (span) => span.parentSpanId);
    const walk = (span, depth) => {
      const at = (time) => (time - root.start).toFixed(1);
      const statement = span.attributes['db.query.text'];
      const what = statement ? ` ${String(statement).slice(0, 80)}` : '';
      console.log(
        `${'  '.repeat(depth)}${at(span.start)}..${at(span.end)} (${(span.end - span.start).toFixed(1)}) ${span.service} ${span.name}${what}`,
      );
      for (const child of (children.get(span.spanId) ?? []).sort((a, b) => a.start - b.start)) walk(child, depth + 1);
    };
    walk(root, 0);
    const ids = new Set(trace.map((span) => span.spanId));
    for (const span of trace) if (span !== root && !ids.has(span.parentSpanId)) walk(span, 1);
  };
  console.log(`${roots.length} traces of ${name}`);
  roots.slice(0, Number(args.slowest)).forEach((root, index) => print(root, `slowest ${index + 1}:`));
  print(roots[Math.floor(roots.length / 2)], 'median:');
}

if (command === 'receive' && file) await receive();
else if (command === 'show' && file && name) show();
else throw new Error(usage);
