/** One JSON-RPC call to a node by URL, its answer's result or an Error naming the method: for scripts and tests that poke anvil. */
export async function nodeRpc<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: T; error?: { message: string } };
  if (answer.error || answer.result === undefined) throw new Error(`${method}: ${answer.error?.message ?? "no result"}`);
  return answer.result;
}
