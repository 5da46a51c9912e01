// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC1155} from "@openzeppelin/contracts/token/ERC1155/IERC1155.sol";

/// @title Trading's settlement: the fee, the holder's item checked and moved, the price paid out less the fee.
/// @notice Trading inherits it (last, so feeBps and feeRecipient keep their storage slots); an abstract base rather
/// than a library so its constants, fee, event and errors stay in Trading's ABI.
abstract contract TradingSettlement {
    using SafeERC20 for IERC20;

    uint8 public constant STANDARD_ERC721 = 0;
    uint8 public constant STANDARD_ERC1155 = 1;
    uint16 public constant MAX_FEE_BPS = 1000;

    uint16 public feeBps;
    address public feeRecipient;

    event FeeChanged(uint16 bps, address recipient);

    error WrongPayment(uint256 sent, uint256 price);
    error SellerNoLongerHolds();
    error InvalidStandard(uint8 standard);
    error InvalidAmount(uint256 amount);
    error SellerNotApproved();
    error InsufficientBalance(address token, uint256 balance, uint256 required);
    error InsufficientAllowance(address token, uint256 allowance, uint256 required);
    error NativePaymentFailed(address to);
    error FeeTooHigh(uint16 bps);
    error OfferUnpayable(address token, uint256 balance, uint256 allowance, uint256 price);
    error InvalidFeeRecipient();

    function _setFee(uint16 bps, address recipient) internal {
        if (bps > MAX_FEE_BPS) revert FeeTooHigh(bps);
        if (recipient == address(0)) revert InvalidFeeRecipient();
        feeBps = bps;
        feeRecipient = recipient;
        emit FeeChanged(bps, recipient);
    }

    /// @dev feeBps of `price`, rounded down.
    function _feeOf(uint256 price) internal view returns (uint256) {
        return price * feeBps / 10_000;
    }

    function _checkShape(uint8 standard, uint256 amount) internal pure {
        if (standard == STANDARD_ERC721) {
            if (amount != 1) revert InvalidAmount(amount);
        } else if (standard == STANDARD_ERC1155) {
            if (amount == 0) revert InvalidAmount(amount);
        } else {
            revert InvalidStandard(standard);
        }
    }

    function _checkHolds(address collection, uint8 standard, uint256 tokenId, uint256 amount, address holder) internal view {
        if (standard == STANDARD_ERC721) {
            IERC721 nft = IERC721(collection);
            // ownerOf reverts for a burnt token: that is "no longer holds" too.
            try nft.ownerOf(tokenId) returns (address owner) {
                if (owner != holder) revert SellerNoLongerHolds();
            } catch {
                revert SellerNoLongerHolds();
            }
            if (nft.getApproved(tokenId) != address(this) && !nft.isApprovedForAll(holder, address(this))) {
                revert SellerNotApproved();
            }
        } else {
            IERC1155 items = IERC1155(collection);
            if (items.balanceOf(holder, tokenId) < amount) revert SellerNoLongerHolds();
            if (!items.isApprovedForAll(holder, address(this))) revert SellerNotApproved();
        }
    }

    function _moveItem(address collection, uint8 standard, address from, address to, uint256 tokenId, uint256 amount) internal {
        if (standard == STANDARD_ERC721) {
            IERC721(collection).safeTransferFrom(from, to, tokenId);
        } else {
            IERC1155(collection).safeTransferFrom(from, to, tokenId, amount, "");
        }
    }

    /// @dev A listing's buyer (msg.sender) pays `price`: exactly as msg.value in BNB (currency 0), else pulled in the
    /// ERC-20; price - fee goes to the seller, the fee to feeRecipient.
    function _collectPayment(address currency, address seller, uint256 price, uint256 fee) internal {
        if (currency == address(0)) {
            if (msg.value != price) revert WrongPayment(msg.value, price);
            _sendNative(seller, price - fee);
            if (fee > 0) _sendNative(feeRecipient, fee);
            return;
        }
        if (msg.value != 0) revert WrongPayment(msg.value, 0);
        IERC20 token = IERC20(currency);
        // Checked first so the buyer hears which one is short, in product §5's order: balance, then allowance.
        uint256 balance = token.balanceOf(msg.sender);
        if (balance < price) revert InsufficientBalance(currency, balance, price);
        uint256 allowance = token.allowance(msg.sender, address(this));
        if (allowance < price) revert InsufficientAllowance(currency, allowance, price);
        _payOut(token, msg.sender, seller, price, fee);
    }

    /// @dev An offer's buyer pays price - fee to the holder (msg.sender) and the fee to feeRecipient; one error names
    /// what is short.
    function _payOffer(address currency, address buyer, uint256 price, uint256 fee) internal {
        IERC20 token = IERC20(currency);
        uint256 balance = token.balanceOf(buyer);
        uint256 allowance = token.allowance(buyer, address(this));
        if (balance < price || allowance < price) revert OfferUnpayable(currency, balance, allowance, price);
        _payOut(token, buyer, msg.sender, price, fee);
    }

    function _payOut(IERC20 token, address payer, address payee, uint256 price, uint256 fee) private {
        token.safeTransferFrom(payer, payee, price - fee);
        if (fee > 0) token.safeTransferFrom(payer, feeRecipient, fee);
    }

    function _sendNative(address to, uint256 value) private {
        (bool ok,) = payable(to).call{value: value}("");
        if (!ok) revert NativePaymentFailed(to);
    }
}
