import { privateKeyToAccount } from "viem/accounts";
import { verifyTypedData, type Address } from "viem";
import { describe, expect, it } from "vitest";
import { type BuyMessage, expiryIn, newOrderNonce, ORDER_TYPES, orderTypedData, type SellMessage } from "~core/orders";

const seller = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const other = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");
const domain = { chainId: 31337, verifyingContract: "0x5FbDB2315678afecb367f032d93F642f64180aa3" as Address };
const sell: SellMessage = {
  tokenId: 42n,
  nftType: 0,
  seller: seller.address,
  price: 12_500_000_000_000_000_000n,
  currency: "FIRE",
  counter: 0n,
  nonce: 7n,
  expiry: 2_000_000_000n,
};
const buy: BuyMessage = {
  tokenId: 42n,
  nftType: 0,
  listingId: 1n,
  seller: seller.address,
  buyer: other.address,
  price: sell.price,
  currency: "FIRE",
  nonce: 9n,
  expiry: 2_000_000_000n,
};

describe("order typed data", () => {
  it("verifies the signer of exactly the signed order", async () => {
    const typed = orderTypedData(domain, "Sell", sell);
    const signature = await seller.signTypedData(typed);
    expect(await verifyTypedData({ ...typed, address: seller.address, signature })).toBe(true);
    expect(await verifyTypedData({ ...typed, address: other.address, signature })).toBe(false);
  });

  it("fails when any field, the chain or the contract differs from what was signed", async () => {
    const signature = await seller.signTypedData(orderTypedData(domain, "Sell", sell));
    const variants = [
      orderTypedData(domain, "Sell", { ...sell, price: sell.price + 1n }),
      orderTypedData(domain, "Sell", { ...sell, currency: "USDT" }),
      orderTypedData(domain, "Sell", { ...sell, counter: 1n }),
      orderTypedData(domain, "Sell", { ...sell, nonce: 8n }),
      orderTypedData({ ...domain, chainId: 56 }, "Sell", sell),
      orderTypedData({ ...domain, verifyingContract: other.address }, "Sell", sell),
    ];
    for (const typed of variants) expect(await verifyTypedData({ ...typed, address: seller.address, signature })).toBe(false);
  });

  it("never lets one kind of order pass as another", async () => {
    const cancel = orderTypedData(domain, "Cancel", {
      tokenId: 42n,
      nftType: 0,
      seller: seller.address,
      nonce: 7n,
      expiry: 2_000_000_000n,
    });
    const signature = await seller.signTypedData(cancel);
    const asTransfer = orderTypedData(domain, "Transfer", {
      tokenId: 42n,
      nftType: 0,
      from: seller.address,
      to: seller.address,
      nonce: 7n,
      expiry: 2_000_000_000n,
    });
    expect(await verifyTypedData({ ...asTransfer, address: seller.address, signature })).toBe(false);
  });

  it("names the listing and its seller in a Buy, under domain version 2", () => {
    expect(ORDER_TYPES.Buy.map((field) => `${field.type} ${field.name}`)).toEqual([
      "uint256 tokenId",
      "uint8 nftType",
      "uint256 listingId",
      "address seller",
      "address buyer",
      "uint256 price",
      "string currency",
      "uint256 nonce",
      "uint256 expiry",
    ]);
    const typed = orderTypedData(domain, "Buy", buy);
    expect(typed.domain).toEqual({ name: "Spark Era Market", version: "2", ...domain });
    expect(Object.keys(typed.types)).toEqual(["Buy"]);
  });

  it("binds a Buy to exactly one listing: another listing id or seller at the same price does not verify", async () => {
    const signature = await other.signTypedData(orderTypedData(domain, "Buy", buy));
    expect(await verifyTypedData({ ...orderTypedData(domain, "Buy", buy), address: other.address, signature })).toBe(true);
    for (const relisted of [
      { ...buy, listingId: 2n },
      { ...buy, seller: other.address },
      { ...buy, listingId: 2n, seller: other.address },
    ]) {
      expect(await verifyTypedData({ ...orderTypedData(domain, "Buy", relisted), address: other.address, signature })).toBe(false);
    }
  });

  it("refuses an order signed under the old domain version", async () => {
    const typed = orderTypedData(domain, "Sell", sell);
    const signature = await seller.signTypedData({ ...typed, domain: { ...typed.domain, version: "1" } });
    expect(await verifyTypedData({ ...typed, address: seller.address, signature })).toBe(false);
  });

  it("makes random 128-bit nonces and expiries in seconds", () => {
    const nonces = new Set(Array.from({ length: 100 }, newOrderNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(nonce < 2n ** 128n).toBe(true);
    expect(expiryIn(600, 1_700_000_000_000)).toBe(1_700_000_600n);
  });
});
