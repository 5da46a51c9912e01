// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ItemData} from "./ItemData.sol";

/// @title What each loot box type holds (mirrored in app/domain/boxes.ts content texts).
/// @notice Weights are percentages for rarity Common/Rare/Epic/Legend; an equipment piece's type (1-4) is drawn
/// with its box's rarity weights, shifted by one.
///   4 Standard:   1 hero card (70/25/5/0) + 1 material
///   5 Premium:    1 hero card (40/45/13/2) + 1 equipment + 1 material
///   6 Epic:       1 hero card (10/50/33/7) + 1 equipment + 1 material
///   7 Legendary:  1 hero card (0/20/55/25) + 1 equipment + 1 pet egg
///   18 V3-Galaxy: 3 hero cards (30/40/22/8) + 1 pet egg
///   17 Spaceship: 10 advanced spaceships, type II/III/IV (60/30/10), 7 stats each
/// Materials are DarkIron/Silver/Gold 60/30/10; camps, identities, professions, egg types and equipment codes
/// are uniform; everything starts at level 1.
library Drops {
    uint256 internal constant SHIPS_PER_SPACESHIP_BOX = 10;

    error UnknownBoxType(uint256 boxType);

    /// @notice The nftType code (product-spec card type codes) a box type mainly yields.
    function targetType(uint256 boxType) internal pure returns (uint8) {
        if (boxType == 17) return ItemData.SPACESHIP;
        if (boxType == 4 || boxType == 5 || boxType == 6 || boxType == 7 || boxType == 18) return ItemData.CARD;
        revert UnknownBoxType(boxType);
    }

    /// @notice The items one box of `boxType` yields for the random `seed`.
    function contents(uint256 boxType, uint256 seed) internal pure returns (uint96[] memory items) {
        if (boxType == 17) {
            items = new uint96[](SHIPS_PER_SPACESHIP_BOX);
            for (uint256 i = 0; i < SHIPS_PER_SPACESHIP_BOX; ++i) {
                items[i] = _ship(_word(seed, i));
            }
            return items;
        }
        if (boxType == 18) {
            uint8[4] memory galaxy = [30, 40, 22, 8];
            items = new uint96[](4);
            for (uint256 i = 0; i < 3; ++i) {
                items[i] = _card(_word(seed, i), galaxy);
            }
            items[3] = _egg(_word(seed, 3));
            return items;
        }
        if (boxType == 4) {
            items = new uint96[](2);
            items[0] = _card(_word(seed, 0), [70, 25, 5, 0]);
            items[1] = _material(_word(seed, 1));
            return items;
        }
        uint8[4] memory weights;
        if (boxType == 5) weights = [40, 45, 13, 2];
        else if (boxType == 6) weights = [10, 50, 33, 7];
        else if (boxType == 7) weights = [0, 20, 55, 25];
        else revert UnknownBoxType(boxType);

        items = new uint96[](3);
        items[0] = _card(_word(seed, 0), weights);
        items[1] = _equipment(_word(seed, 1), weights);
        items[2] = boxType == 7 ? _egg(_word(seed, 2)) : _material(_word(seed, 2));
    }

    function _card(uint256 word, uint8[4] memory rarityWeights) private pure returns (uint96) {
        return ItemData.card(
            _weighted(_roll(word, 0, 100), rarityWeights), // rarity 0-3
            uint8(_roll(word, 1, 4)), // camp
            uint8(_roll(word, 2, 5)), // identity
            uint8(_roll(word, 3, 5)), // profession
            1
        );
    }

    function _ship(uint256 word) private pure returns (uint96) {
        uint8 shipType = 2 + _weighted(_roll(word, 0, 100), [60, 30, 10, 0]);
        uint8[7] memory stats;
        for (uint256 i = 0; i < 7; ++i) {
            stats[i] = uint8(10 + 15 * uint256(shipType) + _roll(word, 1 + i, 40));
        }
        return ItemData.spaceship(shipType, 1, stats);
    }

    function _equipment(uint256 word, uint8[4] memory rarityWeights) private pure returns (uint96) {
        return ItemData.equipment(
            1 + _weighted(_roll(word, 0, 100), rarityWeights), uint8(1 + _roll(word, 1, 17)), 1
        );
    }

    function _material(uint256 word) private pure returns (uint96) {
        return ItemData.material(_weighted(_roll(word, 0, 100), [60, 30, 10, 0]));
    }

    function _egg(uint256 word) private pure returns (uint96) {
        return ItemData.egg(uint8(1 + _roll(word, 0, 3)));
    }

    /// @dev One 256-bit word per item; each field reads its own 16-bit slice of it.
    function _word(uint256 seed, uint256 index) private pure returns (uint256) {
        return uint256(keccak256(abi.encode(seed, index)));
    }

    function _roll(uint256 word, uint256 slice, uint256 range) private pure returns (uint256) {
        return uint16(word >> (16 * slice)) % range;
    }

    /// @dev Branch-free, so the gas of an open does not depend on the draw: eth_estimateGas runs with another
    /// prevrandao than the mined block, and a draw-dependent cost made wallets that send the bare estimate run
    /// out of gas now and then.
    function _weighted(uint256 roll, uint8[4] memory weights) private pure returns (uint8 index) {
        uint256 cumulative;
        for (uint256 i = 0; i < 3; ++i) {
            cumulative += weights[i];
            assembly ("memory-safe") {
                index := add(index, iszero(lt(roll, cumulative)))
            }
        }
    }
}
