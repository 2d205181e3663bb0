// Renders every overlay with `kubectl kustomize` and checks the result: schema validity (kubernetes-models,
// and @kubernetes-models/prometheus-operator for the PodMonitor and the PrometheusRule, unknown fields included),
// container hardening, probes and their timings, secrets (every secret an app's config reads comes from a
// Secret), wiring, metrics (the port, the annotations, the PodMonitor's jobs, the PrometheusRule's rules equal to
// deploy/observability/alerts.yml), autoscaling and disruption budgets, and which ports the NetworkPolicies leave
// reachable; and that deploy/README.md documents the Secrets, the migrations, the operators and the scraping. The apps' config schemas are read from their builds (apps/<app>/dist): run `pnpm build` first.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BOOKS_CONSUMER, callsOf, COMMERCE_CONSUMER, PAYMENT_SUBJECTS_WILDCARD, PAYMENTS_STREAM, SERVICE_NAMES } from '@ctk/shared';
import { parse, parseAllDocuments } from 'yaml';

const DEPLOY_DIR = fileURLToPath(new URL('..', import.meta.url));
const KUBECTL = process.env.KUBECTL ?? 'kubectl';
// Every service of the registry (packages/shared/src/service/registry.ts) must have its base, image and policies.
const SERVICES = SERVICE_NAMES;
const APPS = ['gateway', ...SERVICES];
// Every overlay in overlays/ is rendered and checked, not only these two.
const OVERLAYS = readdirSync(new URL('../overlays', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
// The alerting rules the platform team loads (deploy/observability/), and the component's copy of them.
const ALERTS = parse(readFileSync(new URL('../observability/alerts.yml', import.meta.url), 'utf8'));
const PROMETHEUS_RULE = parse(readFileSync(new URL('../components/prometheus-operator/prometheus-rule.yaml', import.meta.url), 'utf8'));
/** Every app serves Prometheus's metrics on this port (METRICS_PORT), its container port `metrics`. */
const METRICS_PORT = 9464;
/** The namespace the cluster's Prometheus scrapes from (components/network-policies/allow-metrics-from-monitoring.yaml). */
const MONITORING_NAMESPACE = { 'kubernetes.io/metadata.name': 'monitoring' };

const probe = spawnSync(KUBECTL, ['version', '--client'], { encoding: 'utf8' });
const skip =
  probe.error || probe.status !== 0
    ? `"${KUBECTL}" not found or not working (${probe.error?.code ?? probe.stderr.trim()}): install kubectl >= 1.27 to run the manifest tests`
    : false;
if (skip) test('deploy manifests (kubectl kustomize)', { skip }, () => {});

const rendered = new Map();
function render(overlay) {
  if (!rendered.has(overlay)) {
    const out = execFileSync(KUBECTL, ['kustomize', `overlays/${overlay}`], { cwd: DEPLOY_DIR, encoding: 'utf8' });
    const objects = parseAllDocuments(out)
      .map((doc) => {
        if (doc.errors.length) throw doc.errors[0];
        return doc.toJS();
      })
      .filter(Boolean);
    rendered.set(overlay, objects);
  }
  return rendered.get(overlay);
}
const ofKind = (objs, kind) => objs.filter((o) => o.kind === kind);
const named = (objs, kind, name) => objs.find((o) => o.kind === kind && o.metadata.name === name);
const containersOf = (d) => [...(d.spec.template.spec.initContainers ?? []), ...d.spec.template.spec.containers];
const envVar = (c, name) => (c.env ?? []).find((e) => e.name === name);

// --- schema validation ------------------------------------------------------
// kubernetes-models validates each field its schema names, and ignores any other (a typo such as
// `livenesProbe` passes, and kubectl's strict field validation would refuse it only at apply time). So the
// validator runs on a proxy that records every field it reads: a field it never looked at is not in the
// schema. A map (labels, a ConfigMap's data) is read by listing its keys, which counts all of them as read.
function watchReads(value) {
  const nodes = [];
  const wrap = (v, path) => {
    if (v === null || typeof v !== 'object') return v;
    const node = { path, keys: Array.isArray(v) ? [] : Object.keys(v), read: new Set(), listed: false };
    nodes.push(node);
    const copy = Array.isArray(v)
      ? v.map((item, i) => wrap(item, `${path}[${i}]`))
      : Object.fromEntries(Object.entries(v).map(([key, item]) => [key, wrap(item, `${path}.${key}`)]));
    return new Proxy(copy, {
      get(target, key, receiver) {
        if (typeof key === 'string') node.read.add(key);
        return Reflect.get(target, key, receiver);
      },
      has(target, key) {
        if (typeof key === 'string') node.read.add(key);
        return Reflect.has(target, key);
      },
      ownKeys(target) {
        node.listed = true;
        return Reflect.ownKeys(target);
      },
    });
  };
  const proxy = wrap(value, '');
  const unread = () => {
    const paths = nodes.filter((n) => !n.listed).flatMap((n) => n.keys.filter((key) => !n.read.has(key)).map((key) => `${n.path}.${key}`));
    // Only the outermost unknown field: what lies under it was never read either.
    return paths.filter((path) => !paths.some((outer) => outer !== path && (path.startsWith(`${outer}.`) || path.startsWith(`${outer}[`))));
  };
  return { proxy, unread };
}

/** The model of `obj`'s kind, from the package that holds its schema: the Prometheus Operator's CRDs have their own. */
const modelOf = (obj) =>
  obj.apiVersion.startsWith('monitoring.coreos.com/')
    ? import(`@kubernetes-models/prometheus-operator/${obj.apiVersion}/${obj.kind}`)
    : import(`kubernetes-models/${obj.apiVersion}/${obj.kind}`);

/** What is wrong with `obj` by the Kubernetes schemas: no schema for its kind, an invalid value, a field the schema does not have. */
async function schemaProblems(obj) {
  const where = `${obj.kind}/${obj.metadata?.name}`;
  let Model;
  try {
    Model = (await modelOf(obj))[obj.kind];
  } catch (err) {
    return [`${where}: no schema for ${obj.apiVersion} ${obj.kind} (${err.code ?? err.message})`];
  }
  if (typeof Model?.prototype?.validate !== 'function') return [`${where}: no schema for ${obj.apiVersion} ${obj.kind}`];
  const { proxy, unread } = watchReads(obj);
  try {
    Model.prototype.validate.call(proxy);
  } catch (err) {
    return [`${where} is invalid: ${err.message}`];
  }
  return unread().map((path) => `${where}: unknown field ${path}`);
}

// --- what the apps read -----------------------------------------------------
/** The variables each app's config schema reads (its service definition's configSchema), by app. */
const appVariables = new Map();
async function variablesOf(app) {
  if (!appVariables.has(app)) {
    const built = new URL(`../../apps/${app}/dist/app.js`, import.meta.url);
    assert.ok(existsSync(built), `apps/${app}/dist/app.js is missing: run pnpm build first`);
    const { service } = await import(built.href);
    const schema = service.configSchema;
    // A z.object, or one piped into a transform (the gateway's).
    const shape = schema.shape ?? schema.in?.shape;
    assert.ok(shape, `${app}: cannot read the fields of its config schema`);
    appVariables.set(app, shape);
  }
  return appVariables.get(app);
}

// A variable holding a secret, by its name; the wallet pass variables go together, in one Secret.
const SECRET_VARIABLE = /^DATABASE_URL$|_(KEY|SECRET|PASSWORD|PASSPHRASE|TOKEN|CERT|CREDENTIALS?|SERVICE_ACCOUNT)$|^POS_(APPLE|GOOGLE)_/;
const NOT_SECRET = new Map([['CHAIN_STABLECOIN_COSIGNER_KEY', "the stablecoin cosigner's public key"]]);
const isSecretVariable = (name) => SECRET_VARIABLE.test(name) && !NOT_SECRET.has(name);

/**
 * Every Secret the manifests refer to, its keys (key → variable), and whether it is optional: a Secret is
 * optional where the app starts without it on a development default (a key it makes on first use and keeps
 * in its database, development passes, no API key). DATABASE_URL is not optional although the apps have a
 * default: in a pod the embedded database would be one per replica, on a read-only filesystem.
 */
const SECRETS = [
  ...APPS.map((app) => ({ name: `${app}-db`, keys: { url: 'DATABASE_URL' }, optional: false, readers: [app] })),
  { name: 'pos-keys', keys: { pay_link_key: 'POS_PAY_LINK_KEY', card_key: 'POS_CARD_KEY' }, optional: true },
  {
    name: 'pos-wallet-passes',
    keys: {
      apple_pass_cert: 'POS_APPLE_PASS_CERT',
      apple_pass_key: 'POS_APPLE_PASS_KEY',
      apple_pass_key_passphrase: 'POS_APPLE_PASS_KEY_PASSPHRASE',
      apple_wwdr_cert: 'POS_APPLE_WWDR_CERT',
      apple_pass_type_id: 'POS_APPLE_PASS_TYPE_ID',
      apple_team_id: 'POS_APPLE_TEAM_ID',
      google_service_account: 'POS_GOOGLE_SERVICE_ACCOUNT',
      google_issuer_id: 'POS_GOOGLE_ISSUER_ID',
    },
    optional: true,
  },
  { name: 'commerce-keys', keys: { secrets_key: 'COMMERCE_SECRETS_KEY' }, optional: true },
  { name: 'p2p-keys', keys: { gate_signing_key: 'P2P_GATE_SIGNING_KEY' }, optional: true },
  { name: 'federation-instance', keys: { key: 'FEDERATION_INSTANCE_KEY' }, optional: true },
  { name: 'chain-api', keys: { arc_api_key: 'CHAIN_ARC_API_KEY', woc_api_key: 'CHAIN_WOC_API_KEY' }, optional: true },
];
/** The Secret (and key) that gives `app` the variable `name`. */
function secretFor(app, name) {
  for (const secret of SECRETS) {
    if (secret.readers && !secret.readers.includes(app)) continue;
    const key = Object.keys(secret.keys).find((k) => secret.keys[k] === name);
    if (key) return { secret, key };
  }
  return undefined;
}
/** The apps whose config reads a variable of `secret`. */
async function readersOf(secret) {
  const readers = [];
  for (const app of secret.readers ?? APPS) {
    const variables = await variablesOf(app);
    if (Object.values(secret.keys).some((name) => name in variables)) readers.push(app);
  }
  return readers;
}

// --- probes -------------------------------------------------------------------
/** Migrations run before an app listens, one replica at a time under a lock: a start may take this long. */
const MIN_STARTUP_SECONDS = 300;
const failingFor = (p) => (p.initialDelaySeconds ?? 0) + (p.periodSeconds ?? 10) * (p.failureThreshold ?? 3);
const handlerOf = (p) => p.grpc ?? p.httpGet ?? p.tcpSocket ?? p.exec;

// --- a small NetworkPolicy evaluator (ingress only) -------------------------
// A source is anything outside the apps' namespace (EXTERNAL: another namespace or outside the cluster), a pod of
// the apps' namespace (pod), or a pod of another namespace with known labels (inNamespace). It over-approximates
// reachability where it cannot know (ipBlock; a namespaceSelector for EXTERNAL), so "not reachable" results are
// safe to rely on; a namespaceSelector is evaluated exactly for a source whose namespace's labels it knows.
function selects(selector = {}, labels = {}) {
  const okLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const okExprs = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    if (operator === 'In') return values.includes(labels[key]);
    if (operator === 'NotIn') return !values.includes(labels[key]);
    if (operator === 'Exists') return key in labels;
    if (operator === 'DoesNotExist') return !(key in labels);
    throw new Error(`unknown operator ${operator}`);
  });
  return okLabels && okExprs;
}
function peerAdmits(peer, source) {
  if (peer.ipBlock) return true;
  if (peer.namespaceSelector) {
    const namespaceSelected = !source.namespaceLabels || selects(peer.namespaceSelector, source.namespaceLabels);
    return namespaceSelected && (source.external || !peer.podSelector || selects(peer.podSelector, source.labels));
  }
  // A podSelector alone selects pods of the policy's own namespace, the apps'.
  return Boolean(source.sameNamespace) && selects(peer.podSelector, source.labels);
}
function portAdmits(ports, port) {
  if (!ports?.length) return true;
  return ports.some(
    (p) =>
      (p.protocol ?? 'TCP') === 'TCP' &&
      (p.port === undefined ||
        p.port === port.name ||
        (typeof p.port === 'number' && port.containerPort >= p.port && port.containerPort <= (p.endPort ?? p.port))),
  );
}
function ingressAllowed(policies, podLabels, port, source) {
  const applicable = policies.filter(
    (p) => (p.spec.policyTypes ?? ['Ingress']).includes('Ingress') && selects(p.spec.podSelector, podLabels),
  );
  if (applicable.length === 0) return true; // no policy isolates the pod
  return applicable.some((p) =>
    (p.spec.ingress ?? []).some(
      (rule) => (!rule.from?.length || rule.from.some((peer) => peerAdmits(peer, source))) && portAdmits(rule.ports, port),
    ),
  );
}
// Can `source` reach any port of the pods behind Service `svc`?
function serviceReachable(objs, svc, source) {
  const policies = ofKind(objs, 'NetworkPolicy');
  return ofKind(objs, 'Deployment')
    .filter((d) => selects({ matchLabels: svc.spec.selector }, d.spec.template.metadata.labels))
    .some((d) =>
      svc.spec.ports.some((sp) => {
        const port = d.spec.template.spec.containers
          .flatMap((c) => c.ports ?? [])
          .find((p) => p.name === sp.targetPort || p.containerPort === (sp.targetPort ?? sp.port));
        return port && ingressAllowed(policies, d.spec.template.metadata.labels, port, source);
      }),
    );
}
// Can `source` reach the container port named `portName` of `app`'s pods?
function portReachable(objs, app, portName, source) {
  const d = named(objs, 'Deployment', app);
  const port = d.spec.template.spec.containers.flatMap((c) => c.ports ?? []).find((p) => p.name === portName);
  assert.ok(port, `${app} has no container port ${portName}`);
  return ingressAllowed(ofKind(objs, 'NetworkPolicy'), d.spec.template.metadata.labels, port, source);
}
const EXTERNAL = { external: true };
// Whoever applies the manifests names the apps' namespace: any but the monitoring one, say deploy/README.md's.
const APPS_NAMESPACE = { 'kubernetes.io/metadata.name': 'commerce-toolkit' };
const pod = (app) => ({ sameNamespace: true, namespaceLabels: APPS_NAMESPACE, labels: { app } });
const inNamespace = (namespaceLabels, labels) => ({ namespaceLabels, labels });
const PROMETHEUS = inNamespace(MONITORING_NAMESPACE, { 'app.kubernetes.io/name': 'prometheus' });

