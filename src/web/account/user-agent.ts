/** A session's user agent as the sessions page names it. Pure. */

/** A user agent cut to what people recognise: the browser and the system, or the first words. */
export function browserOf(agent: string | null): string | null {
  if (!agent) return null;
  const browser = /(Edg|Firefox|Chrome|Chromium|Safari|curl|python-requests|node)\/[\d.]+/.exec(agent)?.[0]?.replace("Edg/", "Edge/");
  const system = /\((?:X11; )?([^;)]+)/.exec(agent)?.[1];
  return browser ? `${browser.split(".")[0]}${system ? ` on ${system}` : ""}` : agent.slice(0, 60);
}
