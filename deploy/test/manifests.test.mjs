// Renders every overlay with `kubectl kustomize` and checks the result:
// schema validity (kubernetes-models), container hardening, probes, wiring,
// and which Services the NetworkPolicies leave reachable.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { callsOf, SERVICE_NAMES } from '@ctk/shared';
import { parseAllDocuments } from 'yaml';

const DEPLOY_DIR = fileURLToPath(new URL('..', import.meta.url));
const KUBECTL = process.env.KUBECTL ?? 'kubectl';
// Every service of the registry (packages/shared/src/service/registry.ts) must have its base, image and policies.
const SERVICES = SERVICE_NAMES;
const OVERLAYS = ['dev', 'production'];

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

// --- a small NetworkPolicy evaluator (ingress only, one namespace) ---------
// It over-approximates reachability where it cannot know (ipBlock,
// namespaceSelector), so "not reachable" results are safe to rely on.
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
  if (peer.namespaceSelector) return source.external || !peer.podSelector || selects(peer.podSelector, source.labels);
  return !source.external && selects(peer.podSelector, source.labels);
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
const EXTERNAL = { external: true };
const pod = (app) => ({ external: false, labels: { app } });

for (const overlay of skip ? [] : OVERLAYS) {
  describe(`overlay ${overlay}`, () => {
    test('every object validates against the Kubernetes schemas', async () => {
      const objs = render(overlay);
      assert.ok(objs.length > 0, 'rendered nothing');
      for (const obj of objs) {
        const where = `${obj.kind}/${obj.metadata?.name}`;
        let Model;
        try {
          Model = (await import(`kubernetes-models/${obj.apiVersion}/${obj.kind}`))[obj.kind];
        } catch (err) {
          assert.fail(`${where}: no schema for ${obj.apiVersion} ${obj.kind} (${err.message})`);
        }
        assert.doesNotThrow(() => new Model(obj).validate(), `${where} is invalid`);
      }
    });

    test('one Deployment, Service and ServiceAccount per app', () => {
      const objs = render(overlay);
      for (const app of ['gateway', ...SERVICES]) {
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
        assert.equal(c.readinessProbe?.grpc?.port, 50051, `${app}: grpc readiness probe`);
        assert.equal(c.livenessProbe?.grpc?.port, 50051, `${app}: grpc liveness probe`);
        assert.equal(envVar(c, 'GRPC_PORT')?.value, '50051');
        assert.deepEqual(envVar(c, 'DATABASE_URL')?.valueFrom?.secretKeyRef, { name: `${app}-db`, key: 'url' });
        assert.deepEqual(
          named(objs, 'Service', app).spec.ports.map((p) => [p.name, p.port]),
          [['grpc', 50051]],
        );
      }
    });

    test("every container runs its image's bundle: node dist/server.js in /app (Dockerfile)", () => {
      const objs = render(overlay);
      for (const app of ['gateway', ...SERVICES]) {
        const [c] = named(objs, 'Deployment', app).spec.template.spec.containers;
        assert.equal(c.workingDir, '/app', `${app}: workingDir`);
        assert.deepEqual(c.command, ['node', 'dist/server.js'], `${app}: command`);
      }
    });

    test('gateway serves http on 8080 and points at every service', () => {
      const objs = render(overlay);
      const [c] = named(objs, 'Deployment', 'gateway').spec.template.spec.containers;
      assert.equal(c.ports.find((p) => p.name === 'http')?.containerPort, 8080);
      assert.equal(c.readinessProbe?.httpGet?.path, '/readyz');
      assert.equal(c.livenessProbe?.httpGet?.path, '/healthz');
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

if (!skip)
  describe('overlay-specific settings', () => {
    test('dev runs one gateway replica and stock images', () => {
      const objs = render('dev');
      assert.equal(named(objs, 'Deployment', 'gateway').spec.replicas, 1);
      for (const d of ofKind(objs, 'Deployment')) {
        assert.equal(d.spec.template.spec.containers[0].image, `commerce-toolkit/${d.metadata.name}:latest`);
      }
    });

    test('production autoscales the gateway and protects it from disruption', () => {
      const objs = render('production');
      assert.equal(named(objs, 'Deployment', 'gateway').spec.replicas, undefined, 'the autoscaler owns the replica count');
      for (const app of SERVICES) assert.equal(named(objs, 'Deployment', app).spec.replicas, 1);
      const hpa = named(objs, 'HorizontalPodAutoscaler', 'gateway');
      assert.deepEqual(hpa?.spec.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'gateway' });
      assert.equal(hpa.spec.minReplicas, 2);
      assert.equal(hpa.spec.maxReplicas, 10);
      assert.equal(hpa.spec.metrics[0].resource.target.averageUtilization, 70);
      const pdb = named(objs, 'PodDisruptionBudget', 'gateway');
      assert.equal(pdb?.spec.minAvailable, 1);
      assert.deepEqual(pdb.spec.selector.matchLabels, { app: 'gateway' });
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
