import { contactParts } from "~/lib/domain/contact-links";

/**
 * An owner's contact text with its phone numbers and email addresses as tel: / mailto:
 * links (decision 018). Everything is rendered as React text: the owner's words never
 * become markup. Line breaks are kept by the surrounding element's CSS (pre-line).
 */
export function ContactText({ text }: { text: string }) {
  return (
    <>
      {contactParts(text).map((p, i) =>
        p.kind === "text" ? (
          p.text
        ) : (
          <a key={i} href={p.href} className={`contact-link contact-${p.kind}`}>
            {p.text}
          </a>
        ),
      )}
    </>
  );
}
