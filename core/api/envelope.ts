/**
 * The envelope both backends answer with: `{ code, msg, data, success }`. code mirrors the HTTP status
 * (200 on success); clients unwrap `data`. (The market's /metadata serves plain JSON instead.)
 */
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T | null;
  success: boolean;
}
