/**
 * The browser wallet's chain offers (app/features/offers/chain-offer-transactions.ts) on anvil, as the island runs
 * them: the buyer signs, the holder accepts; a wallet that does not hold the item is refused before it approves
 * anything (issue 43: the approval was mined first, then acceptOffer failed).
 */
import { describe, expect, it } from "vitest";
import type { Account } from "viem";
import { gameTokenAbi, sparkCardAbi } from "../../contracts/generated/abi";
import type { ChainOffer } from "~core/api/market";
import { GAME_TOKEN_ID_BASE, LOCAL_CHAIN_ID } from "~core/constants";
import { encodeItem } from "~core/item-data";
import { offerHash } from "~core/trading";
import { acceptChainOffer, signChainOffer, type ChainOfferContracts } from "~/features/offers/chain-offer-transactions";
import { chainErrorMessage, type WalletClients } from "~/islands/chain-errors";
import { freshPlayer, grantDeployer, listingJson, type TestChain, setUpTestChain } from "./harness";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
let t: TestChain;
let c: TestChain["deployment"]["contracts"];
let contracts: ChainOfferContracts;

setUpTestChain((chain) => {
  t = chain;
  c = chain.deployment.contracts;
  contracts = { chainId: LOCAL_CHAIN_ID, trading: c.trading };
});

const buyer = freshPlayer(3);
const holder = freshPlayer(4);
const stranger = freshPlayer(5);
const clientsOf = (account: Account): WalletClients => ({ publicClient: t.publicClient, walletClient: t.walletFor(account) });
const card = () => ({ address: c.card, abi: sparkCardAbi }) as const;
const approved = (account: Account) =>
  t.publicClient.readContract({ ...card(), functionName: "isApprovedForAll", args: [account.address, c.trading] });

describe("accepting a chain offer from a browser wallet", () => {
  it("is refused in words before any approval for a wallet that does not hold the item; the holder fills it", async () => {
    const tokenId = BigInt(GAME_TOKEN_ID_BASE) + 9100n;
    await grantDeployer(t, c.card, "MINTER_ROLE");
    const data = encodeItem.card({ rarity: 1, camp: 1, identity: 2, profession: 1, level: 1 });
    await t.mined(t.deployer.writeContract({ ...card(), functionName: "mintGameItem", args: [holder.address, tokenId, data] }));
    await t.mined(
      t.deployer.writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "mint", args: [buyer.address, 100n * WEI] }),
    );

    const signed = await signChainOffer(
      clientsOf(buyer),
      contracts,
      { collection: c.card, tokenId, dataMask: 0n, dataValue: 0n, currency: c.fire, price: 10n * WEI, days: 7 },
      { committed: 0n, noFunds: "no funds" },
      () => {},
    );
    const order = {
      ...listingJson(signed.offer),
      orderHash: offerHash(signed.offer, LOCAL_CHAIN_ID, c.trading),
      signature: signed.signature,
    } as unknown as ChainOffer;

    const seen: string[] = [];
    const refused = await acceptChainOffer(
      clientsOf(stranger),
      contracts,
      order,
      tokenId,
      (step, state) => void seen.push(`${step}:${state}`),
    ).then(
      () => null,
      (error: unknown) => chainErrorMessage(error),
    );
    expect(refused).toBe(`Item #${tokenId} is not in your wallet.`);
    expect(seen).toEqual([]);
    expect(await approved(stranger)).toBe(false);

    await acceptChainOffer(clientsOf(holder), contracts, order, tokenId, () => {});
    expect(await t.publicClient.readContract({ ...card(), functionName: "ownerOf", args: [tokenId] })).toBe(buyer.address);
  });
});
