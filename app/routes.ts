import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("consent", "routes/consent.ts"),
  route("language/:lang", "routes/language.ts"),
  route("companies", "routes/companies.tsx"),
  route("support", "routes/support.tsx"),
  route("terms", "routes/terms.tsx"),
  route("cookies", "routes/cookies.tsx"),
  route("login", "routes/login.tsx"),
  route("logout", "routes/logout.tsx"),
  route("user/register", "routes/register.tsx"),
  route("user/social", "routes/social-return.tsx"),
  route("resetpassword", "routes/reset-password.tsx"),
  route("resetpassword/new", "routes/new-password.tsx"),
  route("contact", "routes/contact.tsx"),
  route("api/contact", "routes/api.contact.ts"),
  route("api/captcha/challenge", "routes/api.captcha.challenge.ts"),
  route("admin/messages", "routes/admin.messages.tsx"),
  route("admin/messages/:id", "routes/admin.message.tsx"),
  route("dashboard", "routes/dashboard.tsx"),
  route("product/register", "routes/product-register.tsx"),
  route("product/edit/:id", "routes/product-edit.tsx"),
  route("product/:id", "routes/product.tsx"),
  route("product/:id/qr.svg", "routes/product-qr.ts"),
  route("user/register-adress", "routes/register-adress.tsx"),
  // The sticker's short URL /{id}: only ids match (its loader 404s anything else); keep it just before `*`.
  route(":id", "routes/product-short.tsx"),
  // Must stay last: every other path is the spec's 'Page not found'.
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
