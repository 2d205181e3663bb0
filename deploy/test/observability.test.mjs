// The alerting rules and the dashboard of deploy/observability/: promtool checks and tests the rules, every
// expression of the dashboard is valid PromQL (promtool parses it as a recording rule), and every ctk_ metric
// either names is one docs/decisions/0042-metrics.md lists as served.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../observability/', import.meta.url));
const DECISION = fileURLToPath(new URL('../../docs/decisions/0042-metrics.md', import.meta.url));
const PROMTOOL = process.env.PROMTOOL ?? 'promtool';
const probe = spawnSync(PROMTOOL, ['--version'], { encoding: 'utf8' });
const skip = probe.error || probe.status !== 0 ? `"${PROMTOOL}" not found (Debian's prometheus package has it)` : false;

const promtool = (...args) => execFileSync(PROMTOOL, args, { cwd: DIR, encoding: 'utf8', stdio: 'pipe' });
const dashboard = JSON.parse(readFileSync(join(DIR, 'dashboard.json'), 'utf8'));
const expressions = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
const rules = readFileSync(join(DIR, 'alerts.yml'), 'utf8');

test('promtool accepts the alerting rules', { skip }, () => {
  assert.match(promtool('check', 'rules', 'alerts.yml'), /SUCCESS: 7 rules found/);
});

test('each alert fires when it should and not when it should not (promtool test rules)', { skip }, () => {
  assert.match(promtool('test', 'rules', 'alerts.test.yml'), /SUCCESS/);
});

test("every expression of the dashboard is valid PromQL (Grafana's $__rate_interval as 5m)", { skip }, () => {
  assert.ok(expressions.length >= 15, `the dashboard has ${expressions.length} expressions`);
  const dir = mkdtempSync(join(tmpdir(), 'ctk-dashboard-'));
  try {
    const recorded = expressions.map(
      (expr, i) => `      - record: dashboard_${i}\n        expr: ${JSON.stringify(expr.replaceAll('$__rate_interval', '5m'))}`,
    );
    writeFileSync(join(dir, 'rules.yml'), `groups:\n  - name: dashboard\n    rules:\n${recorded.join('\n')}\n`);
    assert.match(execFileSync(PROMTOOL, ['check', 'rules', join(dir, 'rules.yml')], { encoding: 'utf8' }), /SUCCESS/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every ctk_ metric the rules and the dashboard name is one the apps serve', () => {
  const served = new Set([...readFileSync(DECISION, 'utf8').matchAll(/^\| `(ctk_[a-z_]+)` \|/gm)].map((match) => match[1]));
  assert.ok(served.size >= 10, 'the decision lists the metrics');
  const named = new Set(
    [...`${rules}\n${expressions.join('\n')}`.matchAll(/\bctk_[a-z_]+/g)].map((match) => match[0].replace(/_(bucket|sum|count)$/, '')),
  );
  for (const name of named) assert.ok(served.has(name), `${name} is not a metric the apps serve`);
});
