// Where one request's time went, span by span, for the slowest of a kind: a collector's OTLP/HTTP (JSON) receiver
// that keeps every span a run sends, and a reader that prints the slowest traces of a named span as trees.
//   node bench/traces.mjs receive FILE [--port 4318]
//     keeps each span as a JSON line in FILE until stopped (Ctrl-C); run a bench meanwhile with
//     OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 (and OTEL_BSP_SCHEDULE_DELAY=500, so that the last spans arrive
//     before the bench stops its stack).
//   node bench/traces.mjs show FILE "SPAN NAME" [--slowest 3]
//     prints, for the slowest traces whose root is that span (e.g. "POST /api/pos/orders/:order_number/payment") and
//     the median one, each span as `start..end (duration)` in ms from the root's start, under its parent; spans begun
//     in the trace after the root ended (an event's consumer) are printed after it.
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { positionals, values: args } = parseArgs({
  allowPositionals: true,
  options: { port: { type: 'string', default: '4318' }, slowest: { type: 'string', default: '3' } },
});
const [command, file, name] = positionals;
const usage = 'usage: node bench/traces.mjs receive FILE [--port N] | show FILE "SPAN NAME" [--slowest N]';

/** Milliseconds since the epoch of an OTLP time in nanoseconds (a string). */
const msOf = (nanos) => Number(BigInt(nanos) / 1000n) / 1000;
const valueOf = (value) => value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue;
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

function receive() {
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const lines = [];
      for (const resource of JSON.parse(Buffer.concat(chunks).toString('utf8')).resourceSpans ?? []) {
        const service = resource.resource?.attributes?.find((attribute) => attribute.key === 'service.name')?.value.stringValue;
        for (const scope of resource.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            lines.push(
              JSON.stringify({
                service,
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                name: span.name,
                start: msOf(span.startTimeUnixNano),
                end: msOf(span.endTimeUnixNano),
                statement: (span.attributes ?? []).find((attribute) => attribute.key === 'db.query.text')?.value.stringValue,
                attributes: Object.fromEntries((span.attributes ?? []).map((attribute) => [attribute.key, valueOf(attribute.value)])),
              }),
            );
      }
      if (lines.length > 0) appendFileSync(file, `${lines.join('\n')}\n`);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(Number(args.port), '127.0.0.1', () => console.log(`receiving spans at http://127.0.0.1:${args.port} into ${file}`));
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
      const what = span.statement ? ` ${span.statement.slice(0, 80)}` : '';
      console.log(
        `${'  '.repeat(depth)}${at(span.start)}..${at(span.end)} (${(span.end - span.start).toFixed(1)}) ${span.service} ${span.name}${what}`,
      );
      for (const child of (children.get(span.spanId) ?? []).sort((a, b) => a.start - b.start)) walk(child, depth + 1);
    };
    walk(root, 0);
    // Spans whose parent is not in the trace (the root's own parent, from a caller that records none).
    const ids = new Set(trace.map((span) => span.spanId));
    for (const span of trace) if (span !== root && !ids.has(span.parentSpanId)) walk(span, 1);
  };
  console.log(`${roots.length} traces of ${name}`);
  roots.slice(0, Number(args.slowest)).forEach((root, index) => print(root, `slowest ${index + 1}:`));
  print(roots[Math.floor(roots.length / 2)], 'median:');
}

if (command === 'receive' && file) receive();
else if (command === 'show' && file && name) show();
else throw new Error(usage);
