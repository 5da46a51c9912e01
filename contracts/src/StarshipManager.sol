// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {ItemData} from "./ItemData.sol";
import {SparkCard} from "./SparkCard.sol";
import {StarshipFormulas} from "./StarshipFormulas.sol";

/// @title The fleet (docs/spaceships.md): exploration, repair, upgrades, slots and equipment of SparkCard ships.
/// @notice A ship is a SparkCard token of nftType 4; its type, level and stats live in its attribute word, the rest
/// (duration, opened slots, fitted equipment, running mission) here. The formulas are StarshipFormulas'.
/// The manager holds SparkCard's MUTATOR_ROLE (levels) and LOCKER_ROLE: a ship is locked while it explores or
/// carries equipment, and fitted equipment is locked, so neither leaves its owner mid-use.
/// FIRE (repairs) and QUARK (slot openers) go to the treasury; mined materials stay here, per owner, until an
/// upgrade spends them or sendMaterialsToGame hands them to the game.
contract StarshipManager is AccessControl, StarshipFormulas {
    using SafeERC20 for IERC20;

    struct ShipView {
        uint256 tokenId;
        address owner;
        uint8 shipType;
        uint8 level;
        uint8[7] stats;
        uint256 duration;
        uint256 maxDuration;
        uint8 openSlots;
        uint256[4] fitted;
        uint256 exploringSince;
        uint256 power;
        uint256 lostRate;
    }

    /// @dev All zero is a ship's first state (full duration, the slots it starts with, docked, bare), so a ship the
    /// manager has never seen needs no record. Storing the seconds missing rather than those left also makes an
    /// upgrade's extra full duration land in the duration left without a write.
    struct ShipRecord {
        uint64 missing;
        uint64 exploringSince;
        uint8 openedSlots;
        uint8 fittedCount;
    }

    SparkCard public immutable card;
    IERC20 public immutable fire;
    IERC20 public immutable quark;
    address public treasury;

    mapping(uint256 shipId => ShipRecord) private _ships;
    mapping(uint256 shipId => uint256[4]) private _fitted;
    mapping(address owner => uint256[3]) private _mined;

    event ExplorationStarted(uint256 indexed shipId, address indexed owner, uint256 since);
    event ExplorationEnded(
        uint256 indexed shipId, address indexed owner, uint256 minedSeconds, uint256 lost, uint256[3] mined
    );
    event Repaired(uint256 indexed shipId, address indexed owner, uint256 restored, uint256 cost);
    event Upgraded(uint256 indexed shipId, address indexed owner, uint256 level, uint256[3] cost);
    event SlotOpened(uint256 indexed shipId, address indexed owner, uint256 slot, uint256 price);
    event EquipmentFitted(uint256 indexed shipId, address indexed owner, uint256 slot, uint256 equipmentId);
    event EquipmentRemoved(uint256 indexed shipId, address indexed owner, uint256 slot, uint256 equipmentId);
    event MaterialsSentToGame(address indexed owner, uint256[3] amounts, uint256 gameTag);
    event TreasuryChanged(address treasury);

    error NotShipOwner(uint256 shipId);
    error NotAShip(uint256 tokenId);
    error NotEquipment(uint256 tokenId);
    error NotEquipmentOwner(uint256 equipmentId);
    error ShipExploring(uint256 shipId);
    error ShipNotExploring(uint256 shipId);
    error NoDurationLeft(uint256 shipId);
    error NothingToRepair(uint256 shipId);
    error NoSuchSlot(uint256 slot);
    error SlotLocked(uint256 shipId, uint256 slot);
    error SlotTaken(uint256 shipId, uint256 slot);
    error SlotEmpty(uint256 shipId, uint256 slot);
    error WrongSlot(uint256 equipmentId, uint256 slot);
    error AllSlotsOpen(uint256 shipId);
    /// @notice material: 0 DarkIron, 1 Silver, 2 Gold.
    error NotEnoughMaterials(uint256 material, uint256 needed, uint256 held);
    error EquipmentInUse(uint256 equipmentId);
    error NothingToSend();

    constructor(address card_, address fire_, address quark_, address treasury_, address admin) {
        card = SparkCard(card_);
        fire = IERC20(fire_);
        quark = IERC20(quark_);
        treasury = treasury_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        emit TreasuryChanged(treasury_);
    }

    // --- ships ---

    function explore(uint256 shipId) external {
        (uint96 data, ShipRecord storage ship) = _ownShip(shipId);
        if (ship.exploringSince != 0) revert ShipExploring(shipId);
        if (_durationLeft(data, ship) == 0) revert NoDurationLeft(shipId);
        bool wasLocked = _isLocked(ship);
        ship.exploringSince = uint64(block.timestamp);
        _syncShipLock(shipId, ship, wasLocked);
        emit ExplorationStarted(shipId, msg.sender, block.timestamp);
    }

    /// @notice Ends the mission: credits what it mined to the owner and takes the duration it lost.
    function recall(uint256 shipId) external {
        (uint96 data, ShipRecord storage ship) = _ownShip(shipId);
        if (ship.exploringSince == 0) revert ShipNotExploring(shipId);
        (uint256 minedSeconds, uint256 lost, uint256[3] memory mined) =
            _outcome(shipId, data, ship, block.timestamp - ship.exploringSince);
        // lost never exceeds the duration left, so missing stays within the full duration.
        ship.missing += uint64(lost);
        ship.exploringSince = 0;
        uint256[3] storage held = _mined[msg.sender];
        for (uint256 material = 0; material < 3; ++material) {
            if (mined[material] != 0) held[material] += mined[material];
        }
        _syncShipLock(shipId, ship, true);
        emit ExplorationEnded(shipId, msg.sender, minedSeconds, lost, mined);
    }

    /// @notice Restores the full duration for FIRE (approve this contract first), paid to the treasury.
    function repair(uint256 shipId) external {
        (uint96 data, ShipRecord storage ship) = _ownShip(shipId);
        if (ship.exploringSince != 0) revert ShipExploring(shipId);
        uint256 restored = _maxDuration(data) - _durationLeft(data, ship);
        if (restored == 0) revert NothingToRepair(shipId);
        uint256 cost = repairCostOf(_shipType(data), restored);
        ship.missing = 0;
        fire.safeTransferFrom(msg.sender, treasury, cost);
        emit Repaired(shipId, msg.sender, restored, cost);
    }

    /// @notice Raises the level by one for the owner's mined materials. The full duration grows by half an hour and
    /// so does the duration left (the seconds missing stay as they were).
    function upgrade(uint256 shipId) external {
        (uint96 data, ShipRecord storage ship) = _ownShip(shipId);
        if (ship.exploringSince != 0) revert ShipExploring(shipId);
        uint8 level = _level(data);
        uint256[3] memory cost = upgradeCostOf(level);
        _spendMaterials(cost);
        uint96 levelMask = uint96(0xff) << 16;
        card.mutateData(shipId, (data & ~levelMask) | (uint96(level + 1) << 16));
        emit Upgraded(shipId, msg.sender, level + 1, cost);
    }

    /// @notice Opens the next slot (Weapon, Helmet, Cuirass, Leggings order) for QUARK, paid to the treasury.
    function openSlot(uint256 shipId) external {
        (uint96 data, ShipRecord storage ship) = _ownShip(shipId);
        uint8 open = _openSlots(data, ship);
        if (open >= SLOT_COUNT) revert AllSlotsOpen(shipId);
        uint256 price = slotOpenerPriceOf(open);
        ship.openedSlots += 1;
        quark.safeTransferFrom(msg.sender, treasury, price);
        emit SlotOpened(shipId, msg.sender, open, price);
    }

    /// @notice Fits a piece of equipment the ship's owner holds into the open, empty slot of its kind.
    function fit(uint256 shipId, uint256 slot, uint256 equipmentId) external {
        (uint96 data, ShipRecord storage ship) = _ownShip(shipId);
        if (ship.exploringSince != 0) revert ShipExploring(shipId);
        if (slot >= SLOT_COUNT) revert NoSuchSlot(slot);
        if (slot >= _openSlots(data, ship)) revert SlotLocked(shipId, slot);
        uint256[4] storage fitted = _fitted[shipId];
        if (fitted[slot] != 0) revert SlotTaken(shipId, slot);

        (address equipmentOwner, uint96 equipment) = _token(equipmentId);
        if (equipmentOwner == address(0) || ItemData.nftType(equipment) != ItemData.EQUIPMENT) {
            revert NotEquipment(equipmentId);
        }
        if (equipmentOwner != msg.sender) revert NotEquipmentOwner(equipmentId);
        // Fitted equipment is locked; so is equipment some other holder of LOCKER_ROLE uses.
        if (card.isLocked(equipmentId)) revert EquipmentInUse(equipmentId);
        if (_slotOf(ItemData.byteAt(equipment, 3)) != slot) revert WrongSlot(equipmentId, slot);

        bool wasLocked = _isLocked(ship);
        fitted[slot] = equipmentId;
        ship.fittedCount += 1;
        card.setLocked(equipmentId, true);
        _syncShipLock(shipId, ship, wasLocked);
        emit EquipmentFitted(shipId, msg.sender, slot, equipmentId);
    }

    function unfit(uint256 shipId, uint256 slot) external {
        (, ShipRecord storage ship) = _ownShip(shipId);
        if (ship.exploringSince != 0) revert ShipExploring(shipId);
        if (slot >= SLOT_COUNT) revert NoSuchSlot(slot);
        uint256[4] storage fitted = _fitted[shipId];
        uint256 equipmentId = fitted[slot];
        if (equipmentId == 0) revert SlotEmpty(shipId, slot);

        delete fitted[slot];
        ship.fittedCount -= 1;
        card.setLocked(equipmentId, false);
        _syncShipLock(shipId, ship, true);
        emit EquipmentRemoved(shipId, msg.sender, slot, equipmentId);
    }

    // --- materials ---

    /// @notice Debits mined materials for the game: the backend indexer credits them to the sender's game account.
    function sendMaterialsToGame(uint256[3] calldata amounts, uint256 gameTag) external {
        if (amounts[0] == 0 && amounts[1] == 0 && amounts[2] == 0) revert NothingToSend();
        _spendMaterials(amounts);
        emit MaterialsSentToGame(msg.sender, amounts, gameTag);
    }

    // --- reads ---

    /// @notice Each id's ship; a token that does not exist or is no ship gives its id, owner 0 and zeros elsewhere.
    function queryShips(uint256[] calldata tokenIds) external view returns (ShipView[] memory ships) {
        ships = new ShipView[](tokenIds.length);
        for (uint256 i = 0; i < tokenIds.length; ++i) {
            ships[i] = _view(tokenIds[i]);
        }
    }

    /// @notice DarkIron, Silver, Gold mined by `owner` and not yet spent or sent to the game.
    function minedOf(address owner) external view returns (uint256[3] memory) {
        return _mined[owner];
    }

    /// @notice The duration-lost calculator: `miningSeconds` of mining by the ship as it is now (power, level, lost
    /// rate and the duration left it has, not counting a running mission). (`seconds` is a Solidity keyword.)
    function lostByMiningSeconds(uint256 tokenId, uint256 miningSeconds)
        external
        view
        returns (uint256 minedSeconds, uint256 lost, uint256[3] memory mined)
    {
        (address owner, uint96 data) = _token(tokenId);
        if (owner == address(0) || ItemData.nftType(data) != ItemData.SPACESHIP) revert NotAShip(tokenId);
        return _outcome(tokenId, data, _ships[tokenId], miningSeconds);
    }

    // --- administration ---

    function setTreasury(address treasury_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        treasury = treasury_;
        emit TreasuryChanged(treasury_);
    }

    // --- internals ---

    /// @dev The token's owner and attribute word; owner 0 when the token does not exist.
    function _token(uint256 tokenId) private view returns (address owner, uint96 data) {
        try card.ownerOf(tokenId) returns (address holder) {
            return (holder, card.dataOf(tokenId));
        } catch {
            return (address(0), 0);
        }
    }

    /// @dev The caller's ship: its attribute word and record. A locked ship cannot change hands, so the owner
    /// checked here is the owner for the whole of a mission or fitting.
    function _ownShip(uint256 shipId) private view returns (uint96 data, ShipRecord storage ship) {
        address owner;
        (owner, data) = _token(shipId);
        if (owner == address(0) || ItemData.nftType(data) != ItemData.SPACESHIP) revert NotAShip(shipId);
        if (owner != msg.sender) revert NotShipOwner(shipId);
        ship = _ships[shipId];
    }

    function _view(uint256 tokenId) private view returns (ShipView memory ship) {
        ship.tokenId = tokenId;
        (address owner, uint96 data) = _token(tokenId);
        if (owner == address(0) || ItemData.nftType(data) != ItemData.SPACESHIP) return ship;
        ShipRecord storage record = _ships[tokenId];
        ship.owner = owner;
        ship.shipType = _shipType(data);
        ship.level = _level(data);
        ship.stats = _stats(data);
        ship.duration = _durationLeft(data, record);
        ship.maxDuration = _maxDuration(data);
        ship.openSlots = _openSlots(data, record);
        ship.fitted = _fitted[tokenId];
        ship.exploringSince = record.exploringSince;
        ship.power = _power(tokenId, data, record);
        ship.lostRate = _lostRate(data);
    }

    function _outcome(uint256 shipId, uint96 data, ShipRecord storage ship, uint256 miningSeconds)
        private
        view
        returns (uint256 minedSeconds, uint256 lost, uint256[3] memory mined)
    {
        uint256 power = _power(shipId, data, ship);
        return miningOutcome(power, _level(data), _lostRate(data), _durationLeft(data, ship), miningSeconds);
    }

    /// @dev Reads the fitted equipment's grade and level from their attribute words, only when there is any.
    function _power(uint256 shipId, uint96 data, ShipRecord storage ship) private view returns (uint256) {
        uint8[4] memory equipmentTypes;
        uint8[4] memory equipmentLevels;
        if (ship.fittedCount != 0) {
            uint256[4] storage fitted = _fitted[shipId];
            for (uint256 slot = 0; slot < SLOT_COUNT; ++slot) {
                uint256 equipmentId = fitted[slot];
                if (equipmentId == 0) continue;
                uint96 equipment = card.dataOf(equipmentId);
                equipmentTypes[slot] = ItemData.byteAt(equipment, 1);
                equipmentLevels[slot] = ItemData.byteAt(equipment, 2);
            }
        }
        return powerOf(_stats(data), _level(data), equipmentTypes, equipmentLevels);
    }

    function _spendMaterials(uint256[3] memory amounts) private {
        uint256[3] storage held = _mined[msg.sender];
        for (uint256 material = 0; material < 3; ++material) {
            uint256 needed = amounts[material];
            if (needed == 0) continue;
            uint256 balance = held[material];
            if (needed > balance) revert NotEnoughMaterials(material, needed, balance);
            held[material] = balance - needed;
        }
    }

    function _isLocked(ShipRecord storage ship) private view returns (bool) {
        return ship.exploringSince != 0 || ship.fittedCount != 0;
    }

    /// @dev Calls the card only when the ship's lock changes.
    function _syncShipLock(uint256 shipId, ShipRecord storage ship, bool wasLocked) private {
        bool locked = _isLocked(ship);
        if (locked != wasLocked) card.setLocked(shipId, locked);
    }

    /// @dev Slot of an equipment code (core/nft.ts equipmentSlot): 1-4 helmet, 5-8 cuirass, 9-12 leggings, else
    /// weapon.
    function _slotOf(uint8 code) private pure returns (uint256) {
        if (code <= 4) return 1;
        if (code <= 8) return 2;
        if (code <= 12) return 3;
        return 0;
    }

    function _openSlots(uint96 data, ShipRecord storage ship) private view returns (uint8) {
        // Epic and Legend ships start with two open slots, the others with one.
        uint256 open = (_shipType(data) >= 3 ? 2 : 1) + uint256(ship.openedSlots);
        return open > SLOT_COUNT ? uint8(SLOT_COUNT) : uint8(open);
    }

    function _durationLeft(uint96 data, ShipRecord storage ship) private view returns (uint256) {
        uint256 full = _maxDuration(data);
        uint256 missing = ship.missing;
        // Only a level lowered by another mutator could make missing exceed the full duration.
        return missing >= full ? 0 : full - missing;
    }

    function _maxDuration(uint96 data) private pure returns (uint256) {
        return maxDurationOf(_shipType(data), _level(data));
    }

    function _lostRate(uint96 data) private pure returns (uint256) {
        // Endurance is the first stat (byte 3), Armor the last (byte 9).
        return lostRateOf(ItemData.byteAt(data, 3), ItemData.byteAt(data, 9));
    }

    function _shipType(uint96 data) private pure returns (uint8) {
        return ItemData.byteAt(data, 1);
    }

    function _level(uint96 data) private pure returns (uint8) {
        return ItemData.byteAt(data, 2);
    }

    function _stats(uint96 data) private pure returns (uint8[7] memory stats) {
        for (uint256 i = 0; i < 7; ++i) {
            stats[i] = ItemData.byteAt(data, 3 + i);
        }
    }
}
