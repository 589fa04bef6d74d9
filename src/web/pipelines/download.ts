/** A pipeline's saved TOML saved as a file by the browser, with no request. */

/** Saves `text` as a file named `filename` through a temporary object URL (no request needed). */
export function downloadText(filename: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/toml" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
