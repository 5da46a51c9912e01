// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {SignedClaims} from "./SignedClaims.sol";

/// @title The reward-and-tax manager (product §7 "Reward claim": awardClaim, queryClaim; decision 0017).
/// @notice Holds the market's takings (the Trading contract's fee goes here, in ERC-20s and BNB) and pays awards
/// (referral rebates and any other) that the game server signs, once each.
///
/// Claim content: the asset manager's 288-byte claim (contracts/src/AssetManager.sol, core/claim.ts)
///   abi.encode(address account, uint8 kind, address asset, uint256 amount, uint96 data, uint256 nonce,
///              uint256 deadline, uint256 chainId, address rewardManager)
/// with kind 0 (a token amount) and data 0; asset is the ERC-20, or address(0) for the native BNB. The last field
/// names this contract, so no asset manager claim is ever payable here, nor an award there. The signature is
/// EIP-191 personal_sign over keccak256(claimContent) by the award signer, v = 27 or 28.
/// A claim is paid once per (account, nonce), only to its account and only until its deadline: the game gives an
/// unpaid amount back only once it has read the chain past the deadline, when no transaction can pay it any more.
contract RewardManager is Ownable, SignedClaims {
    using SafeERC20 for IERC20;

    uint8 public constant KIND_TOKEN = 0;
    address public awardSigner;

    event AwardClaimed(address indexed account, uint256 indexed nonce, address indexed token, uint256 amount);
    event AwardSignerChanged(address awardSigner);
    event Withdrawn(address indexed token, address indexed to, uint256 amount);

    error ZeroAmount();
    error NativePaymentFailed(address to);

    constructor(address awardSigner_, address owner_) Ownable(owner_) {
        awardSigner = awardSigner_;
        emit AwardSignerChanged(awardSigner_);
    }

    /// @notice Trading's BNB fees and the treasury's top-ups.
    receive() external payable {}

    /// @notice Pays a signed award to `account` (anyone may submit it, the money goes to the claim's account only).
    function awardClaim(address account, bytes calldata claimContent, uint8 v, bytes32 r, bytes32 s) external {
        Claim memory c = _useClaim(account, KIND_TOKEN, claimContent, v, r, s, awardSigner);
        // An award is an amount of one token: no item data, never nothing.
        if (c.data != 0) revert WrongClaimKind(c.kind);
        if (c.idOrAmount == 0) revert ZeroAmount();
        _pay(c.asset, account, c.idOrAmount);
        emit AwardClaimed(account, c.nonce, c.asset, c.idOrAmount);
    }

    // --- administration ---

    function setAwardSigner(address awardSigner_) external onlyOwner {
        awardSigner = awardSigner_;
        emit AwardSignerChanged(awardSigner_);
    }

    /// @notice The owner takes takings out (the tax side); address(0) is BNB.
    function withdraw(address token, address to, uint256 amount) external onlyOwner {
        _pay(token, to, amount);
        emit Withdrawn(token, to, amount);
    }

    function _pay(address token, address to, uint256 amount) private {
        if (token == address(0)) {
            (bool ok,) = payable(to).call{value: amount}("");
            if (!ok) revert NativePaymentFailed(to);
        } else {
            IERC20(token).safeTransfer(to, amount);
        }
    }
}
