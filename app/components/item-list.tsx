import type { ItemAttributes } from "~core/item-data";
import { NFT_TYPE, NFT_TYPES, SPACESHIP_STATS, attributeName, enumName, type ItemAttributeKey } from "~core/nft";

export interface OpenedItem {
  tokenId: bigint;
  attributes: ItemAttributes;
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const named = (key: ItemAttributeKey, code: number) => attributeName(key, code) ?? `#${code}`;

/** An item's kind and its attributes as product §3 names them. */
export function describeItem(attributes: ItemAttributes): { kind: string; traits: [string, string][] } {
  if ("raw" in attributes) return { kind: capitalise(enumName(NFT_TYPES, attributes.nftType) ?? "Item"), traits: [] };
  switch (attributes.nftType) {
    case NFT_TYPE.card:
      return {
        kind: "Hero card",
        traits: [
          ["Rarity", named("rarity", attributes.rarity)],
          ["Level", String(attributes.level)],
          ["Camp", named("camp", attributes.camp)],
          ["Identity", named("identity", attributes.identity)],
          ["Profession", named("profession", attributes.profession)],
        ],
      };
    case NFT_TYPE.spaceship:
      return {
        kind: "Spaceship",
        traits: [
          ["Type", named("rank", attributes.shipType)],
          ["Level", String(attributes.level)],
          ...SPACESHIP_STATS.map((stat): [string, string] => [capitalise(stat), String(attributes.stats[stat])]),
          ["Total", String(attributes.total)],
        ],
      };
    case NFT_TYPE.equipment:
      return {
        kind: named("equipmentCode", attributes.equipmentCode),
        traits: [
          ["Equipment", named("equipmentType", attributes.equipmentType)],
          ["Level", String(attributes.level)],
        ],
      };
    case NFT_TYPE.material:
      return { kind: "Material", traits: [["Material", named("material", attributes.material)]] };
    case NFT_TYPE.egg:
      return { kind: "Pet egg", traits: [["Egg", named("eggType", attributes.eggType)]] };
  }
}

/** The items a box opening yielded, each with its attributes. */
export function ItemList({ items }: { items: readonly OpenedItem[] }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="New items">
      {items.map((item) => {
        const { kind, traits } = describeItem(item.attributes);
        return (
          <li key={item.tokenId.toString()} className="rounded-lg border border-space-700 bg-space-900 p-3" data-testid="opened-item">
            <p className="font-semibold text-white">
              {kind} <span className="text-sm font-normal text-slate-300">#{item.tokenId.toString()}</span>
            </p>
            {traits.length > 0 && (
              <dl className="mt-2 grid grid-cols-2 gap-x-3 text-sm">
                {traits.map(([label, value]) => (
                  <div key={label} className="contents">
                    <dt className="text-slate-300">{label}</dt>
                    <dd className="text-slate-100">{value}</dd>
                  </div>
                ))}
              </dl>
            )}
          </li>
        );
      })}
    </ul>
  );
}
