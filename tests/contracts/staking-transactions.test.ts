/**
 * The staking island's transaction sequences (app/features/staking/staking-transactions.ts) against the deployed local
 * chain: deposits with and without an approval, the refusals made before anything is sent, and withdrawAndClaim
 * once the chain's clock has passed the vault's end. The tests run in order: the last ones move the clock.
 */
import { describe, expect, it } from "vitest";
import { createWalletClient, custom, type Account, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { blindBoxAbi, fireStakingAbi, gameTokenAbi } from "../../contracts/generated/abi";
import { INSUFFICIENT_BALANCE, revertMessage } from "~core/chain-errors";
import { STAKE_POOLS } from "~core/pools";
import {
  depositStake,
  StakingError,
  withdrawAndClaim,
  type StakingClients,
  type StakingStep,
  type StepState,
} from "~/features/staking/staking-transactions";
import { sequenceRefusal as refusal, type TestChain, setUpTestChain } from "./harness";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const POOL = 1;
const STANDARD = BigInt(STAKE_POOLS[0]!.rewardBoxType);

let t: TestChain;
let c: TestChain["deployment"]["contracts"];

setUpTestChain((chain) => ([t, c] = [chain, chain.deployment.contracts]));

/** A new player with 10 BNB (anvil's ether) and `fire` FIRE wei, and the clients the sequences take. */
async function player(fire: bigint) {
  const account = privateKeyToAccount(generatePrivateKey());
  await t.testClient.setBalance({ address: account.address, value: 10n * WEI });
  if (fire > 0n)
    await t.mined(t.deployer.writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "mint", args: [account.address, fire] }));
  const wallet = t.walletFor(account);
  const clients: StakingClients = { publicClient: t.publicClient, walletClient: wallet };
  return { account, wallet, clients };
}

const fireOf = (owner: Address) =>
  t.publicClient.readContract({ address: c.fire, abi: gameTokenAbi, functionName: "balanceOf", args: [owner] });
const allowance = (owner: Address) =>
  t.publicClient.readContract({ address: c.fire, abi: gameTokenAbi, functionName: "allowance", args: [owner, c.staking] });
const sent = (account: Account) => t.publicClient.getTransactionCount({ address: account.address });
const poolInfo = () => t.publicClient.readContract({ address: c.staking, abi: fireStakingAbi, functionName: "queryPoolInfo", args: [1n] });
const stakeOf = (owner: Address) =>
  t.publicClient.readContract({ address: c.staking, abi: fireStakingAbi, functionName: "queryUserStake", args: [1n, owner] });

/** Records the steps a sequence reports ("approve pending"), and the hash each transaction was reported with. */
function reports() {
  const seen: string[] = [];
  const hashes: Partial<Record<StakingStep, string>> = {};
  const report = (step: StakingStep, state: StepState, hash?: string) => {
    seen.push(`${step} ${state}`);
    if (!hash) return;
    // A transaction keeps its hash from pending to confirmed.
    if (hashes[step]) expect(hash).toBe(hashes[step]);
    hashes[step] = hash;
  };
  return { seen, hashes, report };
}

describe("depositStake", () => {
  it("approves exactly the amount when the allowance is short, then deposits, reporting each transaction's states", async () => {
    const { account, clients } = await player(240n * WEI);
    const before = await poolInfo();
    const { seen, hashes, report } = reports();
    const deposit = await depositStake(clients, c, { poolId: POOL, amount: 140n * WEI }, report);

    expect(deposit).toMatchObject({ approved: true, stake: 140n * WEI, rewardBoxes: 1n });
    expect(hashes.deposit).toBe(deposit.txHash);
    expect(hashes.approve).toMatch(/^0x[0-9a-f]{64}$/);
    expect(seen).toEqual([
      "approve wallet",
      "approve pending",
      "approve confirmed",
      "deposit wallet",
      "deposit pending",
      "deposit confirmed",
    ]);
    expect(await fireOf(account.address)).toBe(100n * WEI);
    // The approval covered the deposit exactly, and the deposit spent it.
    expect(await allowance(account.address)).toBe(0n);
    expect(await sent(account)).toBe(2);
    expect(await stakeOf(account.address)).toEqual([140n * WEI, 1n]);
    const after = await poolInfo();
    expect(after.totalStakingTokens - before.totalStakingTokens).toBe(140n * WEI);
    expect(after.stakingAddrNumber - before.stakingAddrNumber).toBe(1n);
  });

  it("does not approve when the allowance covers the amount; a second deposit adds to the stake and its rewards", async () => {
    const { account, wallet, clients } = await player(200n * WEI);
    await t.mined(wallet.writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "approve", args: [c.staking, 200n * WEI] }));
    const { seen, report } = reports();

    const first = await depositStake(clients, c, { poolId: POOL, amount: 60n * WEI }, report);
    expect(first).toMatchObject({ approved: false, stake: 60n * WEI, rewardBoxes: 0n });
    expect(seen).toEqual(["deposit wallet", "deposit pending", "deposit confirmed"]);
    const second = await depositStake(clients, c, { poolId: POOL, amount: 60n * WEI });
    expect(second).toMatchObject({ approved: false, stake: 120n * WEI, rewardBoxes: 1n });
    expect(await allowance(account.address)).toBe(80n * WEI);
    expect(await sent(account)).toBe(3);
  });

  it("refuses a zero amount, a short balance and an unknown pool before sending anything", async () => {
    const { account, clients } = await player(50n * WEI);

    const zero = await refusal(depositStake(clients, c, { poolId: POOL, amount: 0n }));
    expect(zero.error).toBeInstanceOf(StakingError);
    expect(zero.error).toMatchObject({ code: "zero-amount", message: revertMessage("ZeroAmount", []) });

    const short = await refusal(depositStake(clients, c, { poolId: POOL, amount: 50n * WEI + 1n }));
    expect(short.error).toMatchObject({ code: "insufficient-balance" });
    expect(short.message).toBe(INSUFFICIENT_BALANCE);

    const unknown = await refusal(depositStake(clients, c, { poolId: 42, amount: WEI }));
    expect(unknown.message).toBe(revertMessage("UnknownPool", [42n]));
    expect(await sent(account)).toBe(0);
    expect(await fireOf(account.address)).toBe(50n * WEI);
  });

  it("says the user cancelled when the wallet rejects the approval, and nothing is sent", async () => {
    const { account } = await player(100n * WEI);
    // A wallet whose user presses "Reject": EIP-1193's 4001 for every transaction, the node for the rest.
    const rejecting = createWalletClient({
      account: { address: account.address, type: "json-rpc" },
      chain: t.publicClient.chain,
      transport: custom({
        async request({ method, params }) {
          if (method === "eth_sendTransaction") throw Object.assign(new Error("User rejected the request."), { code: 4001 });
          return t.publicClient.request({ method, params } as never);
        },
      }),
    });
    const { seen, report } = reports();
    const { message } = await refusal(
      depositStake({ publicClient: t.publicClient, walletClient: rejecting }, c, { poolId: POOL, amount: WEI }, report),
    );
    expect(message).toBe("You cancelled the request in your wallet.");
    expect(seen).toEqual(["approve wallet"]);
    expect(await sent(account)).toBe(0);
  });
});

