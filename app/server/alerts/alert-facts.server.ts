/** What an alert is about (decision 033): the fan-out's input, and what the channels render. */
import type { Lang } from "~/i18n/config";
import type { DeviceClass } from "~/lib/domain/scans";

interface Base {
  itemId: string;
  itemName: string;
}
export type AlertFacts =
  | (Base & {
      event: "finderMessage";
      conversationId: string;
      message: string;
      first: boolean;
      contact: string;
      location: { latitude: number; longitude: number } | null;
      paidNow: boolean;
      /** The finder wrote by SMS (decision 055): the reference the owner answers by SMS with. */
      smsRef?: string | null;
    })
  | (Base & { event: "reply"; conversationId: string; message: string; byName: string })
  | (Base & { event: "lostScan" | "scan"; at: number; scanLang: Lang; device: DeviceClass })
  | (Base & {
      event: "returned";
      conversationId: string;
      at: number;
      fee: number;
      currency: string;
    });
