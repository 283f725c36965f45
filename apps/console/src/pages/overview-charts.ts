// The overview's charts, on uPlot (about 20 KB gzipped with its style). This module is imported
// dynamically by the overview page only, so uPlot is a chunk of its own and the console's first load
// (index.html's script and style) does not grow with it.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { OverviewDay } from '@platform/contracts/views';

export const SERIES: Array<{ key: 'sent' | 'delivered' | 'read' | 'failed' | 'pending'; label: string; colour: string }> = [
  { key: 'read', label: 'Read', colour: '#1a7f37' },
  { key: 'delivered', label: 'Delivered', colour: '#0969da' },
  { key: 'sent', label: 'Sent', colour: '#8250df' },
  { key: 'failed', label: 'Failed', colour: '#cf222e' },
  { key: 'pending', label: 'Pending', colour: '#6e7781' },
];

/** Draws messages per day by status into `el` (carousels or replies); returns the chart's destroy. */
export function drawDays(el: HTMLElement, days: OverviewDay[], of: 'carousels' | 'replies'): () => void {
  const x = days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000);
  const data: uPlot.AlignedData = [x, ...SERIES.map((s) => days.map((d) => d[of][s.key]))];
  const width = () => Math.max(280, el.clientWidth);
  const chart = new uPlot(
    {
      width: width(),
      height: 240,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { x: { time: true } },
      axes: [{}, { size: 56 }],
      series: [{ label: 'Day (UTC)', value: '{YYYY}-{MM}-{DD}' }, ...SERIES.map((s) => ({ label: s.label, stroke: s.colour, width: 2, points: { show: days.length <= 31 } }))],
    },
    data,
    el,
  );
  const resize = new ResizeObserver(() => chart.setSize({ width: width(), height: 240 }));
  resize.observe(el);
  return () => {
    resize.disconnect();
    chart.destroy();
  };
}
