// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC1155} from "@openzeppelin/contracts/token/ERC1155/IERC1155.sol";
import {ERC165Checker} from "@openzeppelin/contracts/utils/introspection/ERC165Checker.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {SignedClaims} from "./SignedClaims.sol";

/// @notice The card collection's lazy mint of game-issued items (SparkCard.mintGameItem).
interface IGameItemMinter {
    function mintGameItem(address to, uint256 tokenId, uint96 data) external;
}

/// @notice The stackable items collection (SparkItems): minted on a kind-2 claim, burnt on a swap into the game.
interface IStackableItems {
    function mint(address to, uint256 id, uint256 amount) external;
    function burn(address account, uint256 id, uint256 value) external;
}

/// @title Moves assets between the game and the chain (docs/architecture.md "Where items live").
/// @notice Game -> chain: the game server signs a claim and anyone may submit it; the asset leaves this
/// contract's custody (tokens from its treasury, NFTs it holds) to the claim's account.
/// Chain -> game: a player swaps a supported token or NFT into custody; the backend indexer credits the game
/// from the SwappedToGame event.
///
/// Claim content (exactly 288 bytes):
///   abi.encode(address account, uint8 kind, address asset, uint256 idOrAmount, uint96 data, uint256 nonce,
///              uint256 deadline, uint256 chainId, address assetManager)
/// kind 0 = ERC-20 amount, 1 = ERC-721 token id, 2 = ERC-1155 amount in whole units (asset = the SparkItems
/// collection, idOrAmount = the amount, data = the 1155 token id: stacks are minted on claim and burnt on swap,
/// never held in custody). `data` is the item's attribute word: an NFT the game issued that
/// has never been on chain is minted on its first claim with it (lazy mint; this contract holds the collection's
/// MINTER_ROLE), and an NFT in custody is handed over as it is. Tokens carry 0. The signature is EIP-191 personal_sign over
/// keccak256(claimContent), i.e. ECDSA over MessageHashUtils.toEthSignedMessageHash(keccak256(claimContent)),
/// v = 27 or 28. Each (account, nonce) pays out once.
contract AssetManager is Ownable, SignedClaims {
    using SafeERC20 for IERC20;

    uint8 public constant KIND_TOKEN = 0;
    uint8 public constant KIND_NFT = 1;
    uint8 public constant KIND_ITEM1155 = 2;

    struct Swap {
        address account;
        uint8 kind;
        address asset;
        uint256 idOrAmount;
        uint256 gameTag;
        uint256 timestamp;
    }

    address public claimSigner;
    /// @notice Assets that may be swapped into the game.
    mapping(address asset => bool) public supportedAsset;
    uint256 public swapCount;

    mapping(uint256 swapId => Swap) private _swaps;
    /// @dev The ERC-1155 token id of a kind-2 swap (Swap.idOrAmount holds its amount).
    mapping(uint256 swapId => uint256) private _swapItemIds;

    event Claimed(address indexed account, uint256 indexed nonce, address indexed asset, uint8 kind, uint256 idOrAmount);
    event SwappedToGame(
        uint256 indexed swapId,
        address indexed account,
        address indexed asset,
        uint8 kind,
        uint256 idOrAmount,
        uint256 gameTag
    );
    event SwappedItemToGame(
        uint256 indexed swapId,
        address indexed account,
        address indexed asset,
        uint256 id,
        uint256 amount,
        uint256 gameTag
    );
    event ClaimSignerChanged(address claimSigner);
    event AssetSupportChanged(address indexed asset, bool supported);

    error NftNotInCustody(address asset, uint256 tokenId);
    error UnsupportedAsset(address asset);
    error ZeroAmount();
    error UnknownSwap(uint256 swapId);
    error ZeroAccount();

    constructor(address claimSigner_, address owner_) Ownable(owner_) {
        claimSigner = claimSigner_;
        emit ClaimSignerChanged(claimSigner_);
    }

    // --- game -> chain ---

    function claimToken(address account, bytes calldata claimContent, uint8 v, bytes32 r, bytes32 s) external {
        Claim memory c = _useClaim(account, KIND_TOKEN, claimContent, v, r, s, claimSigner);
        IERC20(c.asset).safeTransfer(account, c.idOrAmount);
        emit Claimed(account, c.nonce, c.asset, KIND_TOKEN, c.idOrAmount);
    }

    function claimNft(address account, bytes calldata claimContent, uint8 v, bytes32 r, bytes32 s) external {
        Claim memory c = _useClaim(account, KIND_NFT, claimContent, v, r, s, claimSigner);
        if (_exists(c.asset, c.idOrAmount)) {
            if (IERC721(c.asset).ownerOf(c.idOrAmount) != address(this)) revert NftNotInCustody(c.asset, c.idOrAmount);
            IERC721(c.asset).safeTransferFrom(address(this), account, c.idOrAmount);
        } else {
            IGameItemMinter(c.asset).mintGameItem(account, c.idOrAmount, c.data);
        }
        emit Claimed(account, c.nonce, c.asset, KIND_NFT, c.idOrAmount);
    }

    /// @notice Mints `amount` (whole units) of the 1155 id in the claim's `data` to `account`.
    function claimItem1155(address account, bytes calldata claimContent, uint8 v, bytes32 r, bytes32 s) external {
        Claim memory c = _useClaim(account, KIND_ITEM1155, claimContent, v, r, s, claimSigner);
        if (c.idOrAmount == 0) revert ZeroAmount();
        IStackableItems(c.asset).mint(account, c.data, c.idOrAmount);
        emit Claimed(account, c.nonce, c.asset, KIND_ITEM1155, c.idOrAmount);
    }

    // --- chain -> game ---

    /// @notice Moves `amount` of a supported token into custody (needs approve first) and records the swap.
    function swapTokenToGame(address token, uint256 amount, uint256 gameTag) external returns (uint256 swapId) {
        _requireToken(token);
        if (amount == 0) revert ZeroAmount();
        IERC20(token).safeTransferFrom(msg.sender, address(this), amount);
        return _recordSwap(msg.sender, KIND_TOKEN, token, amount, gameTag);
    }

    /// @notice Moves an NFT of a supported collection into custody (needs approve/setApprovalForAll first).
    function swapNftToGame(address nft, uint256 tokenId, uint256 gameTag) external returns (uint256 swapId) {
        _requireNft(nft);
        // transferFrom checks that the caller owns the token; custody needs no receiver hook.
        IERC721(nft).transferFrom(msg.sender, address(this), tokenId);
        return _recordSwap(msg.sender, KIND_NFT, nft, tokenId, gameTag);
    }

    /// @notice swapNftToGame for another player: the caller's token (a contract's, e.g. Trading.sendNft, which
    /// holds it for the moment) goes into custody and `account`'s game inventory is credited.
    function swapNftToGameFor(address nft, uint256 tokenId, uint256 gameTag, address account)
        external
        returns (uint256 swapId)
    {
        _requireNft(nft);
        if (account == address(0)) revert ZeroAccount();
        IERC721(nft).transferFrom(msg.sender, address(this), tokenId);
        return _recordSwap(account, KIND_NFT, nft, tokenId, gameTag);
    }

    /// @notice Burns `amount` of the caller's 1155 `id` (needs setApprovalForAll(this, true) on the collection)
    /// and records the swap; the game is credited from SwappedItemToGame.
    function swapItem1155ToGame(address items, uint256 id, uint256 amount, uint256 gameTag)
        external
        returns (uint256 swapId)
    {
        if (!supportedAsset[items] || !ERC165Checker.supportsInterface(items, type(IERC1155).interfaceId)) {
            revert UnsupportedAsset(items);
        }
        if (amount == 0) revert ZeroAmount();
        IStackableItems(items).burn(msg.sender, id, amount);
        swapId = ++swapCount;
        _swaps[swapId] = Swap(msg.sender, KIND_ITEM1155, items, amount, gameTag, block.timestamp);
        _swapItemIds[swapId] = id;
        emit SwappedItemToGame(swapId, msg.sender, items, id, amount, gameTag);
    }

    /// @dev ERC-20 and ERC-721 share transferFrom's selector: an NFT path given a token would take the caller's
    /// tokens as a "token id" and credit nothing, and the token path given an NFT the reverse. Each checks the kind.
    function _requireNft(address nft) private view {
        if (!supportedAsset[nft] || !ERC165Checker.supportsInterface(nft, type(IERC721).interfaceId)) revert UnsupportedAsset(nft);
    }

    function _requireToken(address token) private view {
        if (
            !supportedAsset[token] || ERC165Checker.supportsInterface(token, type(IERC721).interfaceId)
                || ERC165Checker.supportsInterface(token, type(IERC1155).interfaceId)
        ) revert UnsupportedAsset(token);
    }

    function querySwap(uint256 swapId) external view returns (Swap memory) {
        if (swapId == 0 || swapId > swapCount) revert UnknownSwap(swapId);
        return _swaps[swapId];
    }

    /// @notice The 1155 token id of a kind-2 swap; 0 for token and NFT swaps.
    function querySwapItemId(uint256 swapId) external view returns (uint256) {
        if (swapId == 0 || swapId > swapCount) revert UnknownSwap(swapId);
        return _swapItemIds[swapId];
    }

    // --- administration ---

    function setClaimSigner(address claimSigner_) external onlyOwner {
        claimSigner = claimSigner_;
        emit ClaimSignerChanged(claimSigner_);
    }

    function setSupportedAsset(address asset, bool supported) external onlyOwner {
        supportedAsset[asset] = supported;
        emit AssetSupportChanged(asset, supported);
    }

    // --- internals ---

    /// @dev Whether the token was ever minted and not burnt: ownerOf reverts for any other id.
    function _exists(address nft, uint256 tokenId) private view returns (bool) {
        try IERC721(nft).ownerOf(tokenId) returns (address) {
            return true;
        } catch {
            return false;
        }
    }

    function _recordSwap(address account, uint8 kind, address asset, uint256 idOrAmount, uint256 gameTag)
        private
        returns (uint256 swapId)
    {
        swapId = ++swapCount;
        _swaps[swapId] = Swap(account, kind, asset, idOrAmount, gameTag, block.timestamp);
        emit SwappedToGame(swapId, account, asset, kind, idOrAmount, gameTag);
    }
}
