// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";

/// @title OpenZeppelin ERC-721 with the owner and 96 bits of item data packed into one storage slot.
/// @notice Opening ten spaceship boxes mints 100 ships; with owner and data in separate slots that costs ~47k gas
/// per ship and breaks the 5M batch-open gas limit, packed it is ~25k. OZ routes every ownership read through
/// _ownerOf, every change through _update and every balance read through balanceOf, so overriding those three
/// (plus _increaseBalance) moves the storage without touching the rest of OZ's logic.
abstract contract ERC721Packed is ERC721 {
    uint256 private constant OWNER_MASK = type(uint160).max;

    /// @dev Low 160 bits: owner. High 96 bits: item data. Zero: not minted or burnt.
    mapping(uint256 tokenId => uint256) private _records;
    mapping(address owner => uint256) private _balances;
    /// @dev Tokens each owner holds per nftType (the data's low byte), so "does this wallet hold a PSE" is one read.
    mapping(address owner => mapping(uint8 nftType => uint256)) private _typeBalances;

    function balanceOf(address owner) public view virtual override returns (uint256) {
        if (owner == address(0)) revert ERC721InvalidOwner(address(0));
        return _balances[owner];
    }

    /// @notice How many tokens of `nftType` (product §3 card type codes) `owner` holds.
    function balanceOfType(address owner, uint8 nftType) external view returns (uint256) {
        return _typeBalances[owner][nftType];
    }

    function _ownerOf(uint256 tokenId) internal view virtual override returns (address) {
        return address(uint160(_records[tokenId]));
    }

    function _dataOf(uint256 tokenId) internal view returns (uint96) {
        return uint96(_records[tokenId] >> 160);
    }

    /// @dev Attaches the data first, so the mint counts the token under its nftType; the owner bits are kept, so
    /// minting an existing id still reverts in _mint.
    function _mintWithData(address to, uint256 tokenId, uint96 data) internal {
        _setData(tokenId, data);
        _mint(to, tokenId);
    }

    /// @dev A data change that changes the nftType moves the owner's count to the new type.
    function _setData(uint256 tokenId, uint96 data) internal {
        uint256 record = _records[tokenId];
        address owner = address(uint160(record));
        uint8 oldType = uint8(record >> 160);
        uint8 newType = uint8(data);
        if (owner != address(0) && oldType != newType) {
            unchecked {
                _typeBalances[owner][oldType] -= 1;
                _typeBalances[owner][newType] += 1;
            }
        }
        _records[tokenId] = (uint256(data) << 160) | (record & OWNER_MASK);
    }

    /// @dev OZ's _update with the packed record; a burn clears the whole slot (data included).
    function _update(address to, uint256 tokenId, address auth) internal virtual override returns (address) {
        uint256 record = _records[tokenId];
        address from = address(uint160(record));
        uint8 nftType = uint8(record >> 160);

        if (auth != address(0)) {
            _checkAuthorized(from, auth, tokenId);
        }
        if (from != address(0)) {
            _approve(address(0), tokenId, address(0), false);
            unchecked {
                _balances[from] -= 1;
                _typeBalances[from][nftType] -= 1;
            }
        }
        if (to != address(0)) {
            unchecked {
                _balances[to] += 1;
                _typeBalances[to][nftType] += 1;
            }
        }
        _records[tokenId] = to == address(0) ? 0 : (record & ~OWNER_MASK) | uint160(to);

        emit Transfer(from, to, tokenId);
        return from;
    }

    function _increaseBalance(address account, uint128 value) internal virtual override {
        unchecked {
            _balances[account] += value;
        }
    }
}
