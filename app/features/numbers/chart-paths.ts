/**
 * The price-history chart's SVG paths, computed on the server (issue 30): the page ships strings, no chart code.
 * Amounts are bigint wei, scaled with bigint math so 18-decimal prices keep their order on the chart.
 */

export interface ChartPoint {
  /** The bucket, counted from the chart's first. */
  index: number;
  low: bigint;
  high: bigint;
}

export interface ChartBox {
  width: number;
  height: number;
  /** Room left for the price labels, and above and below the plot. */
  left: number;
  top: number;
  bottom: number;
}

export interface ChartPaths {
  /** One vertical stroke per bucket from its cheapest to its dearest sale (a dot when they are equal). */
  ranges: string;
  /** A line through each bucket's cheapest sale. */
  lows: string;
  /** The plot's lowest and highest price: what the axis labels say. */
  min: bigint;
  max: bigint;
}

/** One decimal place is plenty for a chart; keeps the page small. */
const round = (n: number) => Math.round(n * 10) / 10;

/** Paths of `points` (sorted by index) over `buckets` equal columns. */
export function pricePaths(points: readonly ChartPoint[], buckets: number, box: ChartBox): ChartPaths {
  if (!points.length) return { ranges: "", lows: "", min: 0n, max: 0n };
  const min = points.reduce((m, p) => (p.low < m ? p.low : m), points[0].low);
  const max = points.reduce((m, p) => (p.high > m ? p.high : m), points[0].high);
  const plot = box.height - box.top - box.bottom;
  const column = (box.width - box.left) / Math.max(1, buckets);
  // A flat chart (one price) sits mid-height rather than on the axis.
  const y = (wei: bigint) =>
    round(max === min ? box.top + plot / 2 : box.top + plot - (Number(((wei - min) * 1_000_000n) / (max - min)) / 1_000_000) * plot);
  const x = (index: number) => round(box.left + (index + 0.5) * column);
  return {
    ranges: points.map((p) => `M${x(p.index)} ${y(p.high)}V${y(p.low)}`).join(""),
    lows: points.map((p, i) => `${i ? "L" : "M"}${x(p.index)} ${y(p.low)}`).join(""),
    min,
    max,
  };
}
