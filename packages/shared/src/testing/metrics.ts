/** One sample of a scrape: a metric's name (with its _total, _bucket, ... suffix), its labels and its value. */
export type MetricSample = { name: string; labels: Record<string, string>; value: number };

export type Scrape = {
  samples: MetricSample[];
  /** Each metric family's type, from its `# TYPE` line. */
  types: Map<string, string>;
  /** The sum of the samples named `name` whose labels include `labels`; undefined when there is none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
};

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/y;

/**
 * GET /metrics on a metrics port, read as Prometheus reads it: the text exposition format (version 0.0.4),
 * every line a comment or a sample, parsed; anything else fails the scrape.
 */
export async function scrapeMetrics(port: number): Promise<Scrape> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/plain') || !type.includes('version=0.0.4')) throw new Error(`GET /metrics answered ${type}`);
  return parseMetrics(await response.text());
}

export function parseMetrics(text: string): Scrape {
  const samples: MetricSample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ')) continue;
    const typed = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (typed) {
      types.set(typed[1]!, typed[2]!);
      continue;
    }
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`not a line of the Prometheus text format: ${line}`);
    const value = sampleValue(sample[3]!);
    if (value === undefined) throw new Error(`not a sample value: ${line}`);
    samples.push({ name: sample[1]!, labels: parseLabels(sample[2] ?? '', line), value });
  }
  return {
    samples,
    types,
    value(name, labels = {}) {
      const matching = samples.filter(
        (sample) => sample.name === name && Object.entries(labels).every(([key, wanted]) => sample.labels[key] === wanted),
      );
      return matching.length === 0 ? undefined : matching.reduce((sum, sample) => sum + sample.value, 0);
    },
  };
}

/** A float as Prometheus reads one (Go's ParseFloat): NaN and Inf in any case (prom-client writes `Nan`). */
function sampleValue(text: string): number | undefined {
  const special = { nan: NaN, inf: Infinity, '+inf': Infinity, '-inf': -Infinity }[text.toLowerCase()];
  if (special !== undefined) return special;
  const value = Number(text);
  return text.trim() === '' || Number.isNaN(value) ? undefined : value;
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const label = LABEL.exec(text);
    if (!label) throw new Error(`not labels of the Prometheus text format: ${line}`);
    labels[label[1]!] = label[2]!.replace(/\\(.)/g, (_, escaped: string) => (escaped === 'n' ? '\n' : escaped));
  }
  return labels;
}
