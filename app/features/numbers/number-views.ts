/** The shapes of a market view's numbers and price history as the server renders them (numbers.server.ts → view-numbers.server.tsx). */
export interface Stat {
  label: string;
  /** One per currency. */
  values: string[];
  note: string | null;
}

export interface ChartView {
  /** The currency and a summary of its sales: the chart's text for screen readers, which skip the SVG. */
  caption: string;
  ranges: string;
  lows: string;
  /** Axis text: dearest and cheapest sale, and the buckets' span. */
  high: string;
  low: string;
  span: string;
  /** Date, sales, cheapest, dearest of each bucket with sales. */
  rows: string[][];
}

export interface HistoryView {
  /** The history is folded away unless the URL chose a period. */
  open: boolean;
  heading: string;
  periods: { label: string; href: string; current: boolean }[];
  charts: ChartView[];
  empty: string | null;
}
