/** Input of the invite and rebate endpoints. */
import { getAddress, isAddress } from "viem";
import { z } from "zod";
import { type Address, param, required } from "../shared/params";

export const rebateSchema = z.object({
  emailAddr: required(z.string().trim().toLowerCase().email("expected an email address"), "your account's email"),
  erc20Addr: required(z.string().trim().max(64), "a currency symbol or token address"),
});

export const claimRebateSchema = z.object({
  erc20Addr: required(z.string().trim().max(64), "a currency symbol or token address"),
});

/** An invite code, or the inviter's wallet (SSO registration's RefferAddr may hold either). */
export const acceptInviteSchema = z.object({
  code: required(
    param((value) => {
      if (isAddress(value, { strict: true })) return getAddress(value) as Address;
      return /^[A-Z0-9]{6,16}$/i.test(value) ? value.toUpperCase() : undefined;
    }, "an invite code or the inviter's wallet address"),
    "an invite code",
  ),
});

/** An award's id (its nonce), as claimRebate answered it. */
export const awardSignSchema = z.object({
  txId: required(
    param((value) => (/^\d{1,15}$/.test(value) && Number(value) > 0 ? Number(value) : undefined), "an award txId"),
    "an award txId",
  ),
});
