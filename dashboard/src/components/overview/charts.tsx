import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatBucket, type OverviewPoint } from './use-overview.ts';

// One palette for every chart; verdict colours match the badges of the queue pages.
const SERIES_COLOURS = ['#1f4fd1', '#b42318', '#8a5300', '#5b32b4', '#116b3a', '#0b5c8a', '#c2410c', '#4d5766'];
export const VERDICT_COLOURS = { allow: '#116b3a', review: '#8a5300', reject: '#b42318' };
const HEIGHT = 240;
const count = (n: number) => n.toLocaleString('en');

/**
 * A bar that carries its bucket and value as data attributes, so what a chart drew can be read
 * back (and checked against the figures) from the SVG.
 */
function DataBar(props: { series?: string; x?: number; y?: number; width?: number; height?: number; fill?: string; value?: unknown; payload?: { t?: number; label?: string } }) {
  const value = Array.isArray(props.value) ? Number(props.value[1]) - Number(props.value[0]) : Number(props.value ?? 0);
  return (
    <rect
      x={props.x}
      y={props.y}
      width={Math.max(0, props.width ?? 0)}
      height={Math.max(0, props.height ?? 0)}
      fill={props.fill}
      className="chart-bar"
      data-series={props.series}
      data-key={props.payload?.t ?? props.payload?.label}
      data-value={value}
    />
  );
}

export function SubmissionsChart({ series, bucket }: { series: OverviewPoint[]; bucket: 'hour' | 'day' }) {
  const data = series.map((p) => ({ ...p, label: formatBucket(p.t, bucket) }));
  return (
    <div data-testid="chart-submissions" role="img" aria-label={`Submissions per ${bucket}`}>
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={16} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={48} tickFormatter={count} />
          <Tooltip formatter={(v) => count(Number(v))} />
          <Legend />
          <Bar dataKey="submissions" name="Submissions" fill={SERIES_COLOURS[0]} shape={(p: object) => <DataBar {...p} series="submissions" />} isAnimationActive={false} />
          <Bar dataKey="flagged" name="Flagged" fill={SERIES_COLOURS[1]} shape={(p: object) => <DataBar {...p} series="flagged" />} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function VerdictsChart({ series, bucket }: { series: OverviewPoint[]; bucket: 'hour' | 'day' }) {
  const data = series.map((p) => ({ ...p, label: formatBucket(p.t, bucket) }));
  return (
    <div data-testid="chart-verdicts" role="img" aria-label="Verdicts">
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={16} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={48} tickFormatter={count} />
          <Tooltip formatter={(v) => count(Number(v))} />
          <Legend />
          <Bar dataKey="allow" name="Allow" stackId="v" fill={VERDICT_COLOURS.allow} shape={(p: object) => <DataBar {...p} series="allow" />} isAnimationActive={false} />
          <Bar dataKey="review" name="Review" stackId="v" fill={VERDICT_COLOURS.review} shape={(p: object) => <DataBar {...p} series="review" />} isAnimationActive={false} />
          <Bar dataKey="reject" name="Reject" stackId="v" fill={VERDICT_COLOURS.reject} shape={(p: object) => <DataBar {...p} series="reject" />} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Share of the bucket's submissions each policy flagged, in percent. */
export function PolicyShareChart({ series, bucket, policies }: { series: OverviewPoint[]; bucket: 'hour' | 'day'; policies: string[] }) {
  const data = series.map((p) => {
    const row: Record<string, number | string | null> = { t: p.t, label: formatBucket(p.t, bucket) };
    // No submission, no share: a gap in the line rather than a fall to 0 %.
    for (const id of policies) row[id] = p.submissions > 0 ? Math.round(((p.policies[id] ?? 0) / p.submissions) * 1000) / 10 : null;
    return row;
  });
  return (
    <div data-testid="chart-policies" role="img" aria-label="Flagged share per policy">
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={16} />
          <YAxis tick={{ fontSize: 11 }} width={48} unit="%" domain={[0, 'auto']} />
          <Tooltip formatter={(v) => `${v} %`} />
          <Legend />
          {policies.map((id, i) => (
            <Line key={id} type="monotone" dataKey={id} name={id} stroke={SERIES_COLOURS[i % SERIES_COLOURS.length]} dot={false} strokeWidth={2} isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

export function CountBars({ data, testId, label, name, colour = SERIES_COLOURS[0] }: { data: { label: string; value: number }[]; testId: string; label: string; name: string; colour?: string }) {
  return (
    <div data-testid={testId} role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={8} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={48} tickFormatter={count} />
          <Tooltip formatter={(v) => count(Number(v))} />
          <Bar dataKey="value" name={name} fill={colour} shape={(p: object) => <DataBar {...p} series="value" />} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
