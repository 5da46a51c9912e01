// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {BlindBox} from "./BlindBox.sol";

/// @notice What the sale reads to tell a PSE holder: SparkCard's per-type balance (ERC721Packed.balanceOfType).
interface ITypedBalance {
    function balanceOfType(address owner, uint8 nftType) external view returns (uint256);
}

/// @title Loot box sale: prices per box type and payment currency, supply and per-address daily limits.
/// @notice A currency is accepted for a box type exactly when its price is non-zero, so "V3-Galaxy (18) only in
/// QUARK" is configuration: only a QUARK price is set for type 18. Payments go straight to the receipt address.
/// Two price variants may lower a price (product §7 "pse and whitelist variants"): the PSE price for a buyer holding
/// a PSE card, the whitelist price for a whitelisted address; a buyer pays the lowest price that applies (priceFor).
/// A box type is on sale from the later of the global startMintDate and its own start date.
contract BlindBoxSale is Ownable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice Price key of the native currency (BNB).
    address public constant NATIVE = address(0);
    uint256 public constant MAX_QUANTITY_PER_PURCHASE = 10;
    uint256 public constant LIMIT_WINDOW = 24 hours;
    /// @notice The card type code of a PSE (product §3), read from the card's data.
    uint8 public constant PSE_NFT_TYPE = 2;

    /// @notice Which price a buyer pays: the list price, or one of the two variants.
    enum PriceKind {
        List,
        Pse,
        Whitelist
    }

    struct Window {
        uint64 start;
        uint64 bought;
    }

    BlindBox public immutable box;
    address public receiptAddress;
    uint256 public startMintDate;

    /// @notice The card collection whose PSE holders get the PSE price; zero: no PSE price applies.
    ITypedBalance public pseCollection;

    mapping(uint256 boxType => mapping(address token => uint256)) private _prices;
    /// @dev Variant prices, 0 when unset; they only apply to a currency the type accepts (a non-zero list price).
    mapping(uint256 boxType => mapping(address token => uint256)) private _psePrices;
    mapping(uint256 boxType => mapping(address token => uint256)) private _whitelistPrices;
    mapping(address account => bool) public isWhitelisted;
    /// @notice A box type's own start date (unix seconds); 0 means only the global startMintDate applies.
    mapping(uint256 boxType => uint256) public boxTypeStartDate;
    /// @notice Total boxes of a type that may ever be sold; 0 means the type is not for sale.
    mapping(uint256 boxType => uint256) public globalLimit;
    mapping(uint256 boxType => uint256) public soldAmount;
    /// @notice Boxes one address may buy per 24 h window; 0 means no per-address limit.
    mapping(uint256 boxType => uint256) public limitPerAddress;
    /// @notice Lifetime boxes bought per player and type.
    mapping(address player => mapping(uint256 boxType => uint256)) public totalBought;
    mapping(address player => mapping(uint256 boxType => Window)) private _windows;

    event BoxesPurchased(
        address indexed buyer, uint256 indexed boxType, uint256 quantity, address indexed token, uint256 amountPaid
    );
    event PriceSet(uint256 indexed boxType, address indexed token, uint256 price);
    event VariantPriceSet(uint256 indexed boxType, address indexed token, PriceKind indexed kind, uint256 price);
    event WhitelistChanged(address indexed account, bool listed);
    event PseCollectionSet(address collection);
    event BoxTypeStartDateSet(uint256 indexed boxType, uint256 startDate);
    event BoxTypeConfigured(uint256 indexed boxType, uint256 globalLimit, uint256 limitPerAddress);
    event StartMintDateSet(uint256 startMintDate);
    event ReceiptAddressSet(address receiptAddress);

    error SaleNotStarted(uint256 startMintDate);
    error InvalidQuantity(uint256 quantity, uint256 max);
    error BoxTypeNotForSale(uint256 boxType);
    error CurrencyNotAccepted(uint256 boxType, address token);
    error SoldOut(uint256 boxType, uint256 remaining);
    error DailyLimitExceeded(uint256 boxType, uint256 boughtInWindow, uint256 limit, uint256 resetsAt);
    error InsufficientBalance(address token, uint256 balance, uint256 required);
    error InsufficientAllowance(address token, uint256 allowance, uint256 required);
    error WrongNativeAmount(uint256 sent, uint256 required);
    error InvalidReceipt();
    error InvalidPriceKind();

    constructor(BlindBox box_, address receipt, uint256 startMintDate_, address owner_) Ownable(owner_) {
        box = box_;
        _setReceipt(receipt);
        startMintDate = startMintDate_;
    }

    // --- purchases ---

    function buyWithErc20(uint256 boxType, uint256 quantity, address token)
        external
        nonReentrant
        returns (uint256[] memory boxIds)
    {
        if (token == NATIVE) revert CurrencyNotAccepted(boxType, token);
        uint256 total = _checkAndRecord(boxType, quantity, token);
        IERC20 erc20 = IERC20(token);
        // Checked up front so the wallet gets a readable reason instead of the token's own revert.
        uint256 balance = erc20.balanceOf(msg.sender);
        if (balance < total) revert InsufficientBalance(token, balance, total);
        uint256 allowance = erc20.allowance(msg.sender, address(this));
        if (allowance < total) revert InsufficientAllowance(token, allowance, total);
        erc20.safeTransferFrom(msg.sender, receiptAddress, total);
        boxIds = box.forge(msg.sender, boxType, quantity);
        emit BoxesPurchased(msg.sender, boxType, quantity, token, total);
    }

    function buyWithNativeToken(uint256 boxType, uint256 quantity)
        external
        payable
        nonReentrant
        returns (uint256[] memory boxIds)
    {
        uint256 total = _checkAndRecord(boxType, quantity, NATIVE);
        if (msg.value != total) revert WrongNativeAmount(msg.value, total);
        boxIds = box.forge(msg.sender, boxType, quantity);
        Address.sendValue(payable(receiptAddress), total);
        emit BoxesPurchased(msg.sender, boxType, quantity, NATIVE, total);
    }

    // --- queries ---

    /// @notice The price of one box `buyer` pays in `token` (NATIVE for BNB) and why: the lowest of the list
    /// price and the variants that apply to the buyer; (0, List) when the currency is not accepted.
    function priceFor(address buyer, uint256 boxType, address token) public view returns (uint256 price, PriceKind kind) {
        price = _prices[boxType][token];
        if (price == 0) return (0, PriceKind.List);
        uint256 pse = _psePrices[boxType][token];
        if (pse != 0 && pse < price && isPseHolder(buyer)) (price, kind) = (pse, PriceKind.Pse);
        uint256 listed = _whitelistPrices[boxType][token];
        if (listed != 0 && listed < price && isWhitelisted[buyer]) (price, kind) = (listed, PriceKind.Whitelist);
    }

    /// @notice Whether `account` holds at least one PSE card.
    function isPseHolder(address account) public view returns (bool) {
        return address(pseCollection) != address(0) && pseCollection.balanceOfType(account, PSE_NFT_TYPE) > 0;
    }

    /// @notice When a box type goes on sale: the later of the global startMintDate and its own start date.
    function saleStartOf(uint256 boxType) public view returns (uint256) {
        uint256 own = boxTypeStartDate[boxType];
        return own > startMintDate ? own : startMintDate;
    }

    /// @notice The PSE holders' price of one box in `token` (wei); 0 when none is set.
    function psePriceInToken(uint256 boxType, address token) external view returns (uint256) {
        return _psePrices[boxType][token];
    }

    function psePriceInNative(uint256 boxType) external view returns (uint256) {
        return _psePrices[boxType][NATIVE];
    }

    /// @notice The whitelisted addresses' price of one box in `token` (wei); 0 when none is set.
    function whitelistPriceInToken(uint256 boxType, address token) external view returns (uint256) {
        return _whitelistPrices[boxType][token];
    }

    function whitelistPriceInNative(uint256 boxType) external view returns (uint256) {
        return _whitelistPrices[boxType][NATIVE];
    }

    /// @notice List price of one box in `token` (wei); 0 means the token is not accepted for this type.
    function priceInToken(uint256 boxType, address token) external view returns (uint256) {
        return _prices[boxType][token];
    }

    /// @notice Price of one box in the native currency (wei); 0 means it is not accepted.
    function priceInNative(uint256 boxType) external view returns (uint256) {
        return _prices[boxType][NATIVE];
    }

    /// @notice Boxes `player` bought in the current 24 h window and when it ends (both 0 when no window is open).
    function boughtInWindow(address player, uint256 boxType) public view returns (uint256 bought, uint256 resetsAt) {
        Window memory w = _windows[player][boxType];
        if (w.start == 0 || block.timestamp >= w.start + LIMIT_WINDOW) return (0, 0);
        return (w.bought, w.start + LIMIT_WINDOW);
    }

    // --- administration ---

    function setPrice(uint256 boxType, address token, uint256 price) external onlyOwner {
        _prices[boxType][token] = price;
        emit PriceSet(boxType, token, price);
    }

    /// @notice Sets a variant price (Pse or Whitelist; 0 removes it). The list price is setPrice's.
    function setVariantPrice(uint256 boxType, address token, PriceKind kind, uint256 price) external onlyOwner {
        if (kind == PriceKind.Pse) _psePrices[boxType][token] = price;
        else if (kind == PriceKind.Whitelist) _whitelistPrices[boxType][token] = price;
        else revert InvalidPriceKind();
        emit VariantPriceSet(boxType, token, kind, price);
    }

    function setWhitelisted(address[] calldata accounts, bool listed) external onlyOwner {
        for (uint256 i = 0; i < accounts.length; ++i) {
            isWhitelisted[accounts[i]] = listed;
            emit WhitelistChanged(accounts[i], listed);
        }
    }

    function setPseCollection(ITypedBalance collection) external onlyOwner {
        pseCollection = collection;
        emit PseCollectionSet(address(collection));
    }

    /// @notice A box type's own start date; 0 leaves it to the global startMintDate.
    function setBoxTypeStartDate(uint256 boxType, uint256 startDate) external onlyOwner {
        boxTypeStartDate[boxType] = startDate;
        emit BoxTypeStartDateSet(boxType, startDate);
    }

    function configureBoxType(uint256 boxType, uint256 globalLimit_, uint256 limitPerAddress_) external onlyOwner {
        globalLimit[boxType] = globalLimit_;
        limitPerAddress[boxType] = limitPerAddress_;
        emit BoxTypeConfigured(boxType, globalLimit_, limitPerAddress_);
    }

    function setStartMintDate(uint256 startMintDate_) external onlyOwner {
        startMintDate = startMintDate_;
        emit StartMintDateSet(startMintDate_);
    }

    function setReceiptAddress(address receipt) external onlyOwner {
        _setReceipt(receipt);
    }

    // --- internals ---

    /// @dev Validates a purchase, books it against the supply and the buyer's window, and returns the total price.
    function _checkAndRecord(uint256 boxType, uint256 quantity, address token) private returns (uint256 total) {
        uint256 startsAt = saleStartOf(boxType);
        if (block.timestamp < startsAt) revert SaleNotStarted(startsAt);
        if (quantity == 0 || quantity > MAX_QUANTITY_PER_PURCHASE) {
            revert InvalidQuantity(quantity, MAX_QUANTITY_PER_PURCHASE);
        }
        uint256 limit = globalLimit[boxType];
        if (limit == 0) revert BoxTypeNotForSale(boxType);
        (uint256 price,) = priceFor(msg.sender, boxType, token);
        if (price == 0) revert CurrencyNotAccepted(boxType, token);
        uint256 sold = soldAmount[boxType];
        if (sold + quantity > limit) revert SoldOut(boxType, limit > sold ? limit - sold : 0);

        uint256 perAddress = limitPerAddress[boxType];
        if (perAddress != 0) {
            Window storage w = _windows[msg.sender][boxType];
            // The window opens with the first purchase and lasts 24 h; the next purchase after it opens a new one.
            if (w.start == 0 || block.timestamp >= w.start + LIMIT_WINDOW) {
                w.start = uint64(block.timestamp);
                w.bought = 0;
            }
            if (w.bought + quantity > perAddress) {
                revert DailyLimitExceeded(boxType, w.bought, perAddress, w.start + LIMIT_WINDOW);
            }
            w.bought += uint64(quantity);
        }

        soldAmount[boxType] = sold + quantity;
        totalBought[msg.sender][boxType] += quantity;
        return price * quantity;
    }

    function _setReceipt(address receipt) private {
        if (receipt == address(0)) revert InvalidReceipt();
        receiptAddress = receipt;
        emit ReceiptAddressSet(receipt);
    }
}
