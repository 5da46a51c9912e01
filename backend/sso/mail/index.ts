/**
 * The SSO's mail: the mailer (SMTP, or the dev outbox table) and the mails it writes. Its routes (the dev outbox,
 * the market's watch digests) are mounted by service.ts only.
 */
export { codeMail, createMailer, type Mail, type SendMail } from "./mail";
