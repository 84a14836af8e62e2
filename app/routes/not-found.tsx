import { data } from "react-router";

/** Any path no other route claims: the spec's 'Page not found' with HTTP 404. */
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
