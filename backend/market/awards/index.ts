/** Awards the reward manager pays on chain (decision 0017): claimed rebates, signed, sent, paid or expired. */
export { REWARDS_STREAM, awardPaid, awardToSend, awardView, issueAward, recentAwards, settleExpiredAwards, undoAwardPaid } from "./awards";
