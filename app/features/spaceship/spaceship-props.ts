/**
 * What a spaceship page hands the browser-wallet island (spaceship-action.client.tsx): the chain's addresses and one
 * action. Types only, so the pages import no wallet code.
 */
export interface ShipIslandChain {
  chainId: number;
  rpcUrl: string;
  contracts: { fire: `0x${string}`; quark: `0x${string}`; card: `0x${string}`; starship: `0x${string}` };
}

export interface EquipmentChoice {
  tokenId: string;
  name: string;
}

export type ShipIslandAction =
  | { intent: "explore" | "recall" | "upgrade" | "repair" | "open-slot"; tokenId: string }
  | { intent: "fit"; tokenId: string; slot: number; choices: EquipmentChoice[] }
  | { intent: "unfit"; tokenId: string; slot: number }
  | { intent: "send-materials"; mined: [string, string, string] };
