/** The signed-in user's menu in the header (being built: issue 17); nothing in personal mode. */
export function UserMenu() {
  return null;
}
