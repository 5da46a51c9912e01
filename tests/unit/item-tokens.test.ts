import { describe, expect, it } from "vitest";
import { STACKABLE_TYPES, stackOfTokenId, stackTokenId } from "~core/item-tokens";
import { MATERIALS, NFT_TYPE } from "~core/nft";

describe("ERC-1155 item token ids", () => {
  it("numbers the materials 8000, 8001 and 8002", () => {
    expect(STACKABLE_TYPES).toEqual([8]);
    expect(Object.keys(MATERIALS).map((code) => stackTokenId(NFT_TYPE.material, Number(code)))).toEqual([8000n, 8001n, 8002n]);
  });

  it("maps every id back to its kind", () => {
    for (const code of [0, 1, 2]) {
      expect(stackOfTokenId(stackTokenId(NFT_TYPE.material, code))).toEqual({ nftType: 8, code });
    }
  });

  it("names no stack for other ids", () => {
    for (const id of [0n, 1n, 7999n, 8003n, 8999n, 9000n, 4000n, -8000n, 2n ** 200n]) {
      expect(stackOfTokenId(id), String(id)).toBeNull();
    }
  });

  it("refuses a kind that keeps an identity", () => {
    expect(() => stackTokenId(NFT_TYPE.card, 0)).toThrow(RangeError);
    expect(() => stackTokenId(NFT_TYPE.material, 3)).toThrow(RangeError);
    expect(() => stackTokenId(NFT_TYPE.material, 0.5)).toThrow(RangeError);
  });
});
