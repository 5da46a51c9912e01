// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

/// @title Claims the game server signs, paid once each (the asset manager's and the reward manager's).
/// @notice Claim content, 288 bytes (core/claim.ts):
///   abi.encode(address account, uint8 kind, address asset, uint256 idOrAmount, uint96 data, uint256 nonce,
///              uint256 deadline, uint256 chainId, address claimContract)
/// signed EIP-191 (personal_sign over keccak256(claimContent)), v = 27 or 28. The last field names the contract
/// that pays it, so a claim for one is never payable by another. A claim pays once per (account, nonce), only to
/// its account, only on its chain and only until its deadline.
abstract contract SignedClaims {
    uint8 public constant CLAIM_UNCLAIMED = 0;
    uint8 public constant CLAIM_CLAIMED = 1;

    struct Claim {
        address account;
        uint8 kind;
        address asset;
        uint256 idOrAmount;
        uint96 data;
        uint256 nonce;
        uint256 deadline;
        uint256 chainId;
        address claimContract;
    }

    mapping(address account => mapping(uint256 nonce => bool)) private _claimed;

    error MalformedClaim(uint256 length);
    error ClaimAccountMismatch(address claimAccount, address account);
    error WrongClaimKind(uint8 kind);
    error ClaimWrongChain(uint256 chainId);
    error ClaimWrongContract(address claimContract);
    error ClaimExpired(uint256 deadline);
    error ClaimAlreadyUsed(address account, uint256 nonce);
    error InvalidClaimSigner(address recovered);

    /// @notice Claim status per account and nonce (the game's id for it): 0 unclaimed, 1 claimed.
    function queryClaim(address account, uint256 nonce) external view returns (uint8) {
        return _claimed[account][nonce] ? CLAIM_CLAIMED : CLAIM_UNCLAIMED;
    }

    /// @dev The claim, once every check passed, marked used. `kind` is the one the caller pays; `signer` signs them.
    function _useClaim(address account, uint8 kind, bytes calldata claimContent, uint8 v, bytes32 r, bytes32 s, address signer)
        internal
        returns (Claim memory c)
    {
        if (claimContent.length != 288) revert MalformedClaim(claimContent.length);
        // A struct of static fields encodes exactly like the flat tuple above.
        c = abi.decode(claimContent, (Claim));
        if (c.account != account) revert ClaimAccountMismatch(c.account, account);
        if (c.kind != kind) revert WrongClaimKind(c.kind);
        if (c.chainId != block.chainid) revert ClaimWrongChain(c.chainId);
        if (c.claimContract != address(this)) revert ClaimWrongContract(c.claimContract);
        if (block.timestamp > c.deadline) revert ClaimExpired(c.deadline);
        if (_claimed[account][c.nonce]) revert ClaimAlreadyUsed(account, c.nonce);
        address recovered = ECDSA.recover(MessageHashUtils.toEthSignedMessageHash(keccak256(claimContent)), v, r, s);
        if (recovered != signer) revert InvalidClaimSigner(recovered);
        _claimed[account][c.nonce] = true;
    }
}