// --- Prometheus's relabelling (replace, keep, drop), to check the jobs a scrape gives the apps ---------------
/** `labels` after Prometheus's `relabel_configs` (snake_case, as in a scrape config), or undefined when dropped. */
function relabel(labels, configs) {
  let out = { ...labels };
  for (const { source_labels = [], separator = ';', regex = '(.*)', target_label, replacement = '$1', action = 'replace' } of configs) {
    const value = source_labels.map((name) => out[name] ?? '').join(separator);
    const match = new RegExp(`^(?:${regex})$`).exec(value);
    if (action === 'keep' && !match) return undefined;
    if (action === 'drop' && match) return undefined;
    if (action === 'replace' && match) {
      const result = replacement.replace(/\$\{?(\w+)\}?/g, (_, group) => match[Number(group)] ?? '');
      if (result === '') delete out[target_label];
      else out = { ...out, [target_label]: result };
    }
    if (!['keep', 'drop', 'replace'].includes(action)) throw new Error(`relabel action ${action} is not simulated`);
  }
  return out;
}
/** The Prometheus Operator's relabelings (camelCase) as a scrape config's relabel_configs. */
const snakeCase = (relabelings = []) =>
  relabelings.map((r) =>
    Object.fromEntries(Object.entries(r).map(([key, value]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value])),
  );
