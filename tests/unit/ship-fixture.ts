/** A docked Rare level-1 ship with Total 420 (docs/spaceships.md's example), with any figure overridden. */
import { shipFigures, type ShipState } from "~core/spaceship";

export const EXAMPLE_STATS = [60, 60, 60, 60, 60, 60, 60];

export function testShip(tokenId = 7n, overrides: Partial<ShipState> = {}): ShipState {
  const spec = { shipType: 2, level: 1, stats: EXAMPLE_STATS, equipment: [] };
  const figures = shipFigures(spec);
  return {
    ...spec,
    tokenId,
    owner: "0x0000000000000000000000000000000000000001",
    duration: figures.maxDuration,
    maxDuration: figures.maxDuration,
    openSlots: 1,
    fitted: [0n, 0n, 0n, 0n],
    exploringSince: 0n,
    power: figures.power,
    rate: figures.rate,
    ...overrides,
  };
}
