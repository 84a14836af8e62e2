import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("consent", "routes/consent.ts"),
  route("language/:lang", "routes/language.ts"),
  route("companies", "routes/companies.tsx"),
  route("support", "routes/support.tsx"),
  route("terms", "routes/terms.tsx"),
  route("cookies", "routes/cookies.tsx"),
  // Must stay last: every other path is the spec's 'Page not found'.
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
