/**
 * One daily series drawn with uPlot: a line over the days of the range, UTC days on the x axis (the
 * days the figures are kept in), whole numbers on the y axis, the skin's colours. This module (and
 * uPlot with its stylesheet) is loaded only when the analytics page draws its charts.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { shortNumber } from '../../../common/rules/format';
import styles from './analytics.module.css';

const HEIGHT = 200;
const SECONDS_A_DAY = 86_400;
/** Whole-number steps for the y axis: 1, 2, 5, 10, 20, 50… */
const WHOLE_STEPS = Array.from({ length: 10 }, (_, power) => [1, 2, 5].map((step) => step * 10 ** power)).flat();

interface DailyChartProps {
  /** The series' name, shown in the hover legend. */
  name: string;
  /** What a screen reader is told the chart shows. */
  label: string;
  days: readonly string[];
  values: readonly number[];
  /** A skin colour variable, e.g. `--color-accent`. */
  color: string;
}

export function DailyChart({ name, label, days, values, color }: DailyChartProps) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const line = skinColor(element, color);
    const muted = skinColor(element, '--color-muted');
    const grid = skinColor(element, '--color-border');
    const xs = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
    const axis = { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const chart = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true, range: (_u, min, max) => (min === max ? [min - SECONDS_A_DAY, max + SECONDS_A_DAY] : [min, max]) }, y: { range: (_u, _min, max) => [0, Math.max(max, 4)] } },
        axes: [
          { ...axis, space: 60 },
          { ...axis, size: 48, incrs: WHOLE_STEPS, values: (_u, splits) => splits.map((value) => shortNumber(value)) },
        ],
        series: [
          { label: 'Day', value: (_u, ts) => (ts == null ? '–' : new Date(ts * 1000).toISOString().slice(0, 10)) },
          {
            label: name,
            stroke: line,
            width: 2,
            fill: withAlpha(line, 0.15),
            points: { show: days.length <= 62 },
            value: (_u, value) => (value == null ? '–' : value.toLocaleString('en-US')),
          },
        ],
      },
      [xs, [...values]],
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(element.clientWidth, 200), height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [name, days, values, color]);

  return <div ref={box} className={styles.chart} role="img" aria-label={label} />;
}

/** A skin colour as the canvas takes it (`rgb(…)`), read from the variable where the chart is drawn. */
function skinColor(element: HTMLElement, variable: string): string {
  const probe = document.createElement('span');
  probe.style.color = `var(${variable})`;
  element.appendChild(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color || 'currentColor';
}

/** `rgb(1, 2, 3)` → `rgba(1, 2, 3, alpha)`; anything else as it is. */
function withAlpha(color: string, alpha: number): string {
  const match = /^rgba?\(\s*([\d.]+)[ ,]+([\d.]+)[ ,]+([\d.]+)/.exec(color);
  return match ? `rgba(${match[1]}, ${match[2]}, ${match[3]}, ${alpha})` : color;
}