describe("after the clock moves", () => {
  /** Stakes 240 FIRE while the pool is open: two reward boxes at pool 1's threshold of 100 FIRE (contracts/deploy.ts). */
  let staker: Awaited<ReturnType<typeof player>>;

  it("refuses withdrawing while the vault is locked, from the simulation, with nothing sent", async () => {
    staker = await player(240n * WEI);
    await depositStake(staker.clients, c, { poolId: POOL, amount: 240n * WEI });
    const sentBefore = await sent(staker.account);
    const { endVaultTime } = await poolInfo();

    const { seen, report } = reports();
    const locked = await refusal(withdrawAndClaim(staker.clients, c, POOL, report));
    expect(locked.message).toBe(revertMessage("VaultLocked", [1n, BigInt(endVaultTime)]));
    expect(locked.message).toMatch(/^Your stake in the Standard Pool is locked in the vault until \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);
    expect(seen).toEqual(["withdraw wallet"]);
    expect(await sent(staker.account)).toBe(sentBefore);
  });

  it("refuses a deposit once staking has ended, before asking for an approval", async () => {
    const { account, clients } = await player(120n * WEI);
    const { endStakingTime } = await poolInfo();
    await t.advanceTime(Number(BigInt(endStakingTime) - (await t.publicClient.getBlock()).timestamp + 1n));

    const { seen, report } = reports();
    const { error, message } = await refusal(depositStake(clients, c, { poolId: POOL, amount: 120n * WEI }, report));
    expect(error).toMatchObject({ code: "not-open" });
    // The pool is locked now (status 2).
    expect(message).toBe(revertMessage("StakingNotOpen", [1n, 2]));
    expect(message).toBe("Staking in the Standard Pool has ended: it takes no more deposits, and the stakes are locked in the vault.");
    expect(seen).toEqual([]);
    expect(await sent(account)).toBe(0);
  });

  it("after the vault ends, returns the whole stake and forges one reward box per threshold reached; a second claim is refused", async () => {
    const { account, clients } = staker;
    const { endVaultTime } = await poolInfo();
    await t.advanceTime(Number(BigInt(endVaultTime) - (await t.publicClient.getBlock()).timestamp + 1n));
    const before = await poolInfo();

    const { seen, hashes, report } = reports();
    const withdrawal = await withdrawAndClaim(clients, c, POOL, report);
    expect(seen).toEqual(["withdraw wallet", "withdraw pending", "withdraw confirmed"]);
    expect(hashes.withdraw).toBe(withdrawal.txHash);
    expect(withdrawal.amount).toBe(240n * WEI);
    expect(withdrawal.rewardBoxIds).toHaveLength(2);
    for (const id of withdrawal.rewardBoxIds) {
      expect(await t.publicClient.readContract({ address: c.box, abi: blindBoxAbi, functionName: "ownerOf", args: [id] })).toBe(
        account.address,
      );
      expect(await t.publicClient.readContract({ address: c.box, abi: blindBoxAbi, functionName: "boxTypeOf", args: [id] })).toBe(STANDARD);
    }
    expect(await fireOf(account.address)).toBe(240n * WEI);
    expect(await stakeOf(account.address)).toEqual([0n, 0n]);
    const after = await poolInfo();
    expect(before.totalStakingTokens - after.totalStakingTokens).toBe(240n * WEI);
    expect(after.claimedNftNumber - before.claimedNftNumber).toBe(2n);

    const sentBefore = await sent(account);
    const again = await refusal(withdrawAndClaim(clients, c, POOL));
    expect(again.message).toBe(revertMessage("NothingStaked", [1n]));
    expect(await sent(account)).toBe(sentBefore);
  });
});
