import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { SellSchema, transferSchema } from "~/features/market/trade-action-schemas.server";
import { SAME_ADDRESS_MESSAGE } from "~/features/market/trade-rules";
import { DEFAULT_LISTING_DAYS } from "~core/orders";

const form = (entries: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.set(name, value);
  return data;
};
const SENDER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("sell form", () => {
  it("takes a decimal price, a currency and the default listing length", () => {
    const result = parseWithZod(form({ price: " 12.5 ", currency: "QUARK" }), { schema: SellSchema });
    expect(result.status).toBe("success");
    expect(result.status === "success" && result.value).toMatchObject({ price: "12.5", currency: "QUARK", days: DEFAULT_LISTING_DAYS });
  });

  it.each([
    ["", "Enter a price"],
    ["0", "The price must be more than 0"],
    ["0.000", "The price must be more than 0"],
    ["-1", "Enter a price as a decimal number, like 12.5"],
    ["1e3", "Enter a price as a decimal number, like 12.5"],
    ["1,5", "Enter a price as a decimal number, like 12.5"],
    ["0.0000000000000000001", "Enter a price as a decimal number, like 12.5"],
  ])("refuses the price %j with a message next to the field", (price, message) => {
    const result = parseWithZod(form({ price, currency: "FIRE" }), { schema: SellSchema });
    expect(result.status).toBe("error");
    expect(result.reply().error?.price).toContain(message);
  });

  it("refuses unknown currencies and listing lengths", () => {
    const result = parseWithZod(form({ price: "1", currency: "DOGE", days: "2" }), { schema: SellSchema });
    expect(result.reply().error).toMatchObject({ currency: ["Choose a currency"], days: ["Choose how long the listing lasts"] });
  });
});

describe("transfer form", () => {
  const schema = transferSchema(SENDER);
  it("takes a checksummed recipient", () => {
    expect(parseWithZod(form({ to: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" }), { schema }).status).toBe("success");
  });
  it("refuses a wrongly checksummed or malformed address", () => {
    for (const to of ["0x3c44cdddb6a900fa2b585dd299e03d12fa4293BC", "0x123", "hello"]) {
      expect(parseWithZod(form({ to }), { schema }).reply().error?.to).toEqual(["Enter a valid wallet address (0x…, checksummed)"]);
    }
  });
  it("refuses the sender's own address in the product spec's words", () => {
    expect(parseWithZod(form({ to: SENDER }), { schema }).reply().error?.to).toEqual([SAME_ADDRESS_MESSAGE]);
    expect(SAME_ADDRESS_MESSAGE).toBe("The address cannot be the same as the address of the sender");
  });
});
