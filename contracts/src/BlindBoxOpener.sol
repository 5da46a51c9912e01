// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BlindBox} from "./BlindBox.sol";
import {SparkCard} from "./SparkCard.sol";
import {Drops} from "./Drops.sol";

/// @title Opens loot boxes: burns each box and mints its contents as SparkCard tokens.
/// @notice The caller must have called box.setApprovalForAll(opener, true), and the opener holds the card's
/// MINTER_ROLE. Randomness is a block-based draw; see _draw for its limits.
contract BlindBoxOpener {
    uint256 public constant MIN_BATCH = 1;
    uint256 public constant MAX_BATCH = 10;

    BlindBox public immutable box;
    SparkCard public immutable card;

    uint256 private _nonce;

    event BoxOpened(address indexed owner, uint256 indexed boxId, uint256 indexed boxType, uint256[] mintedIds);

    error InvalidOpenCount(uint256 count, uint256 min, uint256 max);
    error NotEnoughBoxes(uint256 owned, uint256 requested);
    error NotEnoughBoxesOfType(uint256 boxType, uint256 owned, uint256 requested);
    error NotBoxOwner(uint256 boxId);
    error OpenerNotApproved();

    constructor(BlindBox box_, SparkCard card_) {
        box = box_;
        card = card_;
    }

    /// @notice The NFT contract that receives the opened items.
    function assetAddr() external view returns (address) {
        return address(card);
    }

    /// @notice The nftType code a box type mainly yields (0 hero card, 4 spaceship); reverts for unknown types.
    function targetTypeOfBox(uint256 boxType) external pure returns (uint8) {
        return Drops.targetType(boxType);
    }

    /// @notice Opens `count` (1-10) of the caller's boxes, most recently received first.
    function batchOpen(uint256 count) external {
        _checkCount(count);
        uint256 owned = box.balanceOf(msg.sender);
        if (owned < count) revert NotEnoughBoxes(owned, count);
        uint256[] memory boxIds = new uint256[](count);
        for (uint256 i = 0; i < count; ++i) {
            boxIds[i] = box.tokenOfOwnerByIndex(msg.sender, owned - 1 - i);
        }
        _open(boxIds);
    }

    /// @notice Opens `count` (1-10) of the caller's boxes of `boxType`, most recently received first: batchOpen(count)
    /// picks the latest boxes whatever their type, so a page that opens "N of this type" names the type here.
    function batchOpenOfType(uint256 boxType, uint256 count) external {
        _checkCount(count);
        uint256 owned = box.balanceOf(msg.sender);
        uint256[] memory boxIds = new uint256[](count);
        uint256 found;
        for (uint256 i = owned; i > 0 && found < count; --i) {
            uint256 boxId = box.tokenOfOwnerByIndex(msg.sender, i - 1);
            if (box.boxTypeOf(boxId) == boxType) boxIds[found++] = boxId;
        }
        if (found < count) revert NotEnoughBoxesOfType(boxType, found, count);
        _open(boxIds);
    }

    /// @notice Opens the given boxes (1-10), all of which the caller must own.
    function batchOpenWithIds(uint256[] calldata boxIds) external {
        _checkCount(boxIds.length);
        for (uint256 i = 0; i < boxIds.length; ++i) {
            if (box.ownerOf(boxIds[i]) != msg.sender) revert NotBoxOwner(boxIds[i]);
        }
        _open(boxIds);
    }

    function _open(uint256[] memory boxIds) private {
        if (!box.isApprovedForAll(msg.sender, address(this))) revert OpenerNotApproved();
        for (uint256 i = 0; i < boxIds.length; ++i) {
            uint256 boxId = boxIds[i];
            uint256 boxType = box.boxTypeOf(boxId);
            box.burn(boxId);
            uint96[] memory items = Drops.contents(boxType, _draw(boxId));
            uint256 firstId = card.mintBatch(msg.sender, items);
            uint256[] memory minted = new uint256[](items.length);
            for (uint256 j = 0; j < items.length; ++j) {
                minted[j] = firstId + j;
            }
            emit BoxOpened(msg.sender, boxId, boxType, minted);
        }
    }

    /// @dev Block-based randomness: prevrandao and the previous block hash mixed with the caller, the box and a
    /// nonce. Good enough for a local demo, NOT for value-bearing production draws: the block producer knows or
    /// influences both inputs (and may withhold a block it dislikes), and a contract caller can simulate the draw
    /// in the same block and revert when it is unfavourable. Production needs a VRF (e.g. Chainlink VRF) with a
    /// request/fulfil split so the outcome is unknown when the box is committed.
    function _draw(uint256 boxId) private returns (uint256) {
        return uint256(keccak256(abi.encode(block.prevrandao, blockhash(block.number - 1), msg.sender, boxId, ++_nonce)));
    }

    function _checkCount(uint256 count) private pure {
        if (count < MIN_BATCH || count > MAX_BATCH) revert InvalidOpenCount(count, MIN_BATCH, MAX_BATCH);
    }
}