/**
 * What Prometheus's kubernetes_sd (role pod) discovers for a pod of Deployment `d`: one target per container
 * port, with the pod's labels and annotations as meta labels (names sanitised as Prometheus does).
 */
function discoveredPodTargets(d, { namespace = 'commerce-toolkit', podIP = '10.1.2.3', podName = `${d.metadata.name}-0` } = {}) {
  const meta = (prefix, map = {}) =>
    Object.fromEntries(Object.entries(map).map(([k, v]) => [`${prefix}${k.replace(/[^a-zA-Z0-9_]/g, '_')}`, v]));
  const { metadata, spec } = d.spec.template;
  return spec.containers.flatMap((c) =>
    (c.ports ?? []).map((p) => ({
      __address__: `${podIP}:${p.containerPort}`,
      __meta_kubernetes_namespace: namespace,
      __meta_kubernetes_pod_name: podName,
      __meta_kubernetes_pod_container_name: c.name,
      __meta_kubernetes_pod_container_port_name: p.name ?? '',
      __meta_kubernetes_pod_container_port_number: String(p.containerPort),
      ...meta('__meta_kubernetes_pod_label_', metadata.labels),
      ...meta('__meta_kubernetes_pod_annotation_', metadata.annotations),
    })),
  );
}

// --- deploy/README.md -------------------------------------------------------------
/** The text of the README's `## <title>` section. */
function section(title) {
  const start = README.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `deploy/README.md has no "## ${title}" section`);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}
/** The shell commands of the README's sh blocks, continuation lines joined, with `for app in ...` loops expanded. */
function shellCommands(text) {
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].replace(/\\\n\s*/g, ' '));
  const commands = [];
  for (const block of blocks) {
    let loop;
    for (const line of block.split('\n')) {
      const forApp = line.match(/^\s*for app in ([\w ]+); do/);
      if (forApp) loop = forApp[1].trim().split(/\s+/);
      else if (/^\s*done\b/.test(line)) loop = undefined;
      else if (loop) commands.push(...loop.map((app) => line.replaceAll('$app', app)));
      else commands.push(line);
    }
  }
  return commands;
}

/** The YAML of the fenced yaml blocks of `text` (those in a list item unindented), parsed. */
function yamlBlocks(text) {
  return [...text.matchAll(/^( *)```yaml\n([\s\S]*?)^ *```/gm)].map(([, indent, body]) =>
    parse(body.replace(new RegExp(`^${indent}`, 'gm'), '')),
  );
}
/** The job regex deploy/observability/alerts.yml selects the apps' targets by (`up{job=~"ctk.*"}`). */
const ALERTS_JOB = new RegExp(
  `^(?:${ALERTS.groups
    .flatMap((g) => g.rules)
    .map((r) => /job=~"([^"]+)"/.exec(r.expr)?.[1])
    .find(Boolean)})$`,
);
/** The targets a scrape config's kubernetes_sd (role pod) makes of `d`'s pod: its final labels, __address__ and __metrics_path__. */
function scrapeTargets(scrapeConfig, d) {
  const targets = discoveredPodTargets(d)
    .map((meta) => relabel({ job: scrapeConfig.job_name, __metrics_path__: '/metrics', ...meta }, scrapeConfig.relabel_configs ?? []))
    .filter(Boolean)
    .map((labels) =>
      Object.fromEntries(
        Object.entries(labels).filter(([name]) => !name.startsWith('__') || ['__address__', '__metrics_path__'].includes(name)),
      ),
    );
  // Prometheus scrapes targets with the same labels once.
  return [...new Map(targets.map((t) => [JSON.stringify(Object.entries(t).sort()), t])).values()];
}

