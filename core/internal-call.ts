/**
 * Headers of the app's own calls to its embedded backends. The token proves the call comes from this process;
 * only then is the client address it names believed (rate limits and sign-in locks are per client).
 */
export const INTERNAL_TOKEN_HEADER = "x-spark-internal";
export const CLIENT_IP_HEADER = "x-spark-client-ip";
