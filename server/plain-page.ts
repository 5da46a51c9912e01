/**
 * The page for a request refused before Remix renders anything: no scripts, no styles to load.
 * `title` and `message` are our own constant strings, never request input, so they go in unescaped.
 */
export function plainPage(title: string, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title} | Spark Era</title></head><body><main><h1>${title}</h1><p>${message}</p><p><a href="/home">Go to Spark Era</a></p></main></body></html>`;
}
