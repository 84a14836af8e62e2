// `npm run elks -- --text "K7M 29Q XHR hittade din cykel" [--from +46701234567] [--id s123]`:
// for local trials of finders who only have SMS (decision 055). Posts one incoming SMS to
// the running server's webhook exactly as 46elks does for SMS_NUMBER (a form, resent on
// anything but 200–204) and prints the reply SMS the answer held. Reads BASE_URL,
// SMS_NUMBER and ELKS_WEBHOOK_SECRET like the server. Give the same --id twice to see a
// resend handled once.
import { parseArgs } from "node:util";
import { getConfig } from "../app/server/config.server";
import { postIncomingSms } from "../tests/support/elks";

const { values } = parseArgs({
  options: { text: { type: "string" }, from: { type: "string", default: "+46701234567" }, id: { type: "string" } },
});
const config = getConfig();
if (!values.text || !config.sms.number || !config.sms.webhookSecret) {
  console.error('Usage: npm run elks -- --text "<code> <message>" [--from +46…] [--id <46elks id>]');
  console.error("Needs SMS_NUMBER and ELKS_WEBHOOK_SECRET set as for the server.");
  process.exit(2);
}
const url = new URL("/webhooks/46elks/sms", config.baseUrl);
url.searchParams.set("secret", config.sms.webhookSecret);
const result = await postIncomingSms(url.toString(), {
  from: values.from,
  to: config.sms.number,
  message: values.text,
  id: values.id,
});
console.log(`46elks id ${result.id}: answered ${result.statuses.join(", ")}`);
console.log(result.reply ? `Reply SMS from ${config.sms.number}: ${result.reply}` : "No reply SMS.");
