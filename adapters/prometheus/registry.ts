/**
 * A small Prometheus registry: counters, gauges and histograms with pre-resolved label sets, written in the
 * text exposition format 0.0.4 (what prom-client writes). Web-standard code only, so the same registry
 * serves on Node, Deno and Bun.
 *
 * @module
 */

/** Label names and values of one series, in a fixed order. */
export type Labels = Readonly<Record<string, string>>;

/** Escapes a label value: backslash, double quote and line feed. */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** `{name="value",...}`, or empty for no labels. */
export function labelText(labels: Labels): string {
  const pairs = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabel(value)}"`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

/** A number as Prometheus writes it. */
function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  /** The sample lines, read when scraped. */
  lines(): string[];
}

/** A monotonically increasing count (one series, no labels). */
export interface Counter {
  /** Adds `amount`, 1 by default. */
  inc(amount?: number): void;
}

/** A histogram series with its label set resolved once: observing costs a bucket search and two additions. */
export interface HistogramSeries {
  observe(value: number): void;
}

export interface Histogram {
  /** The series of a label set, created on first use; keep it to observe without resolving labels again. */
  series(labels: Labels): HistogramSeries;
}

/** A metrics registry and its text exposition. */
export interface Registry {
  counter(name: string, help: string): Counter;
  /**
   * A metric whose value is read when scraped (one series per label set the reader returns): a gauge, or
   * a counter kept elsewhere (the process's CPU time).
   */
  gauge(name: string, help: string, read: () => readonly (readonly [Labels, number])[], type?: 'gauge' | 'counter'): void;
  histogram(name: string, help: string, buckets: readonly number[]): Histogram;
  /** The text exposition of every metric, in registration order. */
  render(): string;
}

/** The Content-Type of the text exposition format. */
export const EXPOSITION_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Creates an empty registry. */
export function createRegistry(): Registry {
  const families: Family[] = [];
  const add = (family: Family) => {
    if (families.some((f) => f.name === family.name)) throw new Error(`metric ${family.name} is registered twice`);
    families.push(family);
  };

  return {
    counter(name, help) {
      // There from the start, at 0: a rate over it works before the first event.
      let value = 0;
      add({ name, help, type: 'counter', lines: () => [`${name} ${formatValue(value)}`] });
      return {
        inc(amount = 1) {
          value += amount;
        },
      };
    },

    gauge(name, help, read, type = 'gauge') {
      add({ name, help, type, lines: () => read().map(([labels, value]) => `${name}${labelText(labels)} ${formatValue(value)}`) });
    },

    histogram(name, help, buckets) {
      const bounds = [...buckets].sort((a, b) => a - b);
      const all = new Map<string, { counts: number[]; sum: number; count: number }>();
      add({
        name,
        help,
        type: 'histogram',
        lines: () =>
          [...all].flatMap(([labels, data]) => {
            const inner = labels === '' ? '' : `${labels.slice(1, -1)},`;
            let cumulative = 0;
            const bucketLines = bounds.map((bound, i) => {
              cumulative += data.counts[i]!;
              return `${name}_bucket{${inner}le="${formatValue(bound)}"} ${cumulative}`;
            });
            return [
              ...bucketLines,
              `${name}_bucket{${inner}le="+Inf"} ${data.count}`,
              `${name}_sum${labels} ${formatValue(data.sum)}`,
              `${name}_count${labels} ${data.count}`,
            ];
          }),
      });
      return {
        series(labels) {
          const key = labelText(labels);
          let data = all.get(key);
          if (!data) all.set(key, data = { counts: bounds.map(() => 0), sum: 0, count: 0 });
          const target = data;
          return {
            observe(value) {
              let i = 0;
              while (i < bounds.length && value > bounds[i]!) i++;
              if (i < bounds.length) target.counts[i]!++;
              target.sum += value;
              target.count++;
            },
          };
        },
      };
    },

    render() {
      return families
        .map((f) => [`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`, ...f.lines()].join('\n'))
        .join('\n\n')
        .concat('\n');
    },
  };
}
