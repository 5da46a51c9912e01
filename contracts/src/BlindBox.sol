// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721Enumerable} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721Enumerable.sol";
import {ERC721Burnable} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721Burnable.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// @title Loot box NFTs and their registry.
/// @notice The sale forges boxes (MINTER_ROLE); the opener burns them, which the owner allows with
/// setApprovalForAll(opener, true). Enumerable so queryUserBoxes needs no indexer; a wallet holds few boxes.
contract BlindBox is ERC721Enumerable, ERC721Burnable, AccessControl {
    using Strings for uint256;

    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    /// @notice Box type of every box ever forged (kept after burning so history stays readable).
    mapping(uint256 boxId => uint256) public boxTypeOf;

    uint256 private _lastId;
    address private _opener;
    string private _base;

    event BlindBoxForged(address indexed owner, uint256 indexed boxId, uint256 indexed boxType);
    event OpenerChanged(address opener);
    event BaseURIChanged(string baseURI);

    error InvalidBoxType(uint256 boxType);

    constructor(address admin, string memory baseURI_) ERC721("Spark Era Loot Box", "SPARKBOX") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _base = baseURI_;
    }

    /// @notice Mints `quantity` boxes of `boxType` to `to`, one BlindBoxForged event each.
    function forge(address to, uint256 boxType, uint256 quantity)
        external
        onlyRole(MINTER_ROLE)
        returns (uint256[] memory boxIds)
    {
        if (boxType == 0) revert InvalidBoxType(boxType);
        boxIds = new uint256[](quantity);
        uint256 id = _lastId;
        for (uint256 i = 0; i < quantity; ++i) {
            ++id;
            boxTypeOf[id] = boxType;
            _mint(to, id);
            boxIds[i] = id;
            emit BlindBoxForged(to, id, boxType);
        }
        _lastId = id;
    }

    /// @notice The boxes `owner` holds, with the type of each.
    function queryUserBoxes(address owner) external view returns (uint256[] memory boxIds, uint256[] memory boxTypes) {
        uint256 count = balanceOf(owner);
        boxIds = new uint256[](count);
        boxTypes = new uint256[](count);
        for (uint256 i = 0; i < count; ++i) {
            uint256 id = tokenOfOwnerByIndex(owner, i);
            boxIds[i] = id;
            boxTypes[i] = boxTypeOf[id];
        }
    }

    function queryOpenerAddr() external view returns (address) {
        return _opener;
    }

    function setOpener(address opener) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _opener = opener;
        emit OpenerChanged(opener);
    }

    function setBaseURI(string calldata baseURI_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _base = baseURI_;
        emit BaseURIChanged(baseURI_);
    }

    /// @notice `{baseURI}{boxId}/{boxType}`: clients take the box type from the last path segment.
    function tokenURI(uint256 boxId) public view override returns (string memory) {
        _requireOwned(boxId);
        return string.concat(_base, boxId.toString(), "/", boxTypeOf[boxId].toString());
    }

    function _update(address to, uint256 tokenId, address auth)
        internal
        override(ERC721, ERC721Enumerable)
        returns (address)
    {
        return super._update(to, tokenId, auth);
    }

    function _increaseBalance(address account, uint128 value) internal override(ERC721, ERC721Enumerable) {
        super._increaseBalance(account, value);
    }

    function supportsInterface(bytes4 interfaceId)
        public
        view
        override(ERC721, ERC721Enumerable, AccessControl)
        returns (bool)
    {
        return super.supportsInterface(interfaceId);
    }
}
