/**
 * The trade panel's chain forms (chain-trade-forms.tsx), and for a browser wallet its island beside them: the forms'
 * submit goes to the island (use-chain-wallet.tsx). Lazily loaded with the forms, so a page without them carries none
 * of this (the item page's budget, issue 17).
 */
import type { ComponentProps } from "react";
import type { BoundWallet } from "~/domain/wallet-mode";
import { ChainTradeForms } from "./chain-trade-forms";
import { useChainWallet } from "./use-chain-wallet";

export function ChainWalletForms({
  browserWallet,
  tokenId,
  isOwner,
  ...forms
}: ComponentProps<typeof ChainTradeForms> & {
  /** The viewer's browser wallet; null for a managed wallet, whose forms post as they are. */
  browserWallet: BoundWallet | null;
  tokenId: string;
  isOwner: boolean;
}) {
  const chainWallet = useChainWallet(browserWallet ? { trade: forms.chainTrade, wallet: browserWallet, tokenId, isOwner } : null);
  return (
    <>
      <ChainTradeForms
        {...forms}
        onSubmit={browserWallet ? chainWallet.onSubmit : forms.onSubmit}
        disabled={forms.disabled || chainWallet.busy}
      />
      {chainWallet.island}
    </>
  );
}