test('the schema check fails what it cannot vouch for: an unknown kind, an unknown field, a wrong value', async () => {
  const hpa = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'books', labels: { app: 'books' } },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'books' }, minReplicas: 2, maxReplicas: 5 },
  };
  assert.deepEqual(await schemaProblems(hpa), []);
  const stream = { apiVersion: 'jetstream.nats.io/v1beta2', kind: 'Stream', metadata: { name: 'ctk-payments' }, spec: {} };
  assert.match((await schemaProblems(stream)).join(), /no schema for jetstream\.nats\.io\/v1beta2 Stream/);
  assert.match((await schemaProblems({ ...hpa, apiVersion: 'autoscaling/v9' })).join(), /no schema/);
  const typo = { ...hpa, spec: { ...hpa.spec, minReplica: 2, behavior: { scaleDown: { stabilizationWindow: 60 } } } };
  assert.deepEqual(await schemaProblems(typo), [
    'HorizontalPodAutoscaler/books: unknown field .spec.minReplica',
    'HorizontalPodAutoscaler/books: unknown field .spec.behavior.scaleDown.stabilizationWindow',
  ]);
  assert.match((await schemaProblems({ ...hpa, spec: { ...hpa.spec, maxReplicas: '5' } })).join(), /is invalid: .*maxReplicas/);

  // The Prometheus Operator's kinds, by @kubernetes-models/prometheus-operator's schemas: not let through unchecked.
  const podMonitor = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PodMonitor',
    metadata: { name: 'ctk' },
    spec: { selector: { matchLabels: { app: 'books' } }, podMetricsEndpoints: [{ port: 'metrics', relabelings: [{ action: 'replace' }] }] },
  };
  assert.deepEqual(await schemaProblems(podMonitor), []);
  assert.deepEqual(await schemaProblems({ ...podMonitor, spec: { ...podMonitor.spec, podMetricEndpoints: [] } }), [
    'PodMonitor/ctk: unknown field .spec.podMetricEndpoints',
  ]);
  const badAction = {
    ...podMonitor,
    spec: { ...podMonitor.spec, podMetricsEndpoints: [{ port: 'metrics', relabelings: [{ action: 'rename' }] }] },
  };
  assert.match((await schemaProblems(badAction)).join(), /PodMonitor\/ctk is invalid: .*action/);
  const rule = { apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { name: 'ctk' }, spec: { groups: [] } };
  assert.deepEqual(
    await schemaProblems({ ...rule, spec: { groups: [{ name: 'g', rules: [{ alert: 'A', expr: 'up == 0', for: '2m' }] }] } }),
    [],
  );
  assert.match(
    (await schemaProblems({ ...rule, spec: { groups: [{ name: 'g', rules: [{ alert: 'A' }] }] } })).join(),
    /is invalid: .*expr/,
  );
  assert.match((await schemaProblems({ ...rule, apiVersion: 'monitoring.coreos.com/v9' })).join(), /no schema/);
});

test("the relabelling simulator does what Prometheus's replace, keep and drop do", () => {
  const labels = { __meta_kubernetes_pod_label_app: 'pos', __address__: '10.0.0.1:50051', job: 'x' };
  assert.deepEqual(relabel(labels, [{ source_labels: ['__meta_kubernetes_pod_label_app'], target_label: 'job', replacement: 'ctk-$1' }]), {
    ...labels,
    job: 'ctk-pos',
  });
  assert.equal(relabel(labels, [{ source_labels: ['__meta_kubernetes_pod_label_app'], regex: 'po', action: 'keep' }]), undefined);
  assert.equal(relabel(labels, [{ source_labels: ['job'], regex: 'x', action: 'drop' }]), undefined);
  const address = [
    { source_labels: ['__address__', 'port'], regex: '([^:]+)(?::\\d+)?;(\\d+)', replacement: '$1:$2', target_label: '__address__' },
  ];
  assert.equal(relabel({ ...labels, port: '9464' }, address).__address__, '10.0.0.1:9464');
  assert.equal(relabel(labels, address).__address__, '10.0.0.1:50051', 'no match, no change');
});

test("components/prometheus-operator's PrometheusRule carries the rules of deploy/observability/alerts.yml", () => {
  assert.ok(ALERTS.groups?.length > 0, 'alerts.yml has no groups');
  assert.deepEqual(
    PROMETHEUS_RULE.spec.groups,
    ALERTS.groups,
    'components/prometheus-operator/prometheus-rule.yaml is a copy of the groups of deploy/observability/alerts.yml: change both',
  );
});

test('overlays/dev and overlays/production are rendered and checked', () => {
  for (const overlay of ['dev', 'production']) assert.ok(OVERLAYS.includes(overlay), `overlays/${overlay} is missing`);
});

