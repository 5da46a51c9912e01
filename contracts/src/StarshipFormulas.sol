// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title The fleet's formulas (docs/spaceships.md): power, duration lost, mining, repair, upgrade and slot prices.
/// @notice core/spaceship.ts's formulas, in integers with the same rounding; tests/contracts/starship-differential.test.ts
/// keeps the two equal. Public and pure, so the pages' calculators and the manager read the same numbers.
abstract contract StarshipFormulas {
    uint256 public constant SLOT_COUNT = 4;
    uint8 public constant TOP_LEVEL = 10;
    uint256 internal constant MIN_LOST_RATE = 400;
    uint256 internal constant WEI_PER_TOKEN = 1e18;

    /// @notice No upgrade from this level: the top level (10) or above, or level 0, which no real ship has.
    error TopLevel(uint256 level);

    /// @notice Total × (100 + 15 × (level − 1)) / 100, plus 30 × grade + 10 × level per fitted piece (0 for an
    /// empty slot: type 0, level 0).
    function powerOf(
        uint8[7] memory stats,
        uint8 level,
        uint8[4] memory equipmentTypes,
        uint8[4] memory equipmentLevels
    ) public pure returns (uint256 power) {
        uint256 total;
        for (uint256 i = 0; i < 7; ++i) {
            total += stats[i];
        }
        // 100 + 15 × (level − 1) written as 85 + 15 × level: equal, and level 0 cannot underflow.
        power = (total * (85 + 15 * uint256(level))) / 100;
        for (uint256 slot = 0; slot < SLOT_COUNT; ++slot) {
            power += 30 * uint256(equipmentTypes[slot]) + 10 * uint256(equipmentLevels[slot]);
        }
    }

    /// @notice Duration seconds lost per 1,000 mining seconds: 1,600 − 4 × (Endurance + Armor), at least 400.
    function lostRateOf(uint8 endurance, uint8 armor) public pure returns (uint256) {
        uint256 reduction = 4 * (uint256(endurance) + armor);
        return reduction >= 1600 - MIN_LOST_RATE ? MIN_LOST_RATE : 1600 - reduction;
    }

    /// @notice Full duration in seconds: 8 h + 2 h × (type − 1) + 30 min × (level − 1).
    function maxDurationOf(uint8 shipType, uint8 level) public pure returns (uint256) {
        // Regrouped as 5.5 h + 2 h × type + 30 min × level: equal, and type or level 0 cannot underflow.
        return 19_800 + 7_200 * uint256(shipType) + 1_800 * uint256(level);
    }

    /// @notice `miningSeconds` of mining from `duration` seconds left: the seconds that count (fewer when the duration
    /// runs out), the duration lost (rounded up, at most `duration`) and DarkIron, Silver, Gold mined.
    function miningOutcome(uint256 power, uint8 level, uint256 rate, uint256 duration, uint256 miningSeconds)
        public
        pure
        returns (uint256 minedSeconds, uint256 lost, uint256[3] memory mined)
    {
        uint256 cap = (duration * 1000) / rate;
        minedSeconds = miningSeconds < cap ? miningSeconds : cap;
        lost = (minedSeconds * rate + 999) / 1000;
        if (lost > duration) lost = duration;
        uint256 work = minedSeconds * power;
        mined[0] = work / 36_000;
        mined[1] = (work * (uint256(level) + 1)) / 360_000;
        mined[2] = (work * level) / 1_800_000;
    }

    /// @notice FIRE (wei) to restore `missing` seconds: 1 FIRE per 6 minutes per ship type.
    function repairCostOf(uint8 shipType, uint256 missing) public pure returns (uint256) {
        return (missing * shipType * WEI_PER_TOKEN) / 360;
    }

    /// @notice DarkIron, Silver, Gold to go from `level` to the next; reverts TopLevel(level) when there is none.
    function upgradeCostOf(uint8 level) public pure returns (uint256[3] memory cost) {
        if (level == 0 || level >= TOP_LEVEL) revert TopLevel(level);
        uint16[9] memory darkIron = [uint16(50), 120, 250, 400, 600, 900, 1300, 1800, 2500];
        uint16[9] memory silver = [uint16(0), 20, 60, 120, 200, 320, 500, 750, 1100];
        uint16[9] memory gold = [uint16(0), 0, 5, 15, 30, 60, 100, 160, 250];
        cost = [uint256(darkIron[level - 1]), silver[level - 1], gold[level - 1]];
    }

    /// @notice QUARK (wei) for the slot opener that opens the next slot: 50 QUARK per slot already open.
    function slotOpenerPriceOf(uint8 openSlots) public pure returns (uint256) {
        return 50 * uint256(openSlots) * WEI_PER_TOKEN;
    }
}
