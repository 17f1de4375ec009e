/**
 * A small SVG line chart, written by hand so the bench needs no tool: the backlog drain as
 * commands terminal against seconds, one polyline per series, axes with round ticks, a legend.
 */

export interface Series {
  label: string;
  color: string;
  points: ReadonlyArray<readonly [number, number]>;
  dashed?: boolean;
}

export interface ChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  width?: number;
  height?: number;
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A "nice" tick step (1, 2 or 5 × 10^n) giving about `count` ticks over `span`. */
export function niceStep(span: number, count = 6): number {
  if (!(span > 0)) return 1;
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const normalized = raw / magnitude;
  const nice = normalized <= 1 ? 1 : normalized <= 2 ? 2 : normalized <= 5 ? 5 : 10;
  return nice * magnitude;
}

/** Thins a curve to at most `max` points, keeping the first and the last. */
function thin(points: ReadonlyArray<readonly [number, number]>, max = 400): Array<readonly [number, number]> {
  if (points.length <= max) return [...points];
  const step = (points.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => points[Math.round(i * step)] as readonly [number, number]);
}

export function lineChartSvg(series: readonly Series[], options: ChartOptions): string {
  const width = options.width ?? 760;
  const height = options.height ?? 420;
  const m = { left: 70, right: 20, top: 40, bottom: 80 };
  const all = series.flatMap((s) => s.points);
  const xMax = Math.max(1, ...all.map((p) => p[0]));
  const yMax = Math.max(1, ...all.map((p) => p[1]));
  const xStep = niceStep(xMax);
  const yStep = niceStep(yMax);
  const xTop = Math.ceil(xMax / xStep) * xStep;
  const yTop = Math.ceil(yMax / yStep) * yStep;
  const plotW = width - m.left - m.right;
  const plotH = height - m.top - m.bottom;
  const x = (v: number) => m.left + (v / xTop) * plotW;
  const y = (v: number) => m.top + plotH - (v / yTop) * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(options.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15">${escapeXml(options.title)}</text>`,
  ];
  for (let v = 0; v <= xTop + 1e-9; v += xStep) {
    out.push(
      `<line x1="${x(v)}" y1="${m.top}" x2="${x(v)}" y2="${m.top + plotH}" stroke="#eee"/>`,
      `<text x="${x(v)}" y="${m.top + plotH + 16}" text-anchor="middle">${+v.toFixed(3)}</text>`,
    );
  }
  for (let v = 0; v <= yTop + 1e-9; v += yStep) {
    out.push(
      `<line x1="${m.left}" y1="${y(v)}" x2="${m.left + plotW}" y2="${y(v)}" stroke="#eee"/>`,
      `<text x="${m.left - 6}" y="${y(v) + 4}" text-anchor="end">${+v.toFixed(3)}</text>`,
    );
  }
  out.push(
    `<rect x="${m.left}" y="${m.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#444"/>`,
    `<text x="${m.left + plotW / 2}" y="${m.top + plotH + 36}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`,
    `<text transform="translate(18 ${m.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escapeXml(options.yLabel)}</text>`,
  );
  series.forEach((s, i) => {
    const pts = thin(s.points)
      .map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`)
      .join(' ');
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : '';
    out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2"${dash} points="${pts}"/>`);
    const lx = m.left + 10 + i * Math.floor(plotW / Math.max(1, series.length));
    const ly = height - 18;
    out.push(
      `<line x1="${lx}" y1="${ly - 4}" x2="${lx + 24}" y2="${ly - 4}" stroke="${s.color}" stroke-width="2"${dash}/>`,
      `<text x="${lx + 30}" y="${ly}">${escapeXml(s.label)}</text>`,
    );
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