for (const overlay of skip ? [] : OVERLAYS) {
  describe(`overlay ${overlay}`, () => {
    test('every object validates against the Kubernetes schemas, with no field they do not know', async () => {
      const objs = render(overlay);
      assert.ok(objs.length > 0, 'rendered nothing');
      const problems = [];
      for (const obj of objs) problems.push(...(await schemaProblems(obj)));
      assert.deepEqual(problems, []);
    });

    test('one Deployment, Service and ServiceAccount per app', () => {
      const objs = render(overlay);
      for (const app of APPS) {
        for (const kind of ['Deployment', 'Service', 'ServiceAccount']) {
          assert.ok(named(objs, kind, app), `missing ${kind}/${app}`);
        }
        const d = named(objs, 'Deployment', app);
        assert.equal(d.spec.template.metadata.labels.app, app);
        assert.equal(d.spec.template.spec.serviceAccountName, app);
        const svc = named(objs, 'Service', app);
        assert.deepEqual(svc.spec.selector, { app });
        const portNames = d.spec.template.spec.containers.flatMap((c) => c.ports ?? []).map((p) => p.name);
        for (const sp of svc.spec.ports)
          assert.ok(portNames.includes(sp.targetPort), `Service/${app} targets unknown port ${sp.targetPort}`);
      }
    });

    test('containers are hardened and have requests and limits', () => {
      for (const d of ofKind(render(overlay), 'Deployment')) {
        const podSpec = d.spec.template.spec;
        const podSec = podSpec.securityContext ?? {};
        assert.equal(podSpec.automountServiceAccountToken, false, `${d.metadata.name}: token automount`);
        for (const c of containersOf(d)) {
          const where = `${d.metadata.name}/${c.name}`;
          const sec = c.securityContext ?? {};
          assert.equal(sec.runAsNonRoot ?? podSec.runAsNonRoot, true, `${where}: runAsNonRoot`);
          assert.ok((sec.runAsUser ?? podSec.runAsUser) > 0, `${where}: runAsUser must be non-zero`);
          assert.equal(sec.readOnlyRootFilesystem, true, `${where}: readOnlyRootFilesystem`);
          assert.equal(sec.allowPrivilegeEscalation, false, `${where}: allowPrivilegeEscalation`);
          assert.ok(sec.capabilities?.drop?.includes('ALL'), `${where}: must drop ALL capabilities`);
          assert.equal((sec.seccompProfile ?? podSec.seccompProfile)?.type, 'RuntimeDefault', `${where}: seccomp`);
          for (const key of ['requests', 'limits']) {
            assert.ok(c.resources?.[key]?.cpu && c.resources?.[key]?.memory, `${where}: resources.${key} cpu+memory`);
          }
          const tmp = (c.volumeMounts ?? []).find((m) => m.mountPath === '/tmp');
          assert.ok(tmp, `${where}: needs a writable /tmp`);
          assert.ok(podSpec.volumes.find((v) => v.name === tmp.name)?.emptyDir, `${where}: /tmp must be an emptyDir`);
        }
      }
    });

    test('gRPC services expose port "grpc" with native gRPC probes', () => {
      const objs = render(overlay);
      for (const app of SERVICES) {
        const [c] = named(objs, 'Deployment', app).spec.template.spec.containers;
        assert.deepEqual(c.ports.find((p) => p.name === 'grpc')?.containerPort, 50051, `${app}: grpc port`);
        for (const kind of ['startupProbe', 'readinessProbe', 'livenessProbe'])
          assert.deepEqual(c[kind]?.grpc, { port: 50051 }, `${app}: ${kind} must be the grpc probe on 50051`);
        assert.equal(envVar(c, 'GRPC_PORT')?.value, '50051');
        assert.deepEqual(envVar(c, 'DATABASE_URL')?.valueFrom?.secretKeyRef, { name: `${app}-db`, key: 'url' });
        assert.deepEqual(
          named(objs, 'Service', app).spec.ports.map((p) => [p.name, p.port]),
          [['grpc', 50051]],
        );
      }
    });

    test('every app exports traces where ctk-config says (OTEL_EXPORTER_OTLP_ENDPOINT; empty as shipped: none)', () => {
      const objs = render(overlay);
      const config = named(objs, 'ConfigMap', 'ctk-config');
      assert.equal(config.data.otel_exporter_otlp_endpoint, '', 'ctk-config: otel_exporter_otlp_endpoint');
      for (const app of APPS) {
        const [c] = named(objs, 'Deployment', app).spec.template.spec.containers;
        assert.deepEqual(
          envVar(c, 'OTEL_EXPORTER_OTLP_ENDPOINT')?.valueFrom?.configMapKeyRef,
          { name: 'ctk-config', key: 'otel_exporter_otlp_endpoint' },
          `${app}: OTEL_EXPORTER_OTLP_ENDPOINT`,
        );
      }
    });

    test('every app serves its metrics on port "metrics" (METRICS_PORT=9464, on its server\'s host), annotated for Prometheus', async () => {
      const objs = render(overlay);
      for (const app of APPS) {
        const d = named(objs, 'Deployment', app);
        const [c] = d.spec.template.spec.containers;
        assert.equal(envVar(c, 'METRICS_PORT')?.value, String(METRICS_PORT), `${app}: METRICS_PORT`);
        assert.equal((await variablesOf(app)).METRICS_PORT.parse(envVar(c, 'METRICS_PORT').value), METRICS_PORT, `${app}: reads it`);
        const ports = c.ports.filter((p) => p.containerPort === METRICS_PORT);
        assert.deepEqual(ports, [{ name: 'metrics', containerPort: METRICS_PORT }], `${app}: container port "metrics"`);
        // The listener binds where the app's server does: not on localhost, where Prometheus cannot reach it.
        assert.equal(envVar(c, app === 'gateway' ? 'HOST' : 'GRPC_HOST')?.value, '0.0.0.0', `${app}: its server's host`);
        assert.deepEqual(
          d.spec.template.metadata.annotations,
          { 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(METRICS_PORT), 'prometheus.io/path': '/metrics' },
          `${app}: pod annotations`,
        );
        // Prometheus scrapes the pods; no Service publishes the metrics.
        assert.ok(!named(objs, 'Service', app).spec.ports.some((p) => p.targetPort === 'metrics' || p.targetPort === METRICS_PORT));
      }
    });

    test('probe timings: a startup probe covers migrations, liveness is slower to act than readiness', () => {
      for (const d of ofKind(render(overlay), 'Deployment')) {
        const [c] = d.spec.template.spec.containers;
        const where = d.metadata.name;
        const { startupProbe: startup, readinessProbe: readiness, livenessProbe: liveness } = c;
        assert.ok(startup && readiness && liveness, `${where}: needs startup, readiness and liveness probes`);
        // The startup probe checks what liveness checks, for long enough to cover migrations and the wait for their lock.
        assert.deepEqual(handlerOf(startup), handlerOf(liveness), `${where}: the startup probe must check what liveness checks`);
        assert.ok(
          failingFor(startup) >= MIN_STARTUP_SECONDS,
          `${where}: startup allows ${failingFor(startup)} s, migrations need ${MIN_STARTUP_SECONDS}`,
        );
        assert.ok((startup.periodSeconds ?? 10) <= 10, `${where}: the startup probe should notice a started app within 10 s`);
        // With a startup probe, an initial delay only postpones noticing a hung pod.
        assert.equal(liveness.initialDelaySeconds ?? 0, 0, `${where}: liveness needs no initialDelaySeconds behind a startup probe`);
        assert.equal(readiness.initialDelaySeconds ?? 0, 0, `${where}: readiness needs no initialDelaySeconds behind a startup probe`);
        for (const [name, p] of Object.entries({ startup, readiness, liveness })) {
          assert.ok((p.timeoutSeconds ?? 1) >= 2, `${where}: ${name} timeout below 2 s fails on a busy node`);
          assert.ok((p.timeoutSeconds ?? 1) < (p.periodSeconds ?? 10), `${where}: ${name} timeout must be shorter than its period`);
        }
        assert.ok((readiness.periodSeconds ?? 10) <= 10, `${where}: readiness period above 10 s`);
        assert.ok((liveness.failureThreshold ?? 3) >= 3, `${where}: one or two slow answers must not restart the pod`);
        assert.ok(failingFor(liveness) >= 60, `${where}: liveness restarts after ${failingFor(liveness)} s of failing, under a minute`);
        assert.ok(failingFor(readiness) < failingFor(liveness), `${where}: a failing pod must leave its Service before it is restarted`);
      }
    });

    test("every container runs its image's bundle: node dist/server.js in /app (Dockerfile)", () => {
      const objs = render(overlay);
      for (const app of APPS) {
        const [c] = named(objs, 'Deployment', app).spec.template.spec.containers;
        assert.equal(c.workingDir, '/app', `${app}: workingDir`);
        assert.deepEqual(c.command, ['node', 'dist/server.js'], `${app}: command`);
      }
    });

    test('no migration Job: each app migrates at start (deploy/README.md, "Migrations")', () => {
      const kinds = render(overlay).map((o) => o.kind);
      assert.ok(!kinds.includes('Job') && !kinds.includes('CronJob'), 'a Job would run migrations the apps run themselves');
      assert.equal(ofKind(render(overlay), 'Deployment').filter((d) => d.spec.template.spec.initContainers?.length).length, 0);
    });

    test('gateway serves http on 8080 and points at every service', () => {
      const objs = render(overlay);
      const [c] = named(objs, 'Deployment', 'gateway').spec.template.spec.containers;
      assert.equal(c.ports.find((p) => p.name === 'http')?.containerPort, 8080);
      // Ready while its database answers; alive whatever the database does (an outage must not restart every pod).
      assert.deepEqual(c.readinessProbe?.httpGet, { path: '/readyz', port: 'http' });
      assert.deepEqual(c.livenessProbe?.httpGet, { path: '/healthz', port: 'http' });
      assert.deepEqual(c.startupProbe?.httpGet, { path: '/healthz', port: 'http' });
      // The back office's pages, in the folder the image carries them (scripts/bundle-app.mjs).
      assert.equal(envVar(c, 'CTK_BACK_OFFICE_DIR')?.value, '/app/back-office');
      assert.deepEqual(
        named(objs, 'Service', 'gateway').spec.ports.map((p) => [p.port, p.targetPort]),
        [[80, 'http']],
      );
      for (const app of SERVICES) {
        const url = envVar(c, `${app.toUpperCase()}_GRPC_URL`)?.value;
        assert.equal(url, `${app}:50051`);
        const [host, port] = url.split(':');
        assert.ok(
          named(objs, 'Service', host)?.spec.ports.some((p) => p.port === Number(port)),
          `${url} is not a rendered Service port`,
        );
      }
    });

    test('every ConfigMap reference resolves to a rendered key', () => {
      const objs = render(overlay);
      for (const d of ofKind(objs, 'Deployment')) {
        for (const e of containersOf(d).flatMap((c) => c.env ?? [])) {
          const ref = e.valueFrom?.configMapKeyRef;
          if (!ref) continue;
          assert.ok(
            named(objs, 'ConfigMap', ref.name)?.data?.[ref.key] !== undefined,
            `${d.metadata.name}: ${e.name} refers to missing ConfigMap key ${ref.name}/${ref.key}`,
          );
        }
      }
    });

    test('every secret an app reads comes from its Secret, optional only where the app has a default', async () => {
      const objs = render(overlay);
      for (const app of APPS) {
        const variables = await variablesOf(app);
        const [c] = named(objs, 'Deployment', app).spec.template.spec.containers;
        for (const name of Object.keys(variables).filter(isSecretVariable)) {
          const found = secretFor(app, name);
          assert.ok(found, `${app} reads ${name}, which no Secret of this test's SECRETS (nor deploy/README.md) gives it`);
          const expected = { name: found.secret.name, key: found.key, ...(found.secret.optional ? { optional: true } : {}) };
          assert.deepEqual(
            envVar(c, name)?.valueFrom?.secretKeyRef,
            expected,
            `${app}: ${name} must come from Secret ${found.secret.name}`,
          );
          if (found.secret.optional)
            assert.ok(variables[name].safeParse(undefined).success, `${app}: ${name} is optional here but the app requires it`);
        }
      }
      // Each Secret's variables are read by an app it is given to, and nothing else is taken from a Secret.
      for (const secret of SECRETS) assert.ok((await readersOf(secret)).length > 0, `no app reads Secret ${secret.name}`);
      for (const d of ofKind(objs, 'Deployment')) {
        for (const e of containersOf(d).flatMap((c) => c.env ?? [])) {
          const ref = e.valueFrom?.secretKeyRef;
          if (ref)
            assert.equal(
              secretFor(d.metadata.name, e.name)?.secret.name,
              ref.name,
              `${d.metadata.name}: ${e.name} from an unlisted Secret`,
            );
        }
      }
    });

    test('no secret is a literal or in a ConfigMap, and the manifests carry no Secret', () => {
      const objs = render(overlay);
      assert.deepEqual(
        ofKind(objs, 'Secret').map((s) => s.metadata.name),
        [],
        "Secrets are the platform team's (deploy/README.md)",
      );
      for (const d of ofKind(objs, 'Deployment')) {
        for (const c of containersOf(d)) {
          assert.equal(c.envFrom, undefined, `${d.metadata.name}: envFrom hides which variables come from where`);
          for (const e of c.env ?? []) {
            if (isSecretVariable(e.name))
              assert.ok(
                e.valueFrom?.secretKeyRef,
                `${d.metadata.name}: ${e.name} must come from a Secret, not ${JSON.stringify(e.value ?? e.valueFrom)}`,
              );
          }
        }
      }
      for (const cm of ofKind(objs, 'ConfigMap')) {
        for (const [key, value] of Object.entries(cm.data ?? {})) {
          assert.doesNotMatch(
            key,
            /key|secret|password|passphrase|token|cert|credential/i,
            `ConfigMap/${cm.metadata.name}: ${key} looks secret`,
          );
          assert.doesNotMatch(String(value), /\/\/[^/\s@]+:[^/\s@]+@/, `ConfigMap/${cm.metadata.name}: ${key} holds a URL with a password`);
        }
      }
    });

    test('every variable a Deployment sets is one its app reads', async () => {
      const objs = render(overlay);
      for (const app of APPS) {
        const variables = await variablesOf(app);
        const [c] = named(objs, 'Deployment', app).spec.template.spec.containers;
        const unread = (c.env ?? []).map((e) => e.name).filter((name) => !(name in variables));
        assert.deepEqual(unread, [], `${app} does not read these (a misspelt name, or one the app no longer has)`);
      }
    });

    test('network policies: only the gateway is reachable, services only from the gateway and the services that call them', () => {
      const objs = render(overlay);
      assert.ok(named(objs, 'NetworkPolicy', 'default-deny-ingress'), 'default deny policy missing');
      const reachable = ofKind(objs, 'Service')
        .filter((s) => serviceReachable(objs, s, EXTERNAL))
        .map((s) => s.metadata.name);
      assert.deepEqual(reachable, ['gateway'], 'Services reachable from outside the namespace');
      for (const app of SERVICES) {
        const svc = named(objs, 'Service', app);
        assert.ok(serviceReachable(objs, svc, pod('gateway')), `${app} must accept the gateway`);
        const callers = SERVICES.filter((caller) => callsOf(caller).includes(app));
        for (const caller of callers) assert.ok(serviceReachable(objs, svc, pod(caller)), `${app} must accept ${caller}, which calls it`);
        for (const other of ['intruder', ...SERVICES.filter((name) => !callers.includes(name))]) {
          assert.ok(!serviceReachable(objs, svc, pod(other)), `${app} must not accept pods labelled app=${other}`);
        }
      }
    });

    test("network policies: the monitoring namespace's Prometheus reaches every app's metrics port and nothing more", () => {
      const objs = render(overlay);
      const policy = named(objs, 'NetworkPolicy', 'allow-metrics-from-monitoring');
      assert.ok(policy, 'allow-metrics-from-monitoring missing');
      for (const d of ofKind(objs, 'Deployment'))
        assert.ok(selects(policy.spec.podSelector, d.spec.template.metadata.labels), `${d.metadata.name}: its metrics must be let in`);
      assert.ok(!selects(policy.spec.podSelector, { app: 'nats' }), 'only the apps: another pod of the namespace keeps its ports closed');
      const elsewhere = inNamespace({ 'kubernetes.io/metadata.name': 'default' }, { 'app.kubernetes.io/name': 'prometheus' });
      for (const app of APPS) {
        assert.ok(portReachable(objs, app, 'metrics', PROMETHEUS), `${app}: Prometheus in the monitoring namespace must scrape it`);
        assert.ok(!portReachable(objs, app, 'metrics', elsewhere), `${app}: metrics reachable from another namespace`);
        for (const source of ['gateway', 'intruder', ...SERVICES])
          assert.ok(!portReachable(objs, app, 'metrics', pod(source)), `${app}: metrics reachable from pods labelled app=${source}`);
      }
      // From the monitoring namespace: every metrics port, the gateway's public port as from anywhere, no gRPC port.
      for (const app of SERVICES) assert.ok(!portReachable(objs, app, 'grpc', PROMETHEUS), `${app}: gRPC reachable from monitoring`);
      const fromMonitoring = ofKind(objs, 'Deployment').flatMap((d) =>
        d.spec.template.spec.containers
          .flatMap((c) => c.ports ?? [])
          .filter((p) => portReachable(objs, d.metadata.name, p.name, PROMETHEUS))
          .map((p) => `${d.metadata.name}/${p.name}`),
      );
      assert.deepEqual(fromMonitoring.sort(), [...APPS.map((app) => `${app}/metrics`), 'gateway/http'].sort());
    });

    test("a Prometheus scraping by annotation (deploy/README.md's scrape config) scrapes each pod once, on its metrics port, as job ctk-<app>", () => {
      const objs = render(overlay);
      const config = yamlBlocks(section('Metrics and alerts')).find((block) => block?.scrape_configs);
      assert.ok(config, 'deploy/README.md, "Metrics and alerts": no scrape config');
      const [scrape] = config.scrape_configs;
      assert.deepEqual(
        scrape.kubernetes_sd_configs?.map((sd) => sd.role),
        ['pod'],
      );
      for (const d of ofKind(objs, 'Deployment')) {
        const app = d.metadata.name;
        assert.deepEqual(scrapeTargets(scrape, d), [
          {
            __address__: `10.1.2.3:${METRICS_PORT}`,
            __metrics_path__: '/metrics',
            job: `ctk-${app}`,
            namespace: 'commerce-toolkit',
            pod: `${app}-0`,
          },
        ]);
        assert.match(`ctk-${app}`, ALERTS_JOB, "the job is one the alerts' selector takes");
        // A pod without the annotation is not scraped.
        const unannotated = structuredClone(d);
        delete unannotated.spec.template.metadata.annotations;
        assert.deepEqual(scrapeTargets(scrape, unannotated), []);
      }
    });

    test('a service that calls others is given their addresses', () => {
      const objs = render(overlay);
      for (const app of SERVICES) {
        const [c] = named(objs, 'Deployment', app).spec.template.spec.containers;
        for (const callee of callsOf(app)) {
          assert.equal(envVar(c, `${callee.toUpperCase()}_GRPC_URL`)?.value, `${callee}:50051`, `${app} must be given ${callee}'s address`);
        }
      }
    });
  });
}

