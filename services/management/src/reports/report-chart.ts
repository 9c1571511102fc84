import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import type { ChartConfiguration } from 'chart.js' with { 'resolution-mode': 'import' };
import type { ReportDay } from './monthly-report';

/**
 * The per-day chart of the monthly report e-mail as a PNG, drawn server-side by Chart.js on a
 * Skia canvas (@napi-rs/canvas, whose prebuilt binary comes inside a registry package). The font
 * ships with the code (Inter, from @expo-google-fonts/inter) so the image looks the same on a
 * machine without fonts. Why these libraries: docs/reports.md.
 */

export const CHART_WIDTH = 600;
export const CHART_HEIGHT = 260;
/** Drawn at twice the size it is shown at, so it stays sharp on high-density screens. */
const SCALE = 2;
const FONT_FAMILY = 'Inter';
export const CHART_COLOURS = { calls: '#c7d2fe', answered: '#4338ca', grid: '#e5e7eb', text: '#4b5563' };

type ChartJs = typeof import('chart.js', { with: { 'resolution-mode': 'import' } });

let chartJs: ChartJs | undefined;

/** Chart.js's CommonJS build, loaded once, with the font registered. */
function prepare(): ChartJs {
  if (chartJs !== undefined) return chartJs;
  const require = createRequire(__filename);
  for (const weight of ['400Regular/Inter_400Regular.ttf', '600SemiBold/Inter_600SemiBold.ttf']) {
    GlobalFonts.registerFromPath(require.resolve(`@expo-google-fonts/inter/${weight}`), FONT_FAMILY);
  }
  const loaded = require('chart.js') as ChartJs;
  loaded.Chart.register(...loaded.registerables);
  loaded.Chart.defaults.font.family = FONT_FAMILY;
  chartJs = loaded;
  return loaded;
}

/** Calls and answered calls per local day: answered drawn inside the day's calls. */
export function renderDailyChart(days: readonly ReportDay[]): Buffer {
  const { Chart } = prepare();
  const canvas = createCanvas(CHART_WIDTH, CHART_HEIGHT);
  const configuration: ChartConfiguration<'bar'> = {
    type: 'bar',
    data: {
      labels: days.map((day) => String(Number(day.date.slice(8)))),
      datasets: [
        {
          label: 'Answered',
          data: days.map((day) => day.answered),
          backgroundColor: CHART_COLOURS.answered,
          borderRadius: 2,
          grouped: false,
          order: 1,
          barPercentage: 0.55,
        },
        {
          label: 'Calls',
          data: days.map((day) => day.calls),
          backgroundColor: CHART_COLOURS.calls,
          borderRadius: 2,
          grouped: false,
          order: 2,
          barPercentage: 0.8,
        },
      ],
    },
    options: {
      responsive: false,
      animation: false,
      devicePixelRatio: SCALE,
      layout: { padding: { top: 4, right: 8, bottom: 0, left: 0 } },
      plugins: {
        legend: {
          position: 'top',
          align: 'end',
          reverse: true,
          labels: { boxWidth: 12, boxHeight: 12, color: CHART_COLOURS.text, font: { size: 13 } },
        },
        tooltip: { enabled: false },
      },
      scales: {
        x: {
          grid: { display: false },
          ticks: { color: CHART_COLOURS.text, font: { size: 11 }, maxRotation: 0, autoSkip: false },
          border: { color: CHART_COLOURS.grid },
        },
        y: {
          beginAtZero: true,
          suggestedMax: 4,
          grid: { color: CHART_COLOURS.grid },
          border: { display: false },
          ticks: { color: CHART_COLOURS.text, font: { size: 12 }, precision: 0, maxTicksLimit: 6 },
        },
      },
    },
  };
  // Chart.js draws through the 2D context; without a DOM it uses its basic platform, and the
  // canvas is given in CSS pixels and enlarged to CSS pixels × devicePixelRatio.
  const chart = new Chart(canvas.getContext('2d') as never, configuration);
  try {
    return canvas.toBuffer('image/png');
  } finally {
    chart.destroy();
  }
}
