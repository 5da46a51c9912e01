// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Compact on-chain item attributes (96 bits, stored beside the owner in one slot).
/// @notice Layout, byte 0 = least significant:
///   byte 0 nftType (product-spec card type codes: 0 card, 2 pse, 4 spaceship, 5 egg, 7 equipment, 8 material)
///   byte 1 grade: card rarity 0-3 | spaceship type 1-4 | equipment type 1-4 | material 0-2 | egg type 1-3
///   byte 2 level (1-10; 0 for materials and eggs)
///   card:      byte 3 camp 0-3, byte 4 identity 0-4, byte 5 profession 0-4
///   spaceship: bytes 3-9 Endurance, Agility, Pisonic, Strength, Crit, Spirit, Armor (0-255 each)
///   equipment: byte 3 equipment code 1-17
/// core/item-data.ts decodes the same layout off-chain (and the site's metadata route builds the JSON from it).
library ItemData {
    uint8 internal constant CARD = 0;
    uint8 internal constant PSE = 2;
    uint8 internal constant SPACESHIP = 4;
    uint8 internal constant EGG = 5;
    uint8 internal constant EQUIPMENT = 7;
    uint8 internal constant MATERIAL = 8;

    uint256 internal constant SHIP_STATS = 7;

    function nftType(uint96 data) internal pure returns (uint8) {
        return byteAt(data, 0);
    }

    function byteAt(uint96 data, uint256 index) internal pure returns (uint8) {
        return uint8(data >> (8 * index));
    }

    function card(uint8 rarity, uint8 camp, uint8 identity, uint8 profession, uint8 level)
        internal
        pure
        returns (uint96)
    {
        return _head(CARD, rarity, level) | (uint96(camp) << 24) | (uint96(identity) << 32)
            | (uint96(profession) << 40);
    }

    function spaceship(uint8 shipType, uint8 level, uint8[7] memory stats) internal pure returns (uint96 data) {
        data = _head(SPACESHIP, shipType, level);
        for (uint256 i = 0; i < SHIP_STATS; ++i) {
            data |= uint96(uint256(stats[i]) << (24 + 8 * i));
        }
    }

    function equipment(uint8 equipmentType, uint8 code, uint8 level) internal pure returns (uint96) {
        return _head(EQUIPMENT, equipmentType, level) | (uint96(code) << 24);
    }

    function material(uint8 kind) internal pure returns (uint96) {
        return _head(MATERIAL, kind, 0);
    }

    function egg(uint8 eggType) internal pure returns (uint96) {
        return _head(EGG, eggType, 0);
    }

    function _head(uint8 kind, uint8 grade, uint8 level) private pure returns (uint96) {
        return uint96(kind) | (uint96(grade) << 8) | (uint96(level) << 16);
    }
}
