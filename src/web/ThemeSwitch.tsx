/** Light, dark or the system's choice, remembered in this browser; the page's `data-theme` carries it to the styles. */
import { useEffect, useState } from "react";

type Theme = "system" | "light" | "dark";
const NEXT: Record<Theme, Theme> = { system: "light", light: "dark", dark: "system" };

function storedTheme(): Theme {
  const value = localStorage.getItem("strand-theme");
  return value === "light" || value === "dark" ? value : "system";
}

export function ThemeSwitch() {
  const [theme, setTheme] = useState<Theme>(storedTheme);
  useEffect(() => {
    if (theme === "system") {
      delete document.documentElement.dataset.theme;
      localStorage.removeItem("strand-theme");
    } else {
      document.documentElement.dataset.theme = theme;
      localStorage.setItem("strand-theme", theme);
    }
  }, [theme]);
  return (
    <button type="button" className="theme-switch" onClick={() => setTheme(NEXT[theme])} aria-label={`Theme: ${theme}. Switch to ${NEXT[theme]}`}>
      {theme === "system" ? "◐ system" : theme === "light" ? "☀ light" : "☾ dark"}
    </button>
  );
}
