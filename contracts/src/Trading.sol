// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC1155} from "@openzeppelin/contracts/token/ERC1155/IERC1155.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {TradingSettlement} from "./TradingSettlement.sol";

/// @notice The asset manager's swap on another player's behalf (AssetManager.swapNftToGameFor).
interface IGameSwapFor {
    function swapNftToGameFor(address nft, uint256 tokenId, uint256 gameTag, address account)
        external
        returns (uint256 swapId);
}

/// @notice SparkCard's packed item data (byte 0 the nftType, byte 1 the grade, ...), read to check a collection offer.
interface IItemData {
    function dataOf(uint256 tokenId) external view returns (uint96);
}

/// @notice ListingCancelled is both an event and an error (issue 28's names) and one contract cannot declare both, so
/// the event lives here; Trading emits it, and it is in Trading's ABI all the same.
library TradingEvents {
    event ListingCancelled(bytes32 indexed orderHash, address indexed seller);
}

/// @title Spark Era Trading: Seaport-like signed listings filled on chain, plus transfers and sends to a player.
/// @notice A seller signs an EIP-712 Listing off chain (docs/decisions/0015-trading-contract.md) after approving
/// this contract as operator on the collection; a buyer fills it whole with quickSale, paying `price` in an allowed
/// ERC-20 or in BNB (currency address 0). The seller gets price - fee, feeRecipient the fee (feeBps of the price,
/// rounded down). A listing is refused once filled, cancelled, expired, signed under an older counter (cancel all:
/// incrementCounter), re-priced (its signature no longer matches), or when the seller no longer holds the item.
/// The order hash is the full EIP-712 digest (domain included), so a listing is bound to this chain and contract.
/// Payment, the fee and moving the item are TradingSettlement's.
contract Trading is EIP712, ReentrancyGuard, Ownable, TradingSettlement {
    struct Listing {
        address seller;
        address collection;
        uint8 standard;
        uint256 tokenId;
        uint256 amount;
        address currency;
        uint256 price;
        uint256 expiry;
        uint256 salt;
        uint256 counter;
    }

    /// @notice A buyer's signed offer (decision 0024): ERC-20 only (BNB cannot be pulled). dataMask 0: the one token
    /// `tokenId`. dataMask non-zero: a collection offer for any ERC-721 token of `collection` whose item data has
    /// (data & dataMask) == dataValue (e.g. nftType and grade: "any Legend spaceship"); tokenId is then 0.
    struct TradeOffer {
        address buyer;
        address collection;
        uint8 standard;
        uint256 tokenId;
        uint96 dataMask;
        uint96 dataValue;
        uint256 amount;
        address currency;
        uint256 price;
        uint256 expiry;
        uint256 salt;
        uint256 counter;
    }

    bytes32 public constant OFFER_TYPEHASH = keccak256(
        "TradeOffer(address buyer,address collection,uint8 standard,uint256 tokenId,uint96 dataMask,uint96 dataValue,uint256 amount,address currency,uint256 price,uint256 expiry,uint256 salt,uint256 counter)"
    );
    bytes32 public constant LISTING_TYPEHASH = keccak256(
        "Listing(address seller,address collection,uint8 standard,uint256 tokenId,uint256 amount,address currency,uint256 price,uint256 expiry,uint256 salt,uint256 counter)"
    );
    uint8 public constant ORDER_OPEN = 0;
    uint8 public constant ORDER_FILLED = 1;
    uint8 public constant ORDER_CANCELLED = 2;
    /// @notice listingState only: orderStatus stores what happened to a hash, never these two, which follow from
    /// the clock and the seller's counter.
    uint8 public constant ORDER_EXPIRED = 3;
    uint8 public constant ORDER_VOIDED = 4;
    /// @notice The gameTag sendNft passes to the asset manager: 1, as a player's own swap into the game.
    uint256 public constant SEND_GAME_TAG = 1;

    IGameSwapFor public immutable assetManager;

    mapping(address currency => bool) public currencyAllowed;
    mapping(address seller => uint256) public counterOf;
    mapping(bytes32 orderHash => uint8) public orderStatus;

    event Sale(
        bytes32 indexed orderHash,
        address indexed seller,
        address indexed buyer,
        address collection,
        uint256 tokenId,
        uint256 amount,
        address currency,
        uint256 price,
        uint256 fee
    );
    event OfferAccepted(
        bytes32 indexed orderHash,
        address indexed buyer,
        address indexed seller,
        address collection,
        uint256 tokenId,
        uint256 amount,
        address currency,
        uint256 price,
        uint256 fee
    );
    event OfferCancelled(bytes32 indexed orderHash, address indexed buyer);
    event CounterIncremented(address indexed seller, uint256 counter);
    event NftSent(address indexed from, address indexed account, address collection, uint256 tokenId, uint256 swapId);
    event CurrencyChanged(address indexed currency, bool allowed);

    error ListingExpired(uint256 expiry);
    error ListingFilled(bytes32 orderHash);
    error ListingCancelled(bytes32 orderHash);
    error CounterMismatch(uint256 signed, uint256 current);
    error InvalidSignature();
    error CurrencyNotAllowed(address currency);
    error NotSeller();
    error SelfPurchase();
    error LengthMismatch();
    // Additions to the agreed interface (issue 28):
    error NothingToTransfer();
    // Offers (issue 30, decision 0024):
    error OfferExpired(uint256 expiry);
    error OfferFilled(bytes32 orderHash);
    error OfferWithdrawn(bytes32 orderHash);
    error NotBuyer();
    error ItemNotOffered(uint256 tokenId);

    constructor(address owner_, address assetManager_, uint16 feeBps_, address feeRecipient_)
        EIP712("Spark Era Trading", "1")
        Ownable(owner_)
    {
        assetManager = IGameSwapFor(assetManager_);
        _setFee(feeBps_, feeRecipient_);
    }

    // --- listings ---

    /// @notice Fills `listing` for msg.sender: the item goes to the buyer, price - fee to the seller, fee to
    /// feeRecipient. BNB listings take exactly `price` as msg.value; ERC-20 ones pull `price` (approve first).
    function quickSale(Listing calldata listing, bytes calldata signature) external payable nonReentrant {
        bytes32 orderHash = hashListing(listing);
        _checkShape(listing.standard, listing.amount);
        uint8 status = orderStatus[orderHash];
        if (status == ORDER_FILLED) revert ListingFilled(orderHash);
        if (status == ORDER_CANCELLED) revert ListingCancelled(orderHash);
        if (block.timestamp > listing.expiry) revert ListingExpired(listing.expiry);
        uint256 current = counterOf[listing.seller];
        if (listing.counter != current) revert CounterMismatch(listing.counter, current);
        if (!currencyAllowed[listing.currency]) revert CurrencyNotAllowed(listing.currency);
        // EOA signatures and ERC-1271 contract wallets alike.
        if (!SignatureChecker.isValidSignatureNow(listing.seller, orderHash, signature)) revert InvalidSignature();
        if (msg.sender == listing.seller) revert SelfPurchase();
        _checkHolds(listing.collection, listing.standard, listing.tokenId, listing.amount, listing.seller);

        orderStatus[orderHash] = ORDER_FILLED;
        uint256 fee = _feeOf(listing.price);
        _collectPayment(listing.currency, listing.seller, listing.price, fee);
        _moveItem(listing.collection, listing.standard, listing.seller, msg.sender, listing.tokenId, listing.amount);
        emit Sale(
            orderHash,
            listing.seller,
            msg.sender,
            listing.collection,
            listing.tokenId,
            listing.amount,
            listing.currency,
            listing.price,
            fee
        );
    }

    /// @notice Cancels the caller's listings one by one (a filled one cannot be cancelled).
    function cancel(Listing[] calldata listings) external {
        for (uint256 i = 0; i < listings.length; ++i) {
            if (listings[i].seller != msg.sender) revert NotSeller();
            bytes32 orderHash = hashListing(listings[i]);
            if (orderStatus[orderHash] == ORDER_FILLED) revert ListingFilled(orderHash);
            orderStatus[orderHash] = ORDER_CANCELLED;
            emit TradingEvents.ListingCancelled(orderHash, msg.sender);
        }
    }

    /// @notice Cancel all: every listing the caller signed under the previous counter stops being fillable.
    function incrementCounter() external returns (uint256 counter) {
        counter = ++counterOf[msg.sender];
        emit CounterIncremented(msg.sender, counter);
    }

    /// @notice The listing's effective state: filled or cancelled (orderStatus), else expired once past its expiry,
    /// else voided when signed under a counter the seller has since moved past (incrementCounter), else open. It
    /// takes the whole listing because orderStatus alone cannot know: expiry and counter are the listing's fields.
    /// Open means quickSale refuses it for nothing but payment, holdings, approval, currency or signature.
    function listingState(Listing calldata listing) external view returns (uint8) {
        uint8 status = orderStatus[hashListing(listing)];
        if (status != ORDER_OPEN) return status;
        if (block.timestamp > listing.expiry) return ORDER_EXPIRED;
        if (listing.counter != counterOf[listing.seller]) return ORDER_VOIDED;
        return ORDER_OPEN;
    }

    /// @notice The listing's order hash: the EIP-712 digest a seller signs (domain: this contract on this chain).
    function hashListing(Listing calldata listing) public view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(LISTING_TYPEHASH, listing)));
    }

    // --- offers ---

    /// @notice The holder (msg.sender) accepts a buyer's signed offer with `tokenId` (the offer's own token, or for a
    /// collection offer any token whose data matches): the item goes to the buyer, who pays price - fee to the holder
    /// and the fee to feeRecipient from their ERC-20 approval. ERC-1155 offers are filled whole, as listings are.
    function acceptOffer(TradeOffer calldata offer, bytes calldata signature, uint256 tokenId) external nonReentrant {
        bytes32 orderHash = _checkOffer(offer, signature, tokenId);
        orderStatus[orderHash] = ORDER_FILLED;
        uint256 fee = _feeOf(offer.price);
        _payOffer(offer.currency, offer.buyer, offer.price, fee);
        _moveItem(offer.collection, offer.standard, msg.sender, offer.buyer, tokenId, offer.amount);
        emit OfferAccepted(
            orderHash, offer.buyer, msg.sender, offer.collection, tokenId, offer.amount, offer.currency, offer.price, fee
        );
    }

    /// @notice Withdraws the caller's offers one by one (an accepted one cannot be withdrawn). incrementCounter
    /// withdraws every offer and listing at once.
    function cancelOffers(TradeOffer[] calldata offers) external {
        for (uint256 i = 0; i < offers.length; ++i) {
            if (offers[i].buyer != msg.sender) revert NotBuyer();
            bytes32 orderHash = hashOffer(offers[i]);
            if (orderStatus[orderHash] == ORDER_FILLED) revert OfferFilled(orderHash);
            orderStatus[orderHash] = ORDER_CANCELLED;
            emit OfferCancelled(orderHash, msg.sender);
        }
    }

    /// @notice The offer's order hash: the EIP-712 digest a buyer signs, keying orderStatus like a listing's.
    function hashOffer(TradeOffer calldata offer) public view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(OFFER_TYPEHASH, offer)));
    }

    // --- transfers ---

    /// @notice Moves several of the caller's ERC-721 tokens to `to` in one transaction (operator approval first).
    function transferNft(address collection, address to, uint256[] calldata tokenIds) external nonReentrant {
        if (tokenIds.length == 0) revert NothingToTransfer();
        for (uint256 i = 0; i < tokenIds.length; ++i) {
            IERC721(collection).safeTransferFrom(msg.sender, to, tokenIds[i]);
        }
    }

    /// @notice Moves amounts of the caller's ERC-1155 ids to `to` (operator approval first).
    function transferItem1155(address collection, address to, uint256[] calldata ids, uint256[] calldata amounts)
        external
        nonReentrant
    {
        if (ids.length != amounts.length) revert LengthMismatch();
        if (ids.length == 0) revert NothingToTransfer();
        IERC1155(collection).safeBatchTransferFrom(msg.sender, to, ids, amounts, "");
    }

    /// @notice Sends the caller's token into the game inventory of the player whose bound wallet is `account`: it
    /// passes through this contract to the asset manager's custody, and the swap is recorded for `account`.
    function sendNft(address collection, uint256 tokenId, address account) external nonReentrant returns (uint256 swapId) {
        IERC721(collection).transferFrom(msg.sender, address(this), tokenId);
        IERC721(collection).approve(address(assetManager), tokenId);
        swapId = assetManager.swapNftToGameFor(collection, tokenId, SEND_GAME_TAG, account);
        emit NftSent(msg.sender, account, collection, tokenId, swapId);
    }

    // --- administration ---

    function setFee(uint16 bps, address recipient) external onlyOwner {
        _setFee(bps, recipient);
    }

    function setCurrency(address currency, bool allowed) external onlyOwner {
        currencyAllowed[currency] = allowed;
        emit CurrencyChanged(currency, allowed);
    }

    // --- internals ---

    /// @dev Every refusal acceptOffer makes before anything moves; returns the order hash.
    function _checkOffer(TradeOffer calldata offer, bytes calldata signature, uint256 tokenId) private view returns (bytes32 orderHash) {
        orderHash = hashOffer(offer);
        _checkShape(offer.standard, offer.amount);
        uint8 status = orderStatus[orderHash];
        if (status == ORDER_FILLED) revert OfferFilled(orderHash);
        if (status == ORDER_CANCELLED) revert OfferWithdrawn(orderHash);
        if (block.timestamp > offer.expiry) revert OfferExpired(offer.expiry);
        uint256 current = counterOf[offer.buyer];
        if (offer.counter != current) revert CounterMismatch(offer.counter, current);
        // BNB cannot be pulled from a buyer, so an offer in it is never payable.
        if (offer.currency == address(0) || !currencyAllowed[offer.currency]) revert CurrencyNotAllowed(offer.currency);
        if (!SignatureChecker.isValidSignatureNow(offer.buyer, orderHash, signature)) revert InvalidSignature();
        if (msg.sender == offer.buyer) revert SelfPurchase();
        if (offer.dataMask == 0) {
            if (tokenId != offer.tokenId) revert ItemNotOffered(tokenId);
        } else if (
            offer.standard != STANDARD_ERC721 || offer.tokenId != 0
                || IItemData(offer.collection).dataOf(tokenId) & offer.dataMask != offer.dataValue
        ) {
            revert ItemNotOffered(tokenId);
        }
        _checkHolds(offer.collection, offer.standard, tokenId, offer.amount, msg.sender);
    }
}
