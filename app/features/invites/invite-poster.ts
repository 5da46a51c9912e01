/** The invitation poster: a shareable SVG with the invite code and link, drawn from text only (no user HTML). */
import { escapeXml } from "~core/xml";

export function invitePosterSvg({ code, link }: { code: string; link: string }): string {
  const safeCode = escapeXml(code);
  const safeLink = escapeXml(link);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="720" height="1080" viewBox="0 0 720 1080" role="img" aria-labelledby="t d">
<title id="t">Join me in Spark Era</title>
<desc id="d">Invitation poster with invite code ${safeCode}</desc>
<defs>
<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#151b36"/><stop offset="1" stop-color="#070a16"/></linearGradient>
<radialGradient id="planet" cx="0.35" cy="0.35" r="0.8"><stop offset="0" stop-color="#ffd27a"/><stop offset="1" stop-color="#d4860c"/></radialGradient>
</defs>
<rect width="720" height="1080" fill="url(#sky)"/>
<g fill="#fff" opacity="0.7"><circle cx="80" cy="120" r="2"/><circle cx="620" cy="90" r="1.5"/><circle cx="540" cy="260" r="2"/><circle cx="150" cy="380" r="1.5"/><circle cx="660" cy="470" r="2"/><circle cx="60" cy="640" r="1.5"/></g>
<circle cx="520" cy="300" r="150" fill="url(#planet)"/>
<ellipse cx="520" cy="300" rx="230" ry="38" fill="none" stroke="#a9b8ff" stroke-width="6" opacity="0.7" transform="rotate(-18 520 300)"/>
<text x="60" y="560" fill="#ffbf3f" font-family="system-ui, sans-serif" font-size="30" font-weight="700" letter-spacing="4">SPARK ERA</text>
<text x="60" y="630" fill="#fff" font-family="system-ui, sans-serif" font-size="56" font-weight="900">Join the metaverse</text>
<text x="60" y="690" fill="#cbd5e1" font-family="system-ui, sans-serif" font-size="26">Heroes, starships and loot boxes await.</text>
<rect x="60" y="760" width="600" height="150" rx="20" fill="#0d1226" stroke="#f5a524" stroke-width="3"/>
<text x="90" y="812" fill="#cbd5e1" font-family="system-ui, sans-serif" font-size="24">My invite code</text>
<text x="90" y="874" fill="#ffd27a" font-family="ui-monospace, monospace" font-size="52" font-weight="700" letter-spacing="6">${safeCode}</text>
<text x="60" y="980" fill="#a9b8ff" font-family="ui-monospace, monospace" font-size="20">${safeLink}</text>
</svg>`;
}
