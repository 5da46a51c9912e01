/**
 * Reads of the e2e server's chain for the on-chain tests: what a wallet holds, has sent and has staked, what the
 * sale asks and what a stake pool holds, straight from the node, never through the app under test.
 */
import { expect, type Page, type Response } from "@playwright/test";
import { type Address, createPublicClient, http } from "viem";
import { blindBoxAbi, blindBoxSaleAbi, fireStakingAbi, gameTokenAbi, sparkCardAbi, sparkItemsAbi } from "../../contracts/generated/abi";
import { readDeployment } from "../../contracts/deployment";
import { e2eDataDir } from "./stock";
import { E2E_RPC_URL } from "./wallet";
import { parseTokenAmount } from "~core/money";

export function chainReader() {
  const deployment = readDeployment(`${e2eDataDir()}/chain/deployment.json`);
  if (!deployment) throw new Error("No deployment of the e2e server's chain");
  const { contracts } = deployment;
  const client = createPublicClient({ transport: http(E2E_RPC_URL) });
  const token = { USDT: contracts.usdt, QUARK: contracts.quark, FIRE: contracts.fire } as const;
  const staking = { address: contracts.staking, abi: fireStakingAbi } as const;
  return {
    balance: (currency: keyof typeof token, wallet: Address) =>
      client.readContract({ address: token[currency], abi: gameTokenAbi, functionName: "balanceOf", args: [wallet] }),
    /** The sale's price of one box in `currency`. */
    price: (typeBox: number, currency: "USDT" | "QUARK") =>
      client.readContract({
        address: contracts.boxSale,
        abi: blindBoxSaleAbi,
        functionName: "priceInToken",
        args: [BigInt(typeBox), token[currency]],
      }),
    pool: (poolId: number) => client.readContract({ ...staking, functionName: "queryPoolInfo", args: [BigInt(poolId)] }),
    /** [stakingNumber, nftNumber] of the wallet in the pool. */
    stake: (poolId: number, wallet: Address) =>
      client.readContract({ ...staking, functionName: "queryUserStake", args: [BigInt(poolId), wallet] }),
    /** How much of SparkItems stack `id` the wallet holds. */
    stack: (wallet: Address, id: bigint) =>
      client.readContract({ address: contracts.items, abi: sparkItemsAbi, functionName: "balanceOf", args: [wallet, id] }),
    /** Who holds a card-collection token now. */
    cardOwner: (tokenId: bigint) =>
      client.readContract({ address: contracts.card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] }),
    /** Where the trading contract's fees go in this deployment (contracts/deploy.ts: the reward manager). */
    treasury: contracts.rewardManager,
    /** What `from` has sent `to` in `currency`, summed over the token's Transfer events (exact, whatever else the treasury receives). */
    transferred: async (currency: keyof typeof token, from: Address, to: Address) => {
      const events = await client.getContractEvents({
        address: token[currency],
        abi: gameTokenAbi,
        eventName: "Transfer",
        args: { from, to },
        fromBlock: 0n,
      });
      return events.reduce((sum, event) => sum + (event.args.value ?? 0n), 0n);
    },
    /** Transactions the wallet has sent (its nonce). */
    sent: (wallet: Address) => client.getTransactionCount({ address: wallet }),
    /** The wallet's BNB, in wei. */
    bnb: (wallet: Address) => client.getBalance({ address: wallet }),
    boxes: async (wallet: Address) => {
      const [ids, types] = await client.readContract({
        address: contracts.box,
        abi: blindBoxAbi,
        functionName: "queryUserBoxes",
        args: [wallet],
      });
      return ids.map((id, index) => ({ id, typeBox: Number(types[index]) }));
    },
  };
}

/** The fee review page's network fee (app/routes/actions.review.$id) in `token`, to the wei. */
export async function reviewedFee(page: Page, token: string): Promise<bigint> {
  await expect(page.getByRole("heading", { name: "Review the network fee" })).toBeVisible();
  const feeText = (await page.getByTestId("network-fee").textContent())!;
  expect(feeText).toMatch(new RegExp(`^[\\d.,]+ ${token}$`));
  const fee = parseTokenAmount(feeText.replace(` ${token}`, "").replaceAll(",", ""))!;
  expect(fee).toBeGreaterThan(0n);
  return fee;
}

/** For a wallet without BNB: reviews the action's network fee in `token`, confirms it, and returns it, to the wei. */
export async function confirmReviewedFee(page: Page, token: string): Promise<bigint> {
  const fee = await reviewedFee(page, token);
  await page.getByRole("button", { name: "Confirm and pay the fee" }).click();
  return fee;
}

/** Waits on the status page (reloaded by its meta refresh, or updated in place with JS) until the action is final. */
export async function waitForOutcome(page: Page, outcome: RegExp = /^Done: mined in block \d+\.$/) {
  await expect(page).toHaveURL(/\/actions\/[0-9a-f]{32}/);
  await expect(page.getByTestId("execution-status")).toHaveText(outcome, { timeout: 30_000 });
}

/**
 * Reloads the page until `check` passes: the game shows a move once the market's indexer has seen it. Each try's
 * assertions get a short timeout of their own, so a page read before the indexer caught up is reloaded at once.
 */
export async function reloadUntil(page: Page, check: (quick: typeof expect) => Promise<void>) {
  const quick = expect.configure({ timeout: 1_000 });
  await expect(async () => {
    await page.reload();
    await check(quick);
  }).toPass({ timeout: 20_000 });
}

/** Clicks a form's button and returns the document response of its post (its status: a refusal is a 4xx). */
export async function postForm(page: Page, button: string): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && r.request().resourceType() === "document"),
    page.getByRole("button", { name: button, exact: true }).click(),
  ]);
  return response;
}

/**
 * Has the game sign a token claim for the signed-in account that nothing submits, as when a wallet turned the
 * transaction down or its tab was closed: the claim stays pending, its amount taken from the game balance.
 */
export async function unsubmittedClaim(page: Page, baseURL: string, currency: "FIRE" | "QUARK", amount: string) {
  const asked = await page.request.post("/resources/bridge-claim", {
    form: { intent: "claim-token", currency, amount },
    headers: { Origin: baseURL },
  });
  expect(asked.status()).toBe(200);
}

const BRIDGE_FORMS = {
  claim: { form: "Claim to the chain", button: "Claim" },
  move: { form: "Move into the game", button: "Move" },
} as const;

/** Fills the game page's bridge form ("claim" to the chain, "move" into the game) with `amount` and submits it; returns the form. */
export async function submitBridge(page: Page, which: keyof typeof BRIDGE_FORMS, amount: string) {
  const form = page.getByRole("form", { name: BRIDGE_FORMS[which].form });
  await form.getByLabel("Amount").fill(amount);
  await form.getByRole("button", { name: BRIDGE_FORMS[which].button }).click();
  return form;
}
