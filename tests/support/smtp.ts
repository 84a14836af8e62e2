/**
 * A real SMTP server for tests (smtp-server), so mail goes through nodemailer's SMTP
 * code path exactly as in production. Messages are parsed with postal-mime.
 */
import PostalMime, { type Email } from "postal-mime";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  replyTo: string[];
  raw: string;
  parsed: Email;
  /** When the stand-in had the whole message (ms since the epoch). */
  at: number;
}

export interface TestSmtpServer {
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** Resolves with the first (already received or future) mail matching `predicate`. */
  waitForMail(predicate: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const listeners = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        const at = Date.now();
        const raw = Buffer.concat(chunks).toString("utf8");
        const parsed = await PostalMime.parse(raw);
        messages.push({
          from: parsed.from?.address ?? "",
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: parsed.html ?? "",
          replyTo: (parsed.replyTo ?? []).map((a) => ("address" in a ? (a.address ?? "") : "")),
          raw,
          parsed,
          at,
        });
        for (const l of listeners) l();
        callback();
      });
    },
  });
  const actualPort = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.server.address() as { port: number }).port));
  });
  return {
    url: `smtp://127.0.0.1:${actualPort}`,
    port: actualPort,
    messages,
    waitForMail(predicate, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (found) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(
            new Error(`no matching mail within ${timeoutMs} ms; got: ${messages.map((m) => m.subject).join(" | ")}`),
          );
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