// Their schemas once dropped it: their events stayed in their outboxes, and commerce consumed none.
test('every app that emits or consumes events reads the NATS_URL it is given', async () => {
  for (const app of ['books', 'pos', 'commerce', 'p2p', 'contracts'])
    assert.ok('NATS_URL' in (await variablesOf(app)), `${app} does not read NATS_URL`);
});

if (!skip)
  describe('overlay-specific settings', () => {
    test('dev runs one replica of each app, stock images, and no autoscaler', () => {
      const objs = render('dev');
      for (const app of APPS) assert.equal(named(objs, 'Deployment', app).spec.replicas, 1, `${app}: replicas`);
      assert.deepEqual(ofKind(objs, 'HorizontalPodAutoscaler'), []);
      assert.deepEqual(ofKind(objs, 'PodDisruptionBudget'), []);
      for (const d of ofKind(objs, 'Deployment')) {
        assert.equal(d.spec.template.spec.containers[0].image, `commerce-toolkit/${d.metadata.name}:latest`);
      }
    });

    test('production autoscales every app from 2 replicas and lets disruptions take one pod at a time', () => {
      const objs = render('production');
      for (const app of APPS) {
        const d = named(objs, 'Deployment', app);
        assert.equal(d.spec.replicas, undefined, `${app}: the autoscaler owns the replica count`);
        const hpa = named(objs, 'HorizontalPodAutoscaler', app);
        assert.ok(hpa, `missing HorizontalPodAutoscaler/${app}`);
        assert.deepEqual(hpa.spec.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: app });
        assert.ok(hpa.spec.minReplicas >= 2, `${app}: at least 2 replicas in production`);
        assert.ok(hpa.spec.maxReplicas > hpa.spec.minReplicas, `${app}: room to scale`);
        const cpu = hpa.spec.metrics?.find((m) => m.type === 'Resource' && m.resource.name === 'cpu');
        assert.equal(cpu?.resource.target.type, 'Utilization', `${app}: scales on CPU utilization`);
        assert.ok(cpu.resource.target.averageUtilization >= 50 && cpu.resource.target.averageUtilization <= 90, `${app}: CPU target`);
        assert.ok(d.spec.template.spec.containers[0].resources.requests.cpu, `${app}: utilization needs a CPU request`);

        const pdb = named(objs, 'PodDisruptionBudget', app);
        assert.ok(pdb, `missing PodDisruptionBudget/${app}`);
        assert.deepEqual(pdb.spec.selector, { matchLabels: { app } });
        assert.ok(selects(pdb.spec.selector, d.spec.template.metadata.labels), `${app}: the budget must select the app's pods`);
        // One pod at a time whatever the replica count (minAvailable: 1 would let a drain take 9 of 10).
        assert.equal(pdb.spec.maxUnavailable, 1, `${app}: maxUnavailable`);
        assert.equal(pdb.spec.minAvailable, undefined, `${app}: minAvailable and maxUnavailable exclude each other`);
        assert.ok(pdb.spec.maxUnavailable < hpa.spec.minReplicas, `${app}: a pod stays up at the fewest replicas`);
        assert.equal(pdb.spec.unhealthyPodEvictionPolicy, 'AlwaysAllow', `${app}: a pod that is not ready must not block drains`);
      }
      assert.equal(named(objs, 'HorizontalPodAutoscaler', 'gateway').spec.maxReplicas, 10);
      // Nothing else: each autoscaler and budget is one app's.
      assert.deepEqual(
        ofKind(objs, 'HorizontalPodAutoscaler')
          .map((h) => h.metadata.name)
          .sort(),
        [...APPS].sort(),
      );
      assert.deepEqual(
        ofKind(objs, 'PodDisruptionBudget')
          .map((p) => p.metadata.name)
          .sort(),
        [...APPS].sort(),
      );
    });

    test('production scrapes every app through one PodMonitor, as job ctk-<app>, on port "metrics"', () => {
      const objs = render('production');
      const monitors = ofKind(objs, 'PodMonitor');
      assert.equal(monitors.length, 1, 'one PodMonitor');
      const [monitor] = monitors;
      assert.equal(monitor.apiVersion, 'monitoring.coreos.com/v1');
      const scraped = ofKind(objs, 'Deployment').filter((d) => selects(monitor.spec.selector, d.spec.template.metadata.labels));
      assert.deepEqual(scraped.map((d) => d.metadata.name).sort(), [...APPS].sort(), "the seven apps' pods");
      for (const other of ['nats', 'intruder']) assert.ok(!selects(monitor.spec.selector, { app: other }), `selects app=${other}`);
      assert.equal(monitor.spec.namespaceSelector, undefined, "its own namespace: the apps'");
      assert.equal(monitor.spec.podMetricsEndpoints.length, 1);
      const [endpoint] = monitor.spec.podMetricsEndpoints;
      assert.equal(endpoint.port, 'metrics');
      assert.equal(endpoint.path ?? '/metrics', '/metrics');
      for (const d of scraped) {
        const app = d.metadata.name;
        const target = discoveredPodTargets(d).find((t) => t.__meta_kubernetes_pod_container_port_name === endpoint.port);
        assert.ok(target, `${app} has no container port ${endpoint.port}`);
        assert.equal(target.__address__, `10.1.2.3:${METRICS_PORT}`);
        // The operator names the job <namespace>/<PodMonitor>; the endpoint's relabelings run after its own.
        const labels = relabel({ ...target, job: `commerce-toolkit/${monitor.metadata.name}` }, snakeCase(endpoint.relabelings));
        assert.equal(labels?.job, `ctk-${app}`, `${app}: job`);
        assert.match(labels.job, ALERTS_JOB, "the job is one the alerts' selector takes");
      }
    });

    test('production alerts with the rules of deploy/observability/alerts.yml, in one PrometheusRule', () => {
      const rules = ofKind(render('production'), 'PrometheusRule');
      assert.equal(rules.length, 1, 'one PrometheusRule');
      assert.deepEqual(rules[0].spec.groups, ALERTS.groups);
    });

    test('dev asks for no Prometheus Operator: neither PodMonitor nor PrometheusRule', () => {
      const kinds = render('dev').map((o) => o.kind);
      assert.ok(!kinds.includes('PodMonitor') && !kinds.includes('PrometheusRule'), 'a cluster without the CRDs would refuse them');
    });

    test('production pulls every image from the registry override', () => {
      for (const d of ofKind(render('production'), 'Deployment')) {
        assert.match(
          d.spec.template.spec.containers[0].image,
          new RegExp(`^registry\\.example\\.com/commerce-toolkit/${d.metadata.name}:`),
        );
      }
    });
  });

