/** Tables of finders who only have SMS (decision 055). */

/** An incoming SMS 46elks delivered (migration 0065): its id, so a resend is handled once. */
export interface ElksIncomingTable {
  /** 46elks' id of the SMS. */
  id: string;
  receivedAt: number;
  /** What Hittad answered (sent back again on a resend), or null: no reply. */
  reply: string | null;
}
