import nodemailer from "nodemailer";
import type { Kysely } from "kysely";
import type { Database } from "../../types";
import type { CodePurpose } from "../shared/tables";

/** Sender when BackendOptions.mailFrom is unset. */
const DEFAULT_MAIL_FROM = "Spark Era <no-reply@sparkera.test>";

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export type SendMail = (mail: Mail) => Promise<void>;

/** Mail goes out by SMTP when a URL is configured; otherwise it lands in the dev outbox table. */
export function createMailer(db: Kysely<Database>, smtpUrl: string | undefined, from = DEFAULT_MAIL_FROM): SendMail {
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    return async ({ to, subject, text }) => {
      await transport.sendMail({ from, to, subject, text });
    };
  }
  return async ({ to, subject, text }) => {
    await db.insertInto("outbox").values({ to_address: to, subject, body: text, created_at: new Date().toISOString() }).execute();
  };
}

const SUBJECTS: Record<CodePurpose, string> = {
  register: "Your Spark Era registration code",
  reset: "Reset your Spark Era password",
};

const REASONS: Record<CodePurpose, string> = {
  register: "Use it to finish creating your Spark Era account.",
  reset: "Use it to choose a new password for your Spark Era account.",
};

/** The code sits in one stable sentence, "Your Spark Era verification code is 123456", that tests and users can find. */
export function codeMail(to: string, purpose: CodePurpose, code: string, validMinutes: number): Mail {
  return {
    to,
    subject: SUBJECTS[purpose],
    text: [
      `Your Spark Era verification code is ${code}`,
      "",
      `${REASONS[purpose]} It expires in ${validMinutes} minutes and works once.`,
      "If you did not ask for it, ignore this email; nothing changes without the code.",
    ].join("\n"),
  };
}
