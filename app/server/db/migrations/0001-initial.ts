import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * better-auth's core tables (exactly as its Kysely adapter expects them, with our
 * profile fields language and adress on user), the products table and a counter
 * table for our own rate limits. Frozen once landed: change the schema in a new file.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? "timestamptz" : "date";
  const bool = pg ? "boolean" : "integer";
  const now = (col: any) => (pg ? col.notNull().defaultTo(sql`CURRENT_TIMESTAMP`) : col.notNull());

  await db.schema
    .createTable("user")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("emailVerified", sql.raw(bool), (c) => c.notNull())
    .addColumn("image", "text")
    .addColumn("createdAt", sql.raw(ts), now)
    .addColumn("updatedAt", sql.raw(ts), now)
    .addColumn("language", "text")
    .addColumn("adress", "text")
    .execute();

  await db.schema
    .createTable("session")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("expiresAt", sql.raw(ts), (c) => c.notNull())
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("createdAt", sql.raw(ts), now)
    .addColumn("updatedAt", sql.raw(ts), (c) => c.notNull())
    .addColumn("ipAddress", "text")
    .addColumn("userAgent", "text")
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .execute();
  await db.schema.createIndex("session_userId_idx").on("session").column("userId").execute();

  await db.schema
    .createTable("account")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("accountId", "text", (c) => c.notNull())
    .addColumn("providerId", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("accessToken", "text")
    .addColumn("refreshToken", "text")
    .addColumn("idToken", "text")
    .addColumn("accessTokenExpiresAt", sql.raw(ts))
    .addColumn("refreshTokenExpiresAt", sql.raw(ts))
    .addColumn("scope", "text")
    .addColumn("password", "text")
    .addColumn("createdAt", sql.raw(ts), now)
    .addColumn("updatedAt", sql.raw(ts), (c) => c.notNull())
    .execute();
  await db.schema.createIndex("account_userId_idx").on("account").column("userId").execute();

  await db.schema
    .createTable("verification")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expiresAt", sql.raw(ts), (c) => c.notNull())
    .addColumn("createdAt", sql.raw(ts), now)
    .addColumn("updatedAt", sql.raw(ts), now)
    .execute();
  await db.schema.createIndex("verification_identifier_idx").on("verification").column("identifier").execute();

  await db.schema
    .createTable("rateLimit")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key", "text", (c) => c.notNull().unique())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("lastRequest", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("products")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("findFee", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("prodType", "text", (c) => c.notNull())
    .addColumn("contactInfo", "text", (c) => c.notNull())
    .addColumn("payment", "text", (c) => c.notNull())
    .addColumn("payed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("paidUntil", "bigint")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("updatedAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("products_owner_idx").on("products").columns(["owner", "createdAt"]).execute();

  await db.schema
    .createTable("app_rate_limits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("windowStart", "bigint", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["app_rate_limits", "products", "rateLimit", "verification", "account", "session", "user"]) {
    await db.schema.dropTable(t).execute();
  }
}
