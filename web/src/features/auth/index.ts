// The sign-in page is not here: the router loads it on demand, and a static import of this file
// would pull it into the first bundle.
export { useUser } from "./data/get-user.ts";
export { useLogout } from "./data/logout.ts";
export { useLogoutOthers } from "./data/logout-others.ts";
