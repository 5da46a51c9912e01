/** Text safe inside XML content and quoted attributes (SVG art, sitemaps): each special character as a reference. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
