/** Shared by the market-chain-listings*.test.ts files: a seller's chain listings, signed and stored by chainSell. */
import type { Account, Address, Hex } from "viem";
import { zeroAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { sparkCardAbi } from "../../contracts/generated/abi";
import type { ListingRecord } from "~core/api/market";
import { type Listing, listingTypedData } from "~core/trading";
import { freshPlayer, listingJson, listingOf } from "../contracts/harness";
import { type ChainMarket, setUpChainMarket } from "./chain-market-fixture";
import { BUYER } from "./market-fixture";
import { WEI_PER_TOKEN } from "~core/money";

export const WEI = WEI_PER_TOKEN;
// The demo buyer sells here: the demo browser wallet is the deployer, who takes the fee.
export const seller = privateKeyToAccount(BUYER.privateKey as Hex);
export const outsider = freshPlayer(4);

export const wire = ({ listing, signature }: { listing: Listing; signature: Hex }) => ({ ...listingJson(listing), signature });

/**
 * Starts a chain market for the file's tests (`ready` takes it once started), with the helpers its tests list by; the
 * market's own (settled, detail, chainCard) as well.
 */
export function setUpChainListings(ready: (started: ChainMarket) => void) {
  let started: ChainMarket | undefined;
  setUpChainMarket({}, (market) => ready((started = market)));
  const suite = () => started!;
  const now = async () => (await suite().chain.publicClient.getBlock()).timestamp;
  return {
    settled: () => suite().settled(),
    detail: (tokenId: bigint) => suite().detail(tokenId),
    chainCard: (to: Address) => suite().chainCard(to),
    now,
    approve(owner: Account, approved = true, collection: Address = suite().chain.deployment.contracts.card) {
      const { chain } = suite();
      const { trading } = chain.deployment.contracts;
      return chain.mined(
        chain
          .walletFor(owner)
          .writeContract({ address: collection, abi: sparkCardAbi, functionName: "setApprovalForAll", args: [trading, approved] }),
      );
    },
    /** The owner's listing of 2 BNB for an hour (unless `terms` say otherwise), signed by `signer`. */
    async sign(owner: Account, terms: Partial<Listing>, signer: Account = owner) {
      const { chain } = suite();
      const listing = await listingOf(chain, owner.address, {
        currency: zeroAddress,
        price: 2n * WEI,
        expiry: (await now()) + 3600n,
        ...terms,
      });
      const signature = await chain
        .walletFor(signer)
        .signTypedData({ account: signer, ...listingTypedData(listing, chain.deployment.chainId, chain.deployment.contracts.trading) });
      return { listing, signature };
    },
    chainSell: (body: Record<string, unknown>, token = suite().m.tokens.buyer) =>
      suite().m.post<ListingRecord>("/informationCenter/chainSell", {}, body, token),
  };
}