describe('deploy/README.md', () => {
  test('lists every Secret with its keys, variables, readers and whether it is optional', async () => {
    const rows = section('Secrets')
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    assert.deepEqual(rows.map(([name]) => name).sort(), SECRETS.map((s) => `\`${s.name}\``).sort(), 'one row per Secret');
    for (const secret of SECRETS) {
      const [, keys, readers, missing] = rows.find(([name]) => name === `\`${secret.name}\``);
      const pairs = [...keys.matchAll(/`(\w+)` → `(\w+)`/g)].map(([, key, name]) => [key, name]);
      assert.deepEqual(Object.fromEntries(pairs), secret.keys, `${secret.name}: keys and variables`);
      assert.deepEqual(readers.split(/,\s*/).sort(), (await readersOf(secret)).sort(), `${secret.name}: read by`);
      assert.match(missing, secret.optional ? /^optional/ : /^required/, `${secret.name}: optional or required`);
    }
  });

  test('shows how to create every Secret with all its keys', () => {
    const commands = shellCommands(section('Secrets'));
    for (const secret of SECRETS) {
      const command = commands.find((line) => new RegExp(`create secret generic "?${secret.name}"? `).test(line));
      assert.ok(command, `no kubectl create secret generic ${secret.name}`);
      const keys = [...command.matchAll(/--from-(?:literal|file)=(\w+)=/g)].map(([, key]) => key);
      assert.deepEqual(keys.sort(), Object.keys(secret.keys).sort(), `${secret.name}: keys created`);
    }
  });

  test('says why there is no migration Job', () => {
    const text = section('Migrations');
    for (const phrase of [
      'no migration Job',
      'advisory lock',
      'one transaction',
      'packages/shared/src/db/migrate.ts',
      'docs/decisions/0002-migrations.md',
    ])
      assert.ok(text.includes(phrase), `"Migrations" must say: ${phrase}`);
  });

  test('says how the apps are scraped and where the alerts are, and how to let another namespace scrape them', () => {
    const text = section('Metrics and alerts');
    for (const phrase of [
      'deploy/observability/',
      'docs/decisions/0042-metrics.md',
      'METRICS_PORT',
      String(METRICS_PORT),
      'components/prometheus-operator/',
      'PodMonitor',
      'PrometheusRule',
      'ctk-<app>',
      'prometheus.io/scrape',
      'kubernetes.io/metadata.name: monitoring',
      'allow-metrics-from-monitoring',
    ])
      assert.ok(text.includes(phrase), `"Metrics and alerts" must say: ${phrase}`);
    // The patch it shows for another namespace replaces what the policy has at that path.
    const policy = parse(
      readFileSync(new URL('../components/network-policies/allow-metrics-from-monitoring.yaml', import.meta.url), 'utf8'),
    );
    const patch = yamlBlocks(text)
      .flatMap((block) => block?.patches ?? [])
      .find((p) => p.target?.kind === 'NetworkPolicy' && p.target?.name === policy.metadata.name);
    assert.ok(patch, `no patch of NetworkPolicy ${policy.metadata.name}`);
    for (const op of parse(patch.patch)) {
      const at = op.path
        .split('/')
        .slice(1)
        .reduce((node, key) => node?.[key], policy);
      assert.deepEqual(at, MONITORING_NAMESPACE, `${op.path} is not the policy's namespace selector`);
      assert.equal(op.op, 'replace');
      assert.ok(op.value['kubernetes.io/metadata.name'], 'the patch names a namespace');
    }
  });

  test('names the operators for PostgreSQL and NATS, and what the apps set up in JetStream themselves', () => {
    const text = section('PostgreSQL and NATS');
    for (const phrase of ['CloudNativePG', 'PGO', 'NATS Helm chart', 'NACK', 'jetstream.enabled=true', 'fileStore.pvc'])
      assert.ok(text.includes(phrase), `"PostgreSQL and NATS" must name ${phrase}`);
    for (const name of [PAYMENTS_STREAM, PAYMENT_SUBJECTS_WILDCARD, BOOKS_CONSUMER, COMMERCE_CONSUMER])
      assert.ok(text.includes(`\`${name}\``), `"PostgreSQL and NATS" must name ${name}, as the apps create it`);
  });
});
