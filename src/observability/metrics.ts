import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The service's Prometheus instruments, one registry per app (tests run several servers in one
 * process). Instruments only count and observe; what must be read from the store at scrape time is
 * registered by the /metrics route as collectors.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'om_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status code',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'om_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being written, by route pattern, method and status code',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });

  readonly verdicts = new Counter({
    name: 'om_moderation_verdicts_total',
    help: 'Recommendations of POST /v1/moderate (allow, review, reject)',
    labelNames: ['action'] as const,
    registers: [this.registry],
  });

  readonly policyFlags = new Counter({
    name: 'om_moderation_policy_flags_total',
    help: 'Policy results that flagged, by policy id',
    labelNames: ['policy'] as const,
    registers: [this.registry],
  });

  readonly policyErrors = new Counter({
    name: 'om_moderation_policy_errors_total',
    help: 'Errors entries of POST /v1/moderate (a policy that failed, content not analysed), by id',
    labelNames: ['id'] as const,
    registers: [this.registry],
  });

  readonly batchSize = new Histogram({
    name: 'om_group_commit_batch_size',
    help: 'Writes per group-commit batch of POST /v1/moderate',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 500],
    registers: [this.registry],
  });

  readonly batchWait = new Histogram({
    name: 'om_group_commit_wait_seconds',
    help: 'Longest time a write of the batch waited in the group-commit queue before the batch started',
    buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1],
    registers: [this.registry],
  });

  readonly batchFailures = new Counter({
    name: 'om_group_commit_batch_failures_total',
    help: 'Group-commit batches that failed and were split to isolate the failing write',
    registers: [this.registry],
  });

  readonly deliveryFailures = new Counter({
    name: 'om_outbox_delivery_failures_total',
    help: 'Outbox deliveries that failed (webhooks and timed jobs), by topic',
    labelNames: ['topic'] as const,
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'om_rate_limited_total',
    help: 'Requests refused with 429, by limit scope (key, project, quota)',
    labelNames: ['scope'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'om_' });
  }

  /** The group committer's observer. */
  readonly groupCommit = {
    batchStarted: (size: number, oldestQueuedAt: number) => {
      this.batchSize.observe(size);
      this.batchWait.observe((performance.now() - oldestQueuedAt) / 1000);
    },
    batchFailed: () => this.batchFailures.inc(),
  };

  /** A gauge whose value is read when Prometheus scrapes. */
  gauge(name: string, help: string, labelNames: readonly string[], collect: (set: (labels: Record<string, string>, value: number) => void) => Promise<void> | void): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        await collect((labels, value) => this.set(labels, value));
      },
    });
  }
}
