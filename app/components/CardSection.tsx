import type { ReactNode } from "react";

/** A titled card of a settings page (the account and organisation pages): a region named by its heading. */
export function CardSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card mb-4" aria-labelledby={`${id}-title`}>
      <div className="card-body">
        <h2 id={`${id}-title`} className="h4 card-title">
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}
