/** Kysely table types of the SSO backend. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SsoTables {}
