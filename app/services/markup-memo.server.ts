/**
 * Rendered markup kept by what it was rendered from (decision 0037): the key is the view's whole input, so a hit is
 * the markup the render would give, and nothing needs invalidating. Bounded, least recently used first out.
 */
export class MarkupMemo {
  private readonly entries = new Map<string, string>();

  constructor(private readonly limit: number) {}

  /** The markup of `key`, rendered by `render` when it is not kept. */
  get(key: string, render: () => string): string {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    const html = render();
    this.entries.set(key, html);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
    return html;
  }

  get size(): number {
    return this.entries.size;
  }
}
