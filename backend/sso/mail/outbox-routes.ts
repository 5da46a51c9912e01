import { handle, parseInput, sendOk } from "../../http";
import express from "express";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../../types";

/** Mails shown at most; the outbox is a development aid, not an archive. */
const OUTBOX_LIMIT = 50;

export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  body: string;
  createdAt: string;
}

const outboxQuery = z.object({ to: z.string().trim().toLowerCase().max(254).optional() });

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function outboxPage(mails: OutboxMail[]): string {
  const items = mails
    .map(
      (mail) => `<article>
  <h2>${escapeHtml(mail.subject)}</h2>
  <p class="meta">To ${escapeHtml(mail.to)} · <time datetime="${escapeHtml(mail.createdAt)}">${escapeHtml(mail.createdAt)}</time></p>
  <pre>${escapeHtml(mail.body)}</pre>
</article>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev outbox · Spark Era</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; color: #111; }
article { border: 1px solid #ccc; border-radius: 0.5rem; padding: 0 1rem; margin: 1rem 0; }
h2 { font-size: 1.1rem; } .meta { color: #555; } pre { white-space: pre-wrap; }
/* Links and addresses are one long word: broken anywhere, so a phone never scrolls sideways. */
h2, .meta, pre { overflow-wrap: anywhere; }
</style>
</head>
<body>
<h1>Dev outbox</h1>
<p>Mails the SSO backend would have sent, newest first (last ${OUTBOX_LIMIT}). Not mounted in production.</p>
${items || "<p>No mail yet.</p>"}
</body>
</html>`;
}

/** GET /dev/outbox (HTML) and GET /dev/outbox.json?to=email: the mails that stayed in the outbox table. */
export function outboxRoutes(db: Kysely<Database>) {
  const router = express.Router();

  async function latest(to?: string): Promise<OutboxMail[]> {
    let query = db.selectFrom("outbox").selectAll().orderBy("id", "desc").limit(OUTBOX_LIMIT);
    if (to) query = query.where("to_address", "=", to);
    const rows = await query.execute();
    return rows.map((row) => ({ id: row.id, to: row.to_address, subject: row.subject, body: row.body, createdAt: row.created_at }));
  }

  router.get(
    "/dev/outbox",
    handle(async (_req, res) => {
      res.type("html").send(outboxPage(await latest()));
    }),
  );

  router.get(
    "/dev/outbox.json",
    handle(async (req, res) => {
      const { to } = parseInput(outboxQuery, req.query);
      sendOk(res, await latest(to));
    }),
  );

  return router;
}
