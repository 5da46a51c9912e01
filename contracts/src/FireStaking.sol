// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {BlindBox} from "./BlindBox.sol";

/// @title Loyalty staking: stake FIRE in a pool, get it back with loot box rewards when the vault ends.
/// @notice Pool timeline: deposits open at beginVaultTime and close at endStakingTime; the stake stays locked
/// until endVaultTime, after which withdrawAndClaim returns it and forges the reward boxes (this contract holds
/// the box's MINTER_ROLE). Every full takerThreshold staked earns one box of rewardNftType, at most
/// MAX_REWARD_PER_ADDRESS per address and rewardNftMaxSupply per pool, first come first served.
/// status: 0 upcoming, 1 staking (deposits open), 2 locked, 3 ended (withdraw and claim).
contract FireStaking is Ownable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    uint8 public constant STATUS_UPCOMING = 0;
    uint8 public constant STATUS_STAKING = 1;
    uint8 public constant STATUS_LOCKED = 2;
    uint8 public constant STATUS_ENDED = 3;
    /// @dev Bounds the boxes one withdrawal forges, so it always fits in a block.
    uint256 public constant MAX_REWARD_PER_ADDRESS = 10;

    /// @dev the product spec's pool shape. `status` is derived from the clock and only filled in by queryPoolInfo.
    struct Pool {
        uint256 poolId;
        uint8 status;
        uint256 stakingAddrNumber;
        uint256 totalStakingTokens;
        uint64 beginVaultTime;
        uint64 endVaultTime;
        uint64 endStakingTime;
        uint256 takerThreshold;
        uint256 rewardNftType;
        uint256 rewardNftMaxSupply;
        uint256 rewardNftAllocNumber;
        uint256 claimedNftNumber;
        address stakingTokenAddr;
    }

    struct Stake {
        uint256 stakingNumber;
        uint256 nftNumber;
    }

    BlindBox public immutable box;
    /// @notice Tokens currently staked across all pools.
    uint256 public totalPoolSupply;
    uint256[] private _poolIds;

    mapping(uint256 poolId => Pool) private _pools;
    mapping(uint256 poolId => mapping(address user => Stake)) private _stakes;

    event PoolCreated(uint256 indexed poolId, address stakingToken, uint256 rewardNftType);
    event Deposited(uint256 indexed poolId, address indexed user, uint256 amount, uint256 stakingNumber, uint256 nftNumber);
    event Withdrawn(uint256 indexed poolId, address indexed user, uint256 amount, uint256[] rewardBoxIds);

    error PoolExists(uint256 poolId);
    error UnknownPool(uint256 poolId);
    error InvalidPoolTimes();
    error InvalidPoolParameters();
    error StakingNotOpen(uint256 poolId, uint8 status);
    error VaultLocked(uint256 poolId, uint256 endVaultTime);
    error NothingStaked(uint256 poolId);
    error ZeroAmount();

    constructor(BlindBox box_, address owner_) Ownable(owner_) {
        box = box_;
    }

    // --- players ---

    function deposit(uint256 poolId, uint256 tokenNumber) external nonReentrant {
        Pool storage pool = _existing(poolId);
        uint8 status = _status(pool);
        if (status != STATUS_STAKING) revert StakingNotOpen(poolId, status);
        if (tokenNumber == 0) revert ZeroAmount();
        IERC20(pool.stakingTokenAddr).safeTransferFrom(msg.sender, address(this), tokenNumber);

        Stake storage stake = _stakes[poolId][msg.sender];
        if (stake.stakingNumber == 0) pool.stakingAddrNumber += 1;
        stake.stakingNumber += tokenNumber;
        pool.totalStakingTokens += tokenNumber;
        totalPoolSupply += tokenNumber;

        // Rewards earned by the new total, within the address cap and what the pool has left.
        uint256 earned = stake.stakingNumber / pool.takerThreshold;
        if (earned > MAX_REWARD_PER_ADDRESS) earned = MAX_REWARD_PER_ADDRESS;
        if (earned > stake.nftNumber) {
            uint256 extra = earned - stake.nftNumber;
            uint256 left = pool.rewardNftMaxSupply - pool.rewardNftAllocNumber;
            if (extra > left) extra = left;
            stake.nftNumber += extra;
            pool.rewardNftAllocNumber += extra;
        }
        emit Deposited(poolId, msg.sender, tokenNumber, stake.stakingNumber, stake.nftNumber);
    }

    /// @notice After the vault ends: returns the whole stake and forges the earned reward boxes.
    function withdrawAndClaim(uint256 poolId) external nonReentrant returns (uint256[] memory rewardBoxIds) {
        Pool storage pool = _existing(poolId);
        if (block.timestamp < pool.endVaultTime) revert VaultLocked(poolId, pool.endVaultTime);
        Stake memory stake = _stakes[poolId][msg.sender];
        if (stake.stakingNumber == 0) revert NothingStaked(poolId);

        delete _stakes[poolId][msg.sender];
        pool.stakingAddrNumber -= 1;
        pool.totalStakingTokens -= stake.stakingNumber;
        pool.claimedNftNumber += stake.nftNumber;
        totalPoolSupply -= stake.stakingNumber;

        IERC20(pool.stakingTokenAddr).safeTransfer(msg.sender, stake.stakingNumber);
        if (stake.nftNumber > 0) rewardBoxIds = box.forge(msg.sender, pool.rewardNftType, stake.nftNumber);
        emit Withdrawn(poolId, msg.sender, stake.stakingNumber, rewardBoxIds);
    }

    // --- queries ---

    function queryPoolInfo(uint256 poolId) external view returns (Pool memory pool) {
        Pool storage stored = _existing(poolId);
        pool = stored;
        pool.status = _status(stored);
    }

    function queryUserStake(uint256 poolId, address user) external view returns (uint256 stakingNumber, uint256 nftNumber) {
        Stake memory stake = _stakes[poolId][user];
        return (stake.stakingNumber, stake.nftNumber);
    }

    function poolIds() external view returns (uint256[] memory) {
        return _poolIds;
    }

    function getTotalPoolSupply() external view returns (uint256) {
        return totalPoolSupply;
    }

    /// @notice The chain's clock, which pool times are compared against (it may differ from the wall clock).
    function getBlockchainTime() external view returns (uint256) {
        return block.timestamp;
    }

    // --- administration ---

    function createPool(
        uint256 poolId,
        address stakingToken,
        uint64 beginVaultTime,
        uint64 endStakingTime,
        uint64 endVaultTime,
        uint256 takerThreshold,
        uint256 rewardNftType,
        uint256 rewardNftMaxSupply
    ) external onlyOwner {
        if (_pools[poolId].stakingTokenAddr != address(0)) revert PoolExists(poolId);
        if (!(beginVaultTime < endStakingTime && endStakingTime <= endVaultTime)) revert InvalidPoolTimes();
        if (stakingToken == address(0) || takerThreshold == 0 || rewardNftType == 0) revert InvalidPoolParameters();
        Pool storage pool = _pools[poolId];
        pool.poolId = poolId;
        pool.stakingTokenAddr = stakingToken;
        pool.beginVaultTime = beginVaultTime;
        pool.endStakingTime = endStakingTime;
        pool.endVaultTime = endVaultTime;
        pool.takerThreshold = takerThreshold;
        pool.rewardNftType = rewardNftType;
        pool.rewardNftMaxSupply = rewardNftMaxSupply;
        _poolIds.push(poolId);
        emit PoolCreated(poolId, stakingToken, rewardNftType);
    }

    // --- internals ---

    function _existing(uint256 poolId) private view returns (Pool storage pool) {
        pool = _pools[poolId];
        if (pool.stakingTokenAddr == address(0)) revert UnknownPool(poolId);
    }

    function _status(Pool storage pool) private view returns (uint8) {
        if (block.timestamp < pool.beginVaultTime) return STATUS_UPCOMING;
        if (block.timestamp < pool.endStakingTime) return STATUS_STAKING;
        if (block.timestamp < pool.endVaultTime) return STATUS_LOCKED;
        return STATUS_ENDED;
    }
}
