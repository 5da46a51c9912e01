// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {IERC4906} from "@openzeppelin/contracts/interfaces/IERC4906.sol";
import {ERC721Packed} from "./ERC721Packed.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// @title The Spark Era card NFT: hero cards, spaceships, equipment, materials and pet eggs in one collection.
/// @notice Each token carries 96 bits of attributes (layout in ItemData) in its ownership slot. The opener mints
/// (MINTER_ROLE); game upgrades rewrite attributes (MUTATOR_ROLE). tokenURI is baseURI + id + ".json", an https
/// URL on our site that serves the metadata from the chain's own data (so an upgrade shows at once).
/// A locked token (LOCKER_ROLE: the starship manager, for exploring or equipped ships and fitted equipment) stays
/// with its owner: transfers and burns revert with TokenLocked until it is unlocked.
contract SparkCard is IERC4906, ERC721Packed, AccessControl {
    using Strings for uint256;

    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");
    bytes32 public constant MUTATOR_ROLE = keccak256("MUTATOR_ROLE");
    bytes32 public constant LOCKER_ROLE = keccak256("LOCKER_ROLE");

    /// @notice Ids the game issues start here (core/constants.ts GAME_TOKEN_ID_BASE); mint and mintBatch stay below.
    uint256 public constant GAME_TOKEN_ID_BASE = 1_000_000_000;

    uint256 private _lastId;
    mapping(uint256 tokenId => bool) private _locked;
    string private _base;

    event DataMutated(uint256 indexed tokenId, uint96 oldData, uint96 newData);
    event LockChanged(uint256 indexed tokenId, bool locked);

    error EmptyBatch();
    error NotAGameId(uint256 tokenId);
    error TokenLocked(uint256 tokenId);

    constructor(address admin, string memory baseUri) ERC721("Spark Era Card", "SPARKCARD") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _base = baseUri;
    }

    /// @notice Moves every token's metadata; ERC-4906 tells marketplaces to refetch all of it.
    function setBaseURI(string calldata baseUri) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _base = baseUri;
        emit BatchMetadataUpdate(0, type(uint256).max);
    }

    function mint(address to, uint96 data) external onlyRole(MINTER_ROLE) returns (uint256 tokenId) {
        tokenId = ++_lastId;
        _mintWithData(to, tokenId, data);
    }

    /// @notice Mints one token per entry with consecutive ids; returns the first id.
    function mintBatch(address to, uint96[] calldata data) external onlyRole(MINTER_ROLE) returns (uint256 firstId) {
        if (data.length == 0) revert EmptyBatch();
        uint256 id = _lastId;
        firstId = id + 1;
        for (uint256 i = 0; i < data.length; ++i) {
            _mintWithData(to, ++id, data[i]);
        }
        _lastId = id;
    }

    /// @notice Mints a token the game issued, keeping the game's id (at or above GAME_TOKEN_ID_BASE, a range the
    /// sequential ids never reach) and its attributes: the asset manager does this when such an item is first
    /// claimed to the chain.
    function mintGameItem(address to, uint256 tokenId, uint96 data) external onlyRole(MINTER_ROLE) {
        if (tokenId < GAME_TOKEN_ID_BASE) revert NotAGameId(tokenId);
        _mintWithData(to, tokenId, data);
    }

    /// @notice Burns a token; the caller must own it or be approved for it.
    function burn(uint256 tokenId) external {
        _update(address(0), tokenId, _msgSender());
    }

    function mutateData(uint256 tokenId, uint96 data) external onlyRole(MUTATOR_ROLE) {
        _requireOwned(tokenId);
        uint96 old = _dataOf(tokenId);
        _setData(tokenId, data);
        emit DataMutated(tokenId, old, data);
        emit MetadataUpdate(tokenId);
    }

    function setLocked(uint256 tokenId, bool locked) external onlyRole(LOCKER_ROLE) {
        _requireOwned(tokenId);
        _locked[tokenId] = locked;
        emit LockChanged(tokenId, locked);
    }

    function isLocked(uint256 tokenId) external view returns (bool) {
        return _locked[tokenId];
    }

    function dataOf(uint256 tokenId) external view returns (uint96) {
        _requireOwned(tokenId);
        return _dataOf(tokenId);
    }

    /// @notice Ids minted so far (burnt ones included); ids run from 1 to totalMinted().
    function totalMinted() external view returns (uint256) {
        return _lastId;
    }

    /// @notice The tokens `owner` holds among ids [start, stop), with their data. A paged scan instead of
    /// ERC721Enumerable, whose extra writes per mint would not fit a 100-ship batch open in 5M gas.
    function tokensOfOwnerIn(address owner, uint256 start, uint256 stop)
        external
        view
        returns (uint256[] memory tokenIds, uint96[] memory data)
    {
        if (stop > _lastId + 1) stop = _lastId + 1;
        if (start < 1) start = 1;
        uint256 found;
        uint256[] memory ids = new uint256[](stop > start ? stop - start : 0);
        for (uint256 id = start; id < stop; ++id) {
            if (_ownerOf(id) == owner) ids[found++] = id;
        }
        tokenIds = new uint256[](found);
        data = new uint96[](found);
        for (uint256 i = 0; i < found; ++i) {
            tokenIds[i] = ids[i];
            data[i] = _dataOf(ids[i]);
        }
    }

    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        _requireOwned(tokenId);
        return string.concat(_base, tokenId.toString(), ".json");
    }

    /// @dev The lock is checked after the move (a revert undoes it) and only when a token leaves an owner, so
    /// mints pay nothing for it.
    function _update(address to, uint256 tokenId, address auth) internal override returns (address from) {
        from = super._update(to, tokenId, auth);
        if (from != address(0) && _locked[tokenId]) revert TokenLocked(tokenId);
    }

    function supportsInterface(bytes4 interfaceId)
        public
        view
        override(IERC165, ERC721, AccessControl)
        returns (bool)
    {
        return interfaceId == bytes4(0x49064906) || super.supportsInterface(interfaceId);
    }
}
