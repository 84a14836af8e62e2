/**
 * Decision 030: an organisation's admin accepts the current data processing agreement
 * (the real service), as every organisation must before it invites or imports. For tests
 * whose subject is the invite or the import, not the agreement (tests/integration/dpa.test.ts).
 */
import { DPA_VERSION } from "../../app/lib/domain/dpa";
import type { OrganisationInput } from "../../app/lib/domain/organisations";
import { insertDpaAcceptance } from "../../app/server/organisations/dpa.repository.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import type { Deps } from "../../app/server/service-deps.server";

export async function acceptCurrentDpa(deps: Pick<Deps, "db" | "clock">, adminId: string, organisationId: string) {
  // The repository, not acceptDpa: some tests use organisation ids of their own making.
  await insertDpaAcceptance(deps.db, {
    organisationId,
    version: DPA_VERSION,
    userId: adminId,
    name: "Test Admin",
    email: "admin@example.test",
    acceptedAt: deps.clock(),
  });
}

/** createOrganisation, then its creator accepts the agreement. */
export async function createOrganisationWithDpa(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  input: OrganisationInput,
): Promise<string> {
  const id = await createOrganisation(deps, userId, input);
  await acceptCurrentDpa(deps, userId, id);
  return id;
}
