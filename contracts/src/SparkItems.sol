// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {ERC1155Supply} from "@openzeppelin/contracts/token/ERC1155/extensions/ERC1155Supply.sol";
import {ERC1155Burnable} from "@openzeppelin/contracts/token/ERC1155/extensions/ERC1155Burnable.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

/// @title Spark Era stackable items (ERC-1155): the game's fungible stacks, materials for now.
/// @notice id = nftType * 1000 + code (core/item-tokens.ts), so 8000 DarkIron, 8001 Silver, 8002 Gold. The asset
/// manager mints on a game -> chain claim (MINTER_ROLE) and burns on a swap into the game (the holder's
/// setApprovalForAll); nothing sits in custody. uri(id) keeps ERC-1155's literal "{id}", which clients replace
/// with the id as 64 lowercase hex digits.
contract SparkItems is ERC1155Supply, ERC1155Burnable, AccessControl {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    string private _base;

    event BaseURIChanged(string baseURI);

    constructor(address admin, string memory baseUri) ERC1155("") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _base = baseUri;
    }

    function mint(address to, uint256 id, uint256 amount) external onlyRole(MINTER_ROLE) {
        _mint(to, id, amount, "");
    }

    /// @notice `{baseUri}{id}.json`, the same for every id: the ERC-1155 metadata URI template.
    function uri(uint256) public view override returns (string memory) {
        return string.concat(_base, "{id}.json");
    }

    function setBaseURI(string calldata baseUri) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _base = baseUri;
        emit BaseURIChanged(baseUri);
    }

    function _update(address from, address to, uint256[] memory ids, uint256[] memory values)
        internal
        override(ERC1155, ERC1155Supply)
    {
        super._update(from, to, ids, values);
    }

    function supportsInterface(bytes4 interfaceId) public view override(ERC1155, AccessControl) returns (bool) {
        return super.supportsInterface(interfaceId);
    }
}
