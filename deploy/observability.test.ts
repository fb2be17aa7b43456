import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';

// The observability side of deploy/: Prometheus's own checker (promtool, Debian's `prometheus`
// package) reads the alert rules and the scrape configuration; the compose profile's containers
// mount files that exist; Grafana's provisioning finds the dashboard and its data source; and the
// rendered k8s base tells Prometheus where every pod's /metrics is. Which metrics the dashboard and
// the rules ask for is held to what the processes expose in gateway/test/metrics.test.ts.

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

const promtool = (...args: string[]) => execFileSync('promtool', args, { encoding: 'utf8', stdio: 'pipe' });

describe('Prometheus', () => {
  test('promtool accepts the alert rules, which cover lag, parked events, outbox age, 5xx and shedding', () => {
    expect(promtool('check', 'rules', join(root, 'deploy/prometheus/alerts.yml'))).toMatch(/SUCCESS: \d+ rules found/);
    const rules = (
      parse(read('deploy/prometheus/alerts.yml')) as { groups: { rules: { alert: string; expr: string }[] }[] }
    ).groups.flatMap((g) => g.rules);
    const about = (metric: string) => rules.filter((r) => r.expr.includes(metric)).map((r) => r.alert);
    expect(about('earshot_event_consumer_lag')).not.toEqual([]);
    expect(about('earshot_events_parked')).not.toEqual([]);
    expect(about('earshot_outbox_oldest_unpublished_seconds')).not.toEqual([]);
    expect(about('status_class="5xx"')).not.toEqual([]);
    expect(about('earshot_http_requests_shed_total')).not.toEqual([]);
    for (const rule of rules) expect(rule.alert).toMatch(/^Earshot[A-Z]\w+$/);
  });

  test('promtool accepts the scrape configuration, with the rule file and the token file where the container has them', () => {
    const config = read('deploy/prometheus/prometheus.yml');
    const parsed = parse(config) as {
      rule_files: string[];
      scrape_configs: { authorization: { credentials_file: string }; dns_sd_configs: { names: string[] }[] }[];
    };
    const [scrape] = parsed.scrape_configs;
    const compose = parse(read('docker-compose.yml'), { merge: true }) as {
      services: Record<string, { image?: string; command?: string[]; volumes?: string[] }>;
    };
    // The paths the configuration names are where the compose service mounts or writes them.
    const prometheus = compose.services.prometheus!;
    expect(prometheus.volumes).toContain('./deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro');
    expect(parsed.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
    expect(prometheus.command!.join(' ')).toContain(`> ${scrape!.authorization.credentials_file}`);
    // Every Earshot process of the compose file is scraped.
    const scraped = scrape!.dns_sd_configs.flatMap((d) => d.names).sort();
    const earshot = Object.entries(compose.services)
      .filter(([, service]) => String(service.image).startsWith('earshot/'))
      .map(([name]) => name)
      .sort();
    expect(scraped).toEqual(earshot);

    // promtool checks the files a configuration names, so it gets them at paths of its own.
    const dir = mkdtempSync(join(tmpdir(), 'earshot-promtool-'));
    try {
      copyFileSync(join(root, 'deploy/prometheus/alerts.yml'), join(dir, 'alerts.yml'));
      writeFileSync(join(dir, 'metrics-token'), 'x'.repeat(40));
      writeFileSync(
        join(dir, 'prometheus.yml'),
        config
          .replaceAll('/etc/prometheus/alerts.yml', join(dir, 'alerts.yml'))
          .replaceAll(scrape!.authorization.credentials_file, join(dir, 'metrics-token')),
      );
      expect(promtool('check', 'config', join(dir, 'prometheus.yml'))).toMatch(/SUCCESS: .*valid prometheus config/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('docker-compose.yml, profile observability', () => {
  type Service = {
    image?: string;
    profiles?: string[];
    volumes?: string[];
    environment?: Record<string, string>;
  };
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
  const profiled = Object.entries(compose.services).filter(([, s]) => s.profiles?.includes('observability'));

  test('has a collector, Jaeger, Prometheus and Grafana, each only under the profile', () => {
    expect(profiled.map(([name]) => name).sort()).toEqual(['grafana', 'jaeger', 'otel-collector', 'prometheus']);
    for (const [, service] of profiled) expect(service.image).toMatch(/:[0-9v][\w.-]*$/);
  });

  test('every file a container mounts is in the repository', () => {
    const mounted = profiled.flatMap(([, s]) => s.volumes ?? []).filter((v) => v.startsWith('./'));
    expect(mounted.length).toBeGreaterThanOrEqual(5);
    for (const volume of mounted)
      expect([volume, existsSync(join(root, volume.split(':')[0]!))]).toEqual([volume, true]);
  });

  test('the collector hands spans to Jaeger; every Earshot process can be pointed at the collector and given the token', () => {
    const collector = parse(read('deploy/otel-collector/config.yml')) as {
      receivers: { otlp: { protocols: { http: { endpoint: string } } } };
      exporters: Record<string, { endpoint: string }>;
      service: { pipelines: { traces: { receivers: string[]; exporters: string[] } } };
    };
    expect(collector.receivers.otlp.protocols.http.endpoint).toMatch(/:4318$/);
    const [exporter] = collector.service.pipelines.traces.exporters;
    expect(collector.exporters[exporter!]!.endpoint).toBe('jaeger:4317');
    for (const [name, service] of Object.entries(compose.services)) {
      if (!String(service.image).startsWith('earshot/')) continue;
      expect([name, service.environment?.OTEL_EXPORTER_OTLP_ENDPOINT]).toEqual([
        name,
        '${OTEL_EXPORTER_OTLP_ENDPOINT:-}',
      ]);
      expect([name, service.environment?.METRICS_TOKEN]).toEqual([name, '${METRICS_TOKEN:-}']);
    }
  });
});

test('Grafana provisions the dashboard from the mounted folder, with the data source its panels name', () => {
  const datasources = parse(read('deploy/grafana/provisioning/datasources/prometheus.yml')) as {
    datasources: { uid: string; url: string }[];
  };
  const providers = parse(read('deploy/grafana/provisioning/dashboards/earshot.yml')) as {
    providers: { options: { path: string } }[];
  };
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: { grafana: { volumes: string[] } };
  };
  expect(compose.services.grafana.volumes).toContain(
    `./deploy/grafana/earshot-dashboard.json:${providers.providers[0]!.options.path}/earshot-dashboard.json:ro`,
  );
  expect(datasources.datasources[0]!.url).toBe('http://prometheus:9090');
  const dashboard = JSON.parse(read('deploy/grafana/earshot-dashboard.json')) as {
    panels: { type: string; datasource?: { uid: string }; targets?: { expr: string }[] }[];
  };
  const graphs = dashboard.panels.filter((p) => p.type !== 'row');
  expect(graphs.length).toBeGreaterThanOrEqual(15);
  for (const panel of graphs) {
    expect(panel.datasource?.uid).toBe(datasources.datasources[0]!.uid);
    expect(panel.targets?.length).toBeGreaterThan(0);
  }
});

test('kubectl kustomize k8s renders every Deployment with the scrape annotations and the optional token', () => {
  const rendered = execFileSync('kubectl', ['kustomize', join(root, 'k8s')], { encoding: 'utf8' });
  type Deployment = {
    kind: string;
    metadata: { name: string };
    spec: {
      template: {
        metadata: { annotations?: Record<string, string> };
        spec: { containers: { env?: { name: string; valueFrom?: { secretKeyRef?: { optional?: boolean } } }[] }[] };
      };
    };
  };
  const deployments = parseAllDocuments(rendered)
    .map((d) => d.toJS() as Deployment)
    .filter((d) => d.kind === 'Deployment');
  expect(deployments.length).toBeGreaterThanOrEqual(13);
  for (const { metadata, spec } of deployments) {
    expect([metadata.name, spec.template.metadata.annotations]).toEqual([
      metadata.name,
      { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '3000', 'prometheus.io/path': '/metrics' },
    ]);
    const token = spec.template.spec.containers[0]!.env?.find((e) => e.name === 'METRICS_TOKEN');
    expect([metadata.name, token?.valueFrom?.secretKeyRef?.optional]).toEqual([metadata.name, true]);
  }
});
