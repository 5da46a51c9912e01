// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {BlindBox} from "./BlindBox.sol";

/// @title Loot box sale: prices per box type and payment currency, supply and per-address daily limits.
/// @notice A currency is accepted for a box type exactly when its price is non-zero, so "V3-Galaxy (18) only in
/// QUARK" is configuration: only a QUARK price is set for type 18. Payments go straight to the receipt address.
contract BlindBoxSale is Ownable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice Price key of the native currency (BNB).
    address public constant NATIVE = address(0);
    uint256 public constant MAX_QUANTITY_PER_PURCHASE = 10;
    uint256 public constant LIMIT_WINDOW = 24 hours;

    struct Window {
        uint64 start;
        uint64 bought;
    }

    BlindBox public immutable box;
    address public receiptAddress;
    uint256 public startMintDate;

    mapping(uint256 boxType => mapping(address token => uint256)) private _prices;
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

    /// @notice Price of one box in `token` (wei); 0 means the token is not accepted for this type.
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
        if (block.timestamp < startMintDate) revert SaleNotStarted(startMintDate);
        if (quantity == 0 || quantity > MAX_QUANTITY_PER_PURCHASE) {
            revert InvalidQuantity(quantity, MAX_QUANTITY_PER_PURCHASE);
        }
        uint256 limit = globalLimit[boxType];
        if (limit == 0) revert BoxTypeNotForSale(boxType);
        uint256 price = _prices[boxType][token];
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
