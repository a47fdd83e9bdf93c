/**
 * A per-day bar chart drawn by the server as inline SVG (no library, no script), and the same numbers as
 * an accessible table. The SVG has no style attribute (the pages' CSP allows styles from the one style
 * sheet only): its look comes from classes of pages.css and from geometry attributes.
 *
 * @module
 */
import { html, type Html } from './html.ts';

/** One UTC day of a series, as GET /stats lists it ("2026-11-21"). */
export interface DayCount {
  day: string;
  count: number;
}

export interface Series {
  /** A slug unique on the page ("downloads"): the ids of the chart's title and table. */
  id: string;
  /** What is counted, for the title ("Downloads"). */
  title: string;
  days: readonly DayCount[];
}

// The drawing area, in the viewBox's units; the SVG scales to the width of its card. On a narrow screen
// the labels are drawn at 26 units (pages.css), so the margins hold that size's line box: 20 units above
// the top label's middle, the day labels' baseline 9 units above the foot, and left of the axis the
// widest label's digits at 16 units each (issue 33: "20000" was cut off at 360 px with a fixed margin of 64).
const WIDTH = 640;
const HEIGHT = 220;
const RIGHT = 8;
const TOP = 20;
const BOTTOM = 34;
const DAY_BASELINE = HEIGHT - 9;
const DIGIT = 16;
const TICK_GAP = 6;

/** Room left of the y axis for labels up to `top`. */
const leftOf = (top: number): number => Math.max(48, TICK_GAP + 10 + DIGIT * String(top).length);

/** The top of the y axis: 1, 2 or 5 times a power of ten, at least the largest count (and at least 1). */
export function axisTop(max: number): number {
  if (max <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The largest count and its first day; null when every day is zero. */
function peakOf(days: readonly DayCount[]): DayCount | null {
  let peak: DayCount | null = null;
  for (const day of days) if (day.count > 0 && (peak === null || day.count > peak.count)) peak = day;
  return peak;
}

/** A sentence that says what the chart shows, for its accessible description. */
export function summaryOf(series: Series): string {
  const total = series.days.reduce((sum, d) => sum + d.count, 0);
  const first = series.days[0]?.day ?? '';
  const last = series.days.at(-1)?.day ?? '';
  const peak = peakOf(series.days);
  const most = peak ? `, most on ${peak.day} (${peak.count})` : '';
  return `${total} in ${series.days.length} days from ${first} to ${last}${most}.`;
}

/** The chart: one bar per day, the y axis from 0 to a round top, the first, middle and last day named. */
export function barChart(series: Series): Html {
  const { days } = series;
  const top = axisTop(Math.max(0, ...days.map((d) => d.count)));
  const LEFT = leftOf(top);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(1, days.length);
  const gap = slot >= 4 ? slot * 0.2 : 0;
  const bottom = TOP + plotHeight;
  const bars = days.map((d, i) => {
    if (d.count === 0) return '';
    const height = Math.max(1, (d.count / top) * plotHeight);
    return html`<rect class="bar" x="${round(LEFT + i * slot + gap / 2)}" y="${round(bottom - height)}" width="${round(slot - gap)}" height="${round(height)}"></rect>`;
  });
  const ticks = [0, top / 2, top].filter((v, i, all) => Number.isInteger(v) && all.indexOf(v) === i);
  const yAxis = ticks.map((value) => {
    const y = round(bottom - (value / top) * plotHeight);
    return html`<line class="grid" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y}" y2="${y}"></line><text class="tick" x="${LEFT - TICK_GAP}" y="${y}" text-anchor="end" dominant-baseline="middle">${value}</text>`;
  });
  const named = [...new Set([0, Math.floor((days.length - 1) / 2), days.length - 1])].filter((i) => i >= 0 && days[i]);
  const xAxis = named.map((i) => {
    const anchor = i === 0 ? 'start' : i === days.length - 1 ? 'end' : 'middle';
    const x = anchor === 'start' ? LEFT : anchor === 'end' ? WIDTH - RIGHT : round(LEFT + (i + 0.5) * slot);
    return html`<text class="tick${anchor === 'middle' ? ' middle' : ''}" x="${x}" y="${DAY_BASELINE}" text-anchor="${anchor}">${days[i]!.day}</text>`;
  });
  const empty = days.every((d) => d.count === 0)
    ? html`<text class="empty" x="${round(LEFT + plotWidth / 2)}" y="${round(TOP + plotHeight / 2)}" text-anchor="middle">None in this range</text>`
    : '';
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${series.id}-title ${series.id}-desc" focusable="false">
<title id="${series.id}-title">${series.title} per day</title>
<desc id="${series.id}-desc">${summaryOf(series)}</desc>
${yAxis}${bars}${empty}<line class="axis" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${bottom}" y2="${bottom}"></line>${xAxis}
</svg>`;
}

/** The chart's numbers as a table, one row per day; collapsed in <details> unless `open`. */
export function dayTable(series: Series, open: boolean): Html {
  const rows = series.days.map((d) => html`<tr><th scope="row"><time>${d.day}</time></th><td>${d.count}</td></tr>`);
  return html`<details class="numbers"${open ? html` open` : ''}><summary>${series.title} per day as a table</summary>
<table id="${series.id}-table"><caption>${series.title} per day (UTC)</caption>
<thead><tr><th scope="col">Day</th><th scope="col">${series.title}</th></tr></thead>
<tbody>${rows}</tbody></table></details>`;
}

/** A chart with its heading, total, table and what follows it (the sums by release...), in a card. */
export function chartCard(series: Series, total: number, openTable: boolean, after: Html): Html {
  return html`<section class="card" aria-labelledby="${series.id}-heading">
<h2 id="${series.id}-heading">${series.title} <span class="badge">${total} in all</span></h2>
${barChart(series)}
<div class="split">${dayTable(series, openTable)}${after}</div>
</section>`;
}
